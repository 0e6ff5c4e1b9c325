import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  addMember,
  call,
  createProject,
  createTestApp,
  dialect,
  type Member,
  signUp,
  type TestApp,
} from '../../../test/helpers.js';

describe(`whom a text mentions, with its answer: a client shows those names as mentions (${dialect})`, () => {
  let t: TestApp;
  let admin: Member;
  let lena: Member;
  let project: { key: string };

  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app);
    lena = await addMember(t.app, admin, 'member', 'Lena Fischer');
    project = await createProject(t.app, admin);
  });
  after(() => t.close());

  test("a comment's and a reply's mentions, each person once; `@Name` typed by hand is none", async () => {
    const created = await call(t.app, 'POST', `/api/projects/${project.key}/comments`, {
      token: admin.token,
      body: { body: `<@${lena.id}> the price wraps, <@${lena.id}> again`, pageUrl: 'https://a.example.test/' },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.deepEqual(created.body.mentions, [{ id: lena.id, name: 'Lena Fischer' }]);
    const reply = await call(t.app, 'POST', `/api/comments/${created.body.id}/replies`, {
      token: lena.token,
      body: { body: '@Ada Admin typed by hand' },
    });
    assert.deepEqual(reply.body.mentions, []);
    const read = (await call(t.app, 'GET', `/api/comments/${created.body.id}`, { token: admin.token })).body;
    assert.equal(read.body, '@Lena Fischer the price wraps, @Lena Fischer again');
    assert.deepEqual(read.mentions, [{ id: lena.id, name: 'Lena Fischer' }]);
    assert.deepEqual(read.replies[0].mentions, []);
    const listed = (await call(t.app, 'GET', `/api/comments?project=${project.key}`, { token: admin.token })).body;
    assert.deepEqual(listed.items[0].mentions, [{ id: lena.id, name: 'Lena Fischer' }]);
  });
});
