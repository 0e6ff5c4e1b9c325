import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  addMember,
  call,
  createComment,
  createProject,
  createTestApp,
  type Member,
  signUp,
  type TestApp,
} from './helpers.js';

/** Every list endpoint, each with exactly 4 rows: with limit 2 the second page is exactly full. */
describe('an exactly full last page ends the list: nextCursor null, no empty page after it', () => {
  let t: TestApp;
  let admin: Member;
  let dev: Member;
  let author: Member;
  let projectKey: string;
  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app);
    dev = await addMember(t.app, admin, 'member', 'Dee Dev');
    author = await addMember(t.app, admin, 'member', 'Ann Author');
    projectKey = (await createProject(t.app, admin)).key;
    // 4 comments, each applied with its own commit: 4 notifications for the author, 4 pending deploys.
    for (let i = 0; i < 4; i++) {
      const comment = await createComment(t.app, author, projectKey, `comment ${i}`);
      await call(t.app, 'POST', `/api/comments/${comment.id}/apply`, {
        token: dev.token,
        body: { commitSha: `abcdef${i}` },
      });
    }
    // 4 builds that deploy nothing; 4 API keys and 4 sessions of the developer.
    for (let i = 0; i < 4; i++) {
      await call(t.app, 'POST', `/api/projects/${projectKey}/builds`, {
        token: dev.token,
        body: { sha: `123456${i}` },
      });
      await call(t.app, 'POST', '/api/me/api-keys', { token: dev.token, body: { name: `key ${i}` } });
    }
    for (let i = 0; i < 3; i++) {
      await call(t.app, 'POST', '/api/auth/login', { body: { email: dev.email, password: 'another good password' } });
    }
  });
  after(() => t.close());

  const lists: [string, () => Member, () => string][] = [
    ['comments', () => admin, () => `/api/projects/${projectKey}/comments`],
    ['pending deploys', () => admin, () => `/api/projects/${projectKey}/comments/pending-deploy`],
    ['builds', () => admin, () => `/api/projects/${projectKey}/builds`],
    ['notifications', () => author, () => '/api/me/notifications'],
    ['API keys', () => dev, () => '/api/me/api-keys'],
    ['sessions', () => dev, () => '/api/me/sessions'],
  ];
  for (const [name, caller, path] of lists) {
    test(name, async () => {
      const token = caller().token;
      const first = await call(t.app, 'GET', `${path()}?limit=2`, { token });
      assert.equal(first.status, 200);
      assert.equal(first.body.items.length, 2);
      assert.ok(first.body.nextCursor);
      const second = await call(t.app, 'GET', `${path()}?limit=2&cursor=${first.body.nextCursor}`, { token });
      assert.equal(second.body.items.length, 2);
      assert.equal(second.body.nextCursor, null, 'the exactly full last page says it is the last');
      const all = await call(t.app, 'GET', `${path()}?limit=4`, { token });
      assert.equal(all.body.items.length, 4);
      assert.equal(all.body.nextCursor, null);
    });
  }
});
