import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Comment } from '@svc/contract';
import {
  addMember,
  call,
  createComment,
  createProject,
  createTestApp,
  dialect,
  type Member,
  signUp,
  type TestApp,
} from '../../../test/helpers.js';
import { cleanPng } from '../../../test/images.js';

// What a comment's answer says beyond its own columns, so that a list shows it before the
// thread is opened: how many images it holds, and whom its text (and each reply's) mentions.

describe(`what a comment's answer carries for a list (${dialect})`, () => {
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

  const attach = async (id: string, query = '') => {
    const answer = await t.app.inject({
      method: 'POST',
      url: `/api/comments/${id}/images${query}`,
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'image/png' },
      payload: cleanPng,
    });
    assert.equal(answer.statusCode, 201, answer.body);
  };

  test('the images attached to it and to its replies; the pictures of now and after are not attachments', async () => {
    const photographed = await createComment(t.app, admin, project.key, 'With photos');
    const plain = await createComment(t.app, admin, project.key, 'Without');
    await attach(photographed.id);
    const reply = await call(t.app, 'POST', `/api/comments/${photographed.id}/replies`, {
      token: admin.token,
      body: { body: 'And one more' },
    });
    await attach(photographed.id, `?reply=${reply.body.id}`);
    // A fix waiting for its verdict, and the picture of now its author's widget took.
    await call(t.app, 'POST', `/api/comments/${photographed.id}/apply`, { token: admin.token, body: {} });
    await attach(photographed.id, '?now=true');

    const listed = (await call(t.app, 'GET', `/api/comments?project=${project.key}`, { token: admin.token })).body
      .items as Comment[];
    const countOf = (id: string) => listed.find((c) => c.id === id)?.imageCount;
    assert.deepEqual([countOf(photographed.id), countOf(plain.id)], [2, 0]);
    const one = (await call(t.app, 'GET', `/api/comments/${photographed.id}`, { token: admin.token })).body;
    assert.equal(one.imageCount, 2);
    assert.equal(one.images.length, 3, 'the picture of now is listed with its images, not counted among them');
  });

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
