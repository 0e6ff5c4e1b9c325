// Steps to reproduce: the server reads them from the actions and requests a signed-in reviewer's
// widget kept (and the page's errors, and the pin), keeps them with the comment, and refuses a
// log that is not bounded or not what the widget keeps.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { STEPS_ACTIONS_MAX, STEPS_REQUESTS_MAX } from '@svc/contract';
import {
  call,
  capturedContext,
  countRows,
  createProject,
  createTestApp,
  type Member,
  signUp,
  type TestApp,
} from '../../../test/helpers.js';

const at = (second: number) => `2026-11-22T10:00:${String(second).padStart(2, '0')}.000Z`;

const trail = {
  errors: [
    { kind: 'console', message: 'TypeError: plan is undefined', at: at(5) },
    {
      kind: 'network',
      message: 'POST https://app.example.test/api/orders answered 500',
      at: at(6),
      method: 'POST',
      url: 'https://app.example.test/api/orders',
      status: 500,
      durationMs: 40,
    },
  ],
  actions: [
    { kind: 'open', at: at(1), path: '/' },
    { kind: 'navigate', at: at(2), path: '/pricing' },
    { kind: 'navigate', at: at(2), path: '/pricing' },
    { kind: 'press', at: at(3), name: 'Choose Team' },
    { kind: 'press', at: at(3), name: 'Choose Team' },
    { kind: 'press', at: at(3), name: '' },
    { kind: 'type', at: at(4), name: 'E-mail' },
    { kind: 'type', at: at(4), name: 'E-mail' },
  ],
  requests: [
    { method: 'GET', url: 'https://app.example.test/api/plans', status: 200, durationMs: 12, at: at(2) },
    { method: 'POST', url: 'https://app.example.test/api/orders', status: 500, durationMs: 40, at: at(6) },
  ],
};

const EXPECTED = [
  { kind: 'opened', path: '/' },
  { kind: 'opened', path: '/pricing' },
  { kind: 'pressed', name: 'Choose Team', times: 2 },
  { kind: 'typed', field: 'E-mail' },
  { kind: 'error', message: 'TypeError: plan is undefined' },
  { kind: 'requestFailed', method: 'POST', path: '/api/orders', status: 500 },
  { kind: 'pinned', name: 'Team $29' },
];

describe('steps to reproduce, kept with a comment', () => {
  let t: TestApp;
  let admin: Member;
  let project: { key: string };
  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app);
    project = await createProject(t.app, admin);
  });
  after(() => t.close());

  const create = (context: unknown, anchor: unknown = { selector: '#team > button', x: 1, y: 1, name: 'Team $29' }) =>
    call(t.app, 'POST', `/api/projects/${project.key}/comments`, {
      token: admin.token,
      body: { body: 'The order fails', pageUrl: 'https://app.example.test/pricing', anchor, context },
    });

  test('the steps are read from the actions, failed requests, errors and pin, repeats said once, and kept with the comment', async () => {
    const created = await create({ ...capturedContext, ...trail });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.deepEqual(created.body.context.steps, EXPECTED);
    const read = await call(t.app, 'GET', `/api/comments/${created.body.id}`, { token: admin.token });
    assert.deepEqual(read.body.context.steps, EXPECTED);
    const row = await t.app.database.db
      .selectFrom('comments')
      .select('context')
      .where('id', '=', created.body.id)
      .executeTakeFirstOrThrow();
    assert.deepEqual(JSON.parse(row.context as string).steps, EXPECTED);
  });

  test('without a log of actions (no reviewer’s recorder), no steps are made up from the errors alone', async () => {
    const created = await create({ ...capturedContext, errors: trail.errors });
    assert.equal(created.status, 201);
    assert.equal(created.body.context.steps, undefined);
  });

  test('a comment on the page says so as its last step; steps sent by the client are not taken', async () => {
    const created = await create({ ...capturedContext, ...trail, steps: [{ kind: 'opened', path: '/made-up' }] }, null);
    assert.equal(created.status, 201);
    assert.deepEqual(created.body.context.steps.at(-1), { kind: 'pinned', name: null });
    assert.ok(!JSON.stringify(created.body.context.steps).includes('made-up'));
  });

  test('what an action does not keep (a field’s value) is dropped before it is stored', async () => {
    const created = await create({
      ...capturedContext,
      errors: [],
      actions: [{ kind: 'type', at: at(1), name: 'Password', value: 'hunter2-secret' }],
    });
    assert.equal(created.status, 201);
    const row = await t.app.database.db
      .selectFrom('comments')
      .select('context')
      .where('id', '=', created.body.id)
      .executeTakeFirstOrThrow();
    assert.ok(!String(row.context).includes('hunter2-secret'));
    assert.deepEqual(created.body.context.actions, [{ kind: 'type', at: at(1), name: 'Password' }]);
  });

  const press = (n: number) => ({ kind: 'press', at: at(n % 60), name: `Button ${n}` });
  const request = (n: number) => ({
    method: 'GET',
    url: `https://app.example.test/api/${n}`,
    status: 200,
    durationMs: 1,
    at: at(n % 60),
  });
  for (const [what, context] of [
    ['too many actions', { actions: Array.from({ length: STEPS_ACTIONS_MAX + 1 }, (_, n) => press(n)) }],
    [
      'too many requests',
      { actions: [], requests: Array.from({ length: STEPS_REQUESTS_MAX + 1 }, (_, n) => request(n)) },
    ],
    ['an action of no known kind', { actions: [{ kind: 'hover', at: at(1) }] }],
    ['an action without its time', { actions: [{ kind: 'press', name: 'Buy' }] }],
    ['a name too long', { actions: [{ kind: 'press', at: at(1), name: 'x'.repeat(201) }] }],
    ['a name over two lines', { actions: [{ kind: 'press', at: at(1), name: 'Buy\nnow' }] }],
    ['a path too long', { actions: [{ kind: 'navigate', at: at(1), path: `/${'p'.repeat(2000)}` }] }],
    ['a request with a status out of range', { actions: [], requests: [{ ...request(1), status: 1000 }] }],
    ['a request without its duration', { actions: [], requests: [{ ...request(1), durationMs: undefined }] }],
    ['a log that is not a list', { actions: { kind: 'press' } }],
  ] as const) {
    test(`a log with ${what} is refused (400) and writes nothing`, async () => {
      const before = await countRows(t.app, 'comments');
      const answer = await create({ ...capturedContext, errors: [], ...context });
      assert.equal(answer.status, 400, JSON.stringify(answer.body));
      assert.equal(await countRows(t.app, 'comments'), before);
    });
  }

  test('the fullest log the widget sends is taken, and its steps stay bounded', async () => {
    const answer = await create({
      ...capturedContext,
      errors: [],
      actions: Array.from({ length: STEPS_ACTIONS_MAX }, (_, n) => press(n)),
      requests: Array.from({ length: STEPS_REQUESTS_MAX }, (_, n) => ({ ...request(n), status: 503 })),
    });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    assert.equal(answer.body.context.steps.length, 30);
    assert.deepEqual(answer.body.context.steps.at(-1), { kind: 'pinned', name: 'Team $29' });
  });
});
