import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  addClient,
  addMember,
  call,
  countRows,
  createProject,
  createTestApp,
  type Member,
  signUp,
  type TestApp,
} from '../../../test/helpers.js';

describe('accounts and authentication', () => {
  let t: TestApp;
  let admin: Member;
  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app);
  });
  after(() => t.close());

  test('signup creates a workspace whose admin the caller is, and the token works at once', async () => {
    const me = await call(t.app, 'GET', '/api/me', { token: admin.token });
    assert.equal(me.status, 200);
    assert.equal(me.body.user.role, 'admin');
    assert.equal(me.body.user.email, admin.email);
    assert.equal(me.body.workspace.id, admin.workspaceId);
    assert.match(admin.token, /^svc_sess_[A-Za-z0-9_-]{43}$/);
    assert.match(me.body.user.id, /^usr_[0-9A-Z]{26}$/);
    assert.match(me.body.workspace.createdAt, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  test('signup refuses each invalid field with its path and writes nothing', async () => {
    const before = await countRows(t.app, 'users');
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'A', email: 'a@example.test', password: 'long enough' }, '/workspaceName'],
      [{ workspaceName: 'W', name: 'A', email: 'not-an-email', password: 'long enough' }, '/email'],
      [{ workspaceName: 'W', name: 'A', email: 'b@example.test', password: 'short' }, '/password'],
      [{ workspaceName: 'W', name: '   ', email: 'c@example.test', password: 'long enough' }, '/name'],
      [{ workspaceName: 'W', name: 42, email: 'd@example.test', password: 'long enough' }, '/name'],
    ];
    for (const [body, path] of cases) {
      const answer = await call(t.app, 'POST', '/api/signup', { body });
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(answer.body.code, 'validation_failed');
      assert.equal(answer.headers['content-type'], 'application/problem+json; charset=utf-8');
      assert.equal(answer.body.errors[0].path, path);
    }
    assert.equal(await countRows(t.app, 'users'), before);
  });

  test('an e-mail already in use is a 409 naming /email, whatever its case', async () => {
    const answer = await call(t.app, 'POST', '/api/signup', {
      body: { workspaceName: 'Other', name: 'B', email: admin.email.toUpperCase(), password: 'long enough' },
    });
    assert.equal(answer.status, 409);
    assert.equal(answer.body.code, 'conflict');
    assert.equal(answer.body.errors[0].path, '/email');
  });

  test('signup can be turned off by configuration', async () => {
    const closed = await createTestApp({ allowSignup: false });
    try {
      const answer = await call(closed.app, 'POST', '/api/signup', {
        body: { workspaceName: 'W', name: 'A', email: 'x@example.test', password: 'long enough' },
      });
      assert.equal(answer.status, 403);
      assert.equal(await countRows(closed.app, 'users'), 0);
    } finally {
      await closed.close();
    }
  });

  test('login answers a session for the right password and 401 otherwise, the same for unknown e-mails', async () => {
    const member = await addMember(t.app, admin);
    const ok = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: member.email, password: 'another good password' },
    });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.user.id, member.id);
    const wrong = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: member.email, password: 'wrong password' },
    });
    const unknown = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: 'nobody@example.test', password: 'x' },
    });
    assert.equal(wrong.status, 401);
    assert.equal(unknown.status, 401);
    assert.equal(wrong.body.detail, unknown.body.detail);
  });

  test('a logged-out session is refused at once', async () => {
    const member = await addMember(t.app, admin);
    assert.equal((await call(t.app, 'POST', '/api/auth/logout', { token: member.token })).status, 204);
    const after = await call(t.app, 'GET', '/api/me', { token: member.token });
    assert.equal(after.status, 401);
    assert.equal(after.body.code, 'unauthenticated');
  });

  test('anonymous and malformed credentials are 401', async () => {
    for (const authorization of [
      undefined,
      'Bearer',
      'Basic abc',
      'Bearer svc_sess_nope',
      'Bearer svc_key_nope',
      'Bearer plain',
    ]) {
      const answer = await call(t.app, 'GET', '/api/me', { headers: authorization ? { authorization } : {} });
      assert.equal(answer.status, 401, String(authorization));
    }
  });

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

  test('secrets are stored only as SHA-256 hashes and passwords only as scrypt hashes', async () => {
    const key = await call(t.app, 'POST', '/api/me/api-keys', { token: admin.token, body: { name: 'hashed' } });
    const client = await addClient(t.app, admin);
    const rows = JSON.stringify([
      await t.app.db.selectFrom('api_keys').selectAll().execute(),
      await t.app.db.selectFrom('sessions').selectAll().execute(),
      await t.app.db.selectFrom('users').selectAll().execute(),
    ]);
    for (const secret of [key.body.key, admin.token, client.token, client.accessToken, 'correct horse battery']) {
      assert.equal(rows.includes(secret), false);
    }
    const user = await t.app.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', admin.id)
      .executeTakeFirstOrThrow();
    assert.match(user.password_hash ?? '', /^scrypt\$/);
  });

  test('only an admin adds members; a member or a client is refused with 403 and nothing is written', async () => {
    const member = await addMember(t.app, admin);
    const client = await addClient(t.app, admin);
    const before = await countRows(t.app, 'users');
    for (const caller of [member, client]) {
      const answer = await call(t.app, 'POST', '/api/workspace/members', {
        token: caller.token,
        body: { name: 'X', email: `x-${caller.id}@example.test`, role: 'member', password: 'long enough' },
      });
      assert.equal(answer.status, 403);
      assert.equal(answer.body.code, 'forbidden');
    }
    assert.equal(await countRows(t.app, 'users'), before);
    const anonymous = await call(t.app, 'POST', '/api/workspace/members', {
      body: { name: 'X', email: 'anon@example.test', role: 'member', password: 'long enough' },
    });
    assert.equal(anonymous.status, 401);
  });

  test('members may not be created as clients through the members endpoint', async () => {
    const answer = await call(t.app, 'POST', '/api/workspace/members', {
      token: admin.token,
      body: { name: 'X', email: 'client-role@example.test', role: 'client', password: 'long enough' },
    });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.errors[0].path, '/role');
  });

  test('quick access: a member creates a client whose access token signs in until the account is removed', async () => {
    const member = await addMember(t.app, admin);
    const created = await call(t.app, 'POST', '/api/workspace/quick-access', {
      token: member.token,
      body: { name: 'Client Co' },
    });
    assert.equal(created.status, 201);
    assert.equal(created.body.user.role, 'client');
    assert.match(created.body.accessToken, /^svc_acc_/);
    for (let i = 0; i < 2; i++) {
      const session = await call(t.app, 'POST', '/api/auth/quick-access', {
        body: { accessToken: created.body.accessToken },
      });
      assert.equal(session.status, 200);
      assert.equal(session.body.user.id, created.body.user.id);
      const me = await call(t.app, 'GET', '/api/me', { token: session.body.token });
      assert.equal(me.body.user.role, 'client');
    }
    const bad = await call(t.app, 'POST', '/api/auth/quick-access', { body: { accessToken: 'svc_acc_forged' } });
    assert.equal(bad.status, 401);
  });

  test('a client cannot create accounts or API keys (403)', async () => {
    const client = await addClient(t.app, admin);
    assert.equal(
      (await call(t.app, 'POST', '/api/workspace/quick-access', { token: client.token, body: { name: 'x' } })).status,
      403,
    );
    assert.equal(
      (await call(t.app, 'POST', '/api/me/api-keys', { token: client.token, body: { name: 'x' } })).status,
      403,
    );
    assert.equal((await call(t.app, 'GET', '/api/me/api-keys', { token: client.token })).status, 403);
  });

  test('a quick-access account limited to a project must name a project of the workspace', async () => {
    const stranger = await signUp(t.app);
    const theirs = await createProject(t.app, stranger);
    const before = await countRows(t.app, 'users');
    const answer = await call(t.app, 'POST', '/api/workspace/quick-access', {
      token: admin.token,
      body: { name: 'x', projectKey: theirs.key },
    });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.errors[0].path, '/projectKey');
    assert.equal(await countRows(t.app, 'users'), before);
    const project = await createProject(t.app, admin);
    const client = await addClient(t.app, admin, project.key);
    const me = await call(t.app, 'GET', '/api/me', { token: client.token });
    assert.equal(me.body.user.projectKey, project.key);
  });
});

describe('requests the server cannot read', () => {
  let t: TestApp;
  let admin: Member;
  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app);
  });
  after(() => t.close());

  test('malformed JSON is a 400 problem, not a 500', async () => {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/me/api-keys',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    assert.equal(answer.statusCode, 400);
    assert.equal(answer.json().code, 'validation_failed');
    assert.equal(await countRows(t.app, 'api_keys'), 0);
  });

  test('a body over 64 KiB is 413 payload_too_large', async () => {
    const answer = await call(t.app, 'POST', '/api/me/api-keys', {
      token: admin.token,
      body: { name: 'x'.repeat(70 * 1024) },
    });
    assert.equal(answer.status, 413);
    assert.equal(answer.body.code, 'payload_too_large');
  });

  test('a body that is not JSON is 415', async () => {
    const answer = await t.app.inject({
      method: 'POST',
      url: '/api/me/api-keys',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'text/xml' },
      payload: '<name/>',
    });
    assert.equal(answer.statusCode, 415);
    assert.equal(answer.json().code, 'unsupported_media_type');
  });

  test('a missing body names the missing fields', async () => {
    const answer = await call(t.app, 'POST', '/api/me/api-keys', { token: admin.token });
    assert.equal(answer.status, 400);
    assert.equal(answer.body.errors[0].path, '/name');
  });
});
