import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { addMember, call, createTestApp, type Member, signUp, type TestApp } from '../../../test/helpers.js';

describe('API keys', () => {
  let t: TestApp;
  let admin: Member;
  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app);
  });
  after(() => t.close());

  test('API keys: shown once, listed without secret, act as their user, and a revoked key is refused at once', async () => {
    const created = await call(t.app, 'POST', '/api/me/api-keys', { token: admin.token, body: { name: 'CI deploy' } });
    assert.equal(created.status, 201);
    assert.match(created.body.key, /^svc_key_[A-Za-z0-9_-]{43}$/);
    assert.match(created.body.id, /^key_/);

    const listed = await call(t.app, 'GET', '/api/me/api-keys', { token: admin.token });
    const entry = listed.body.items.find((k: { id: string }) => k.id === created.body.id);
    assert.deepEqual(Object.keys(entry).sort(), ['createdAt', 'id', 'lastFour', 'lastUsedAt', 'name']);
    assert.equal(entry.lastFour, created.body.key.slice(-4));
    assert.equal(JSON.stringify(listed.body).includes(created.body.key), false);

    const me = await call(t.app, 'GET', '/api/me', { token: created.body.key });
    assert.equal(me.body.user.id, admin.id);
    const used = await call(t.app, 'GET', '/api/me/api-keys', { token: admin.token });
    assert.ok(used.body.items.find((k: { id: string }) => k.id === created.body.id).lastUsedAt);

    assert.equal(
      (await call(t.app, 'DELETE', `/api/me/api-keys/${created.body.id}`, { token: admin.token })).status,
      204,
    );
    assert.equal((await call(t.app, 'GET', '/api/me', { token: created.body.key })).status, 401);
    assert.equal(
      (await call(t.app, 'DELETE', `/api/me/api-keys/${created.body.id}`, { token: admin.token })).status,
      404,
    );
  });

  test('an API key cannot be logged out, only revoked', async () => {
    const created = await call(t.app, 'POST', '/api/me/api-keys', { token: admin.token, body: { name: 'k' } });
    const answer = await call(t.app, 'POST', '/api/auth/logout', { token: created.body.key });
    assert.equal(answer.status, 409);
    assert.equal((await call(t.app, 'GET', '/api/me', { token: created.body.key })).status, 200);
  });

  test("another user's API key, in the workspace or outside it, is 404 and stays valid", async () => {
    const created = await call(t.app, 'POST', '/api/me/api-keys', { token: admin.token, body: { name: 'mine' } });
    const member = await addMember(t.app, admin);
    const stranger = await signUp(t.app);
    for (const other of [member, stranger]) {
      const answer = await call(t.app, 'DELETE', `/api/me/api-keys/${created.body.id}`, { token: other.token });
      assert.equal(answer.status, 404);
    }
    assert.equal((await call(t.app, 'GET', '/api/me', { token: created.body.key })).status, 200);
  });
});
