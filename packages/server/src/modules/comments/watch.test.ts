import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  addClient,
  addMember,
  call,
  createComment,
  createProject,
  createTestApp,
  createTestDatabase,
  dialect,
  type Member,
  signUp,
  type TestApp,
  waitersAre,
} from '../../../test/helpers.js';
import { callServer, killRemainingServers, startServers } from '../../../test/server-process.js';

describe('waiting for feedback: GET /api/comments/changes', () => {
  let t: TestApp;
  let admin: Member;
  let member: Member;
  let project: { key: string };
  let base: string;
  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app);
    member = await addMember(t.app, admin);
    project = await createProject(t.app, admin);
    base = (await t.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  });
  after(() => t.close());

  const changes = (query: string, token = member.token) =>
    callServer(base, 'GET', `/api/comments/changes${query}`, { token });

  test('without a cursor: the cursor of now and nothing else; then every change after it, oldest first, once', async () => {
    const start = await changes('');
    assert.equal(start.status, 200);
    assert.deepEqual(start.body.items, []);
    const first = await createComment(t.app, admin, project.key, 'First change');
    const second = await createComment(t.app, admin, project.key, 'Second change');
    await call(t.app, 'POST', `/api/comments/${first.id}/replies`, { token: member.token, body: { body: 'a reply' } });
    const page = await changes(`?cursor=${start.body.cursor}`);
    assert.deepEqual(
      page.body.items.map((c: { id: string }) => c.id),
      [second.id, first.id],
      'the reply moved the first comment after the second',
    );
    const again = await changes(`?cursor=${page.body.cursor}`);
    assert.deepEqual(again.body.items, []);
    assert.equal((await changes('?cursor=bm90LWEtY3Vyc29y')).status, 400);
    assert.equal((await changes('?wait=61')).status, 400);
  });

  test('a waiting request answers as soon as a comment changes, and on its own after the wait', async () => {
    const { cursor } = (await changes('')).body;
    const started = Date.now();
    const waiting = changes(`?cursor=${cursor}&wait=30`);
    await waitersAre(t.app, 1);
    const created = await createComment(t.app, admin, project.key, 'Wakes the waiter');
    const answer = await waiting;
    assert.equal(answer.body.items[0].id, created.id);
    assert.ok(Date.now() - started < 5000, 'woken, not timed out');

    const quiet = Date.now();
    const empty = await changes(`?cursor=${answer.body.cursor}&wait=1`);
    assert.deepEqual(empty.body.items, []);
    assert.ok(Date.now() - quiet >= 900, 'it waited');
    assert.equal(empty.body.cursor, answer.body.cursor);
  });

  test('tenancy: another workspace is not woken and sees nothing; a limited client sees only its project', async () => {
    const stranger = await signUp(t.app, 'Stranger');
    const other = await createProject(t.app, admin);
    const limited = await addClient(t.app, admin, other.key);
    const strangerStart = (await changes('', stranger.token)).body.cursor;
    const limitedStart = (await changes('', limited.token)).body.cursor;
    const waiting = changes(`?cursor=${strangerStart}&wait=1`, stranger.token);
    await createComment(t.app, admin, project.key, 'Not for strangers');
    const onOther = await createComment(t.app, admin, other.key, 'For the limited client');
    assert.deepEqual((await waiting).body.items, []);
    const seen = await changes(`?cursor=${limitedStart}`, limited.token);
    assert.deepEqual(
      seen.body.items.map((c: { id: string }) => c.id),
      [onOther.id],
    );
    assert.equal((await changes(`?project=${project.key}`, limited.token)).status, 404);
  });

  test("a wait on one project is not woken by another project's changes; a screenshot wakes it (an agent sees it attached)", async () => {
    const other = await createProject(t.app, admin);
    const { cursor } = (await changes(`?project=${project.key}`)).body;
    const created = await createComment(t.app, admin, project.key, 'Screenshot follows');
    const seen = await changes(`?project=${project.key}&cursor=${cursor}`);
    assert.equal(seen.body.items[0].screenshot, null, 'created first, its screenshot not yet sent');
    const waiting = changes(`?project=${project.key}&cursor=${seen.body.cursor}&wait=2`);
    await waitersAre(t.app, 1);
    const started = Date.now();
    await createComment(t.app, admin, other.key, 'Another project');
    await new Promise((resolve) => setTimeout(resolve, 300));
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
      'base64',
    );
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/comments/${created.id}/screenshot`,
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'image/png' },
      payload: png,
    });
    assert.equal(put.statusCode, 200);
    const answer = await waiting;
    assert.ok(Date.now() - started < 1500, 'woken by the screenshot, not by the other project, nor the time-out');
    assert.deepEqual(
      answer.body.items.map((c: { id: string; screenshot: unknown }) => [c.id, c.screenshot !== null]),
      [[created.id, true]],
    );
  });

  test('woken by a change it does not report (a comment deleted), a wait goes on waiting: an early empty answer would send an agent round again for nothing', async () => {
    const doomed = await createComment(t.app, admin, project.key, 'Deleted while someone waits');
    const { cursor } = (await changes(`?project=${project.key}`)).body;
    const waiting = changes(`?project=${project.key}&cursor=${cursor}&wait=5`);
    await waitersAre(t.app, 1);
    const removed = await call(t.app, 'DELETE', `/api/comments/${doomed.id}`, { token: admin.token });
    assert.equal(removed.status, 204);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const created = await createComment(t.app, admin, project.key, 'What the wait was for');
    const answer = await waiting;
    assert.deepEqual(
      answer.body.items.map((c: { id: string }) => c.id),
      [created.id],
    );
  });

  test('one user holds at most 10 waits at once, one session 5: past that, 429 with Retry-After', async () => {
    const { cursor } = (await changes('')).body;
    const key = (await call(t.app, 'POST', '/api/me/api-keys', { token: member.token, body: { name: 'w' } })).body.key;
    const bySession = Array.from({ length: 5 }, () => changes(`?cursor=${cursor}&wait=3`));
    await waitersAre(t.app, 5);
    const sixth = await changes(`?cursor=${cursor}&wait=3`);
    assert.equal(sixth.status, 429);
    assert.equal(sixth.body.code, 'rate_limited');
    assert.equal(sixth.headers['retry-after'], '5');
    const byKey = Array.from({ length: 5 }, () => changes(`?cursor=${cursor}&wait=3`, key));
    await waitersAre(t.app, 10);
    const eleventh = await changes(`?cursor=${cursor}&wait=3`, key);
    assert.equal(eleventh.status, 429);
    assert.match(eleventh.body.detail, /10 waits at once per user/);
    assert.equal((await changes(`?cursor=${cursor}&wait=1`, admin.token)).status, 200, 'another user is not held back');
    for (const answer of await Promise.all([...bySession, ...byKey])) assert.equal(answer.status, 200);
    assert.equal((await changes(`?cursor=${cursor}&wait=1`)).status, 200, 'answered waits are counted no more');
  });

  test('slow clients hold no socket: headers within 15 s, a request within 90 s', () => {
    assert.equal(t.app.server.headersTimeout, 15_000);
    assert.equal(t.app.server.requestTimeout, 90_000);
  });

  test('closing the server answers waiters at once', async () => {
    const own = await createTestApp();
    const boss = await signUp(own.app);
    const url = (await own.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
    const { cursor } = (await callServer(url, 'GET', '/api/comments/changes', { token: boss.token })).body;
    const waiting = callServer(url, 'GET', `/api/comments/changes?cursor=${cursor}&wait=60`, { token: boss.token });
    await waitersAre(own.app, 1);
    const started = Date.now();
    const closing = own.close();
    const answer = await waiting;
    assert.equal(answer.status, 200);
    assert.ok(Date.now() - started < 3000, `answered ${Date.now() - started} ms after close began`);
    await closing;
    assert.ok(Date.now() - started < 5000, `closed in ${Date.now() - started} ms`);
  });
});

describe('waiting across two server processes', { skip: dialect !== 'postgres' }, () => {
  after(killRemainingServers);
  test('a comment written through one process wakes a waiter on the other', async () => {
    const { database, drop } = await createTestDatabase();
    if (database.dialect !== 'postgres') return;
    const servers = await startServers(2, { DATABASE_URL: database.url, SVC_DEMO: 'false' });
    try {
      const [a, b] = servers.map((s) => s.baseUrl) as [string, string];
      const token = (
        await callServer(a, 'POST', '/api/signup', {
          body: { workspaceName: 'W', name: 'A', email: 'watch@example.test', password: 'long enough pass' },
        })
      ).body.token as string;
      await callServer(a, 'POST', '/api/projects', { token, body: { key: 'site', name: 'Site' } });
      const { cursor } = (await callServer(b, 'GET', '/api/comments/changes', { token })).body;
      const started = Date.now();
      const waiting = callServer(b, 'GET', `/api/comments/changes?cursor=${cursor}&wait=30`, { token });
      await new Promise((resolve) => setTimeout(resolve, 300));
      await callServer(a, 'POST', '/api/projects/site/comments', {
        token,
        body: { body: 'across', pageUrl: 'https://a.test/' },
      });
      const answer = await waiting;
      assert.equal(answer.body.items[0].body, 'across');
      assert.ok(Date.now() - started < 5000);
    } finally {
      for (const server of servers) await server.stop();
      await drop();
    }
  });
});
