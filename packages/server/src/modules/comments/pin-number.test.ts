import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Comment } from '@svc/contract';
import { call, createProject, createTestApp, type Member, signUp, type TestApp } from '../../../test/helpers.js';

const PRICING = 'https://app.example.test/pricing';

describe("a comment's pin number: the number the widget draws on its pin", () => {
  let t: TestApp;
  let admin: Member;
  let project: { key: string };

  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app);
    project = await createProject(t.app, admin);
  });
  after(() => t.close());

  const write = async (body: string, pageUrl: string, pinned = true) => {
    const answer = await call(t.app, 'POST', `/api/projects/${project.key}/comments`, {
      token: admin.token,
      body: { body, pageUrl, ...(pinned ? { anchor: { selector: 'main > h1', x: 1, y: 1 } } : {}) },
    });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    return answer.body as Comment;
  };

  test('counted by age among the pinned comments of its page that are not archived; none for a comment on no element or archived; every answer carries it', async () => {
    const first = await write('First on pricing', PRICING);
    const archived = await write('Archived later', PRICING);
    const pageLevel = await write('About the whole page', PRICING, false);
    const second = await write('Second on pricing', PRICING);
    const elsewhere = await write('On the home page', 'https://app.example.test/');
    const third = await write('Third on pricing', PRICING);
    assert.equal(
      (await call(t.app, 'POST', `/api/comments/${archived.id}/archive`, { token: admin.token })).status,
      200,
    );

    const listed = (await call(t.app, 'GET', `/api/comments?project=${project.key}&limit=100`, { token: admin.token }))
      .body.items as Comment[];
    const pinOf = (id: string) => listed.find((c) => c.id === id)?.pin;
    assert.deepEqual(
      [first, archived, pageLevel, second, elsewhere, third].map((c) => pinOf(c.id)),
      [1, null, null, 2, 1, 3],
    );
    // The same on a comment's own page, on the project's list, and after a change to it.
    const one = await call(t.app, 'GET', `/api/comments/${third.id}`, { token: admin.token });
    assert.equal(one.body.pin, 3);
    const applied = await call(t.app, 'POST', `/api/comments/${second.id}/apply`, { token: admin.token, body: {} });
    assert.equal(applied.body.pin, 2, 'a fixed comment keeps its pin and its number');
    const ofProject = await call(t.app, 'GET', `/api/projects/${project.key}/comments?pageUrl=${PRICING}`, {
      token: admin.token,
    });
    assert.deepEqual(
      (ofProject.body.items as Comment[]).map((c) => [c.body, c.pin]),
      [
        ['Third on pricing', 3],
        ['Second on pricing', 2],
        ['About the whole page', null],
        ['Archived later', null],
        ['First on pricing', 1],
      ],
    );
  });
});
