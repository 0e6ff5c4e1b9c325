import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  addClient,
  addMember,
  call,
  countRows,
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
    const closed = await createTestApp({ signup: 'closed' });
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

  test('by default sign-up makes the first workspace, then closes; /api/server says which', async () => {
    const fresh = await createTestApp({ signup: 'first' });
    try {
      const body = (email: string) => ({ workspaceName: 'W', name: 'A', email, password: 'long enough passphrase' });
      assert.equal((await call(fresh.app, 'GET', '/api/server')).body.signup, true);
      assert.equal((await call(fresh.app, 'POST', '/api/signup', { body: body('first@example.test') })).status, 201);
      assert.equal((await call(fresh.app, 'GET', '/api/server')).body.signup, false);
      const second = await call(fresh.app, 'POST', '/api/signup', { body: body('second@example.test') });
      assert.equal(second.status, 403);
      assert.match(second.body.detail, /invite you/);
      assert.equal(await countRows(fresh.app, 'workspaces'), 1);
    } finally {
      await fresh.close();
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

  test('secrets are stored only as SHA-256 hashes and passwords only as scrypt hashes', async () => {
    const key = await call(t.app, 'POST', '/api/me/api-keys', { token: admin.token, body: { name: 'hashed' } });
    const client = await addClient(t.app, admin);
    const rows = JSON.stringify([
      await t.app.database.db.selectFrom('api_keys').selectAll().execute(),
      await t.app.database.db.selectFrom('sessions').selectAll().execute(),
      await t.app.database.db.selectFrom('users').selectAll().execute(),
    ]);
    for (const secret of [key.body.key, admin.token, client.token, client.accessToken, 'correct horse battery']) {
      assert.equal(rows.includes(secret), false);
    }
    const user = await t.app.database.db
      .selectFrom('users')
      .select('password_hash')
      .where('id', '=', admin.id)
      .executeTakeFirstOrThrow();
    assert.match(user.password_hash ?? '', /^scrypt\$/);
  });

  test('each person chooses their language, clients too; a language the apps do not speak is refused and nothing written', async () => {
    const client = await addClient(t.app, admin);
    for (const person of [admin, client]) {
      const chosen = await call(t.app, 'PATCH', '/api/me', { token: person.token, body: { locale: 'pt-BR' } });
      assert.equal(chosen.status, 200);
      assert.equal(chosen.body.locale, 'pt-BR');
    }
    const refused = await call(t.app, 'PATCH', '/api/me', { token: client.token, body: { locale: 'pt' } });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.errors[0].path, '/locale');
    assert.equal(refused.body.errors[0].rule, 'enum');
    const me = await call(t.app, 'GET', '/api/me', { token: client.token });
    assert.equal(me.body.user.locale, 'pt-BR');
    // null: as the page or browser says.
    const reset = await call(t.app, 'PATCH', '/api/me', { token: client.token, body: { locale: null } });
    assert.equal(reset.body.locale, null);
  });

  test('the workspace’s default language is an admin’s to set, and only in its own workspace', async () => {
    const member = await addMember(t.app, admin, 'member', 'Mo Member');
    const other = await signUp(t.app, 'Olga Other');
    const refused = await call(t.app, 'PATCH', '/api/workspace', {
      token: member.token,
      body: { defaultLocale: 'fr' },
    });
    assert.equal(refused.status, 403);
    const set = await call(t.app, 'PATCH', '/api/workspace', { token: admin.token, body: { defaultLocale: 'fr' } });
    assert.equal(set.status, 200);
    assert.equal(set.body.defaultLocale, 'fr');
    assert.equal((await call(t.app, 'GET', '/api/me', { token: member.token })).body.workspace.defaultLocale, 'fr');
    assert.equal((await call(t.app, 'GET', '/api/me', { token: other.token })).body.workspace.defaultLocale, null);
    const bad = await call(t.app, 'PATCH', '/api/workspace', {
      token: admin.token,
      body: { defaultLocale: 'klingon' },
    });
    assert.equal(bad.status, 400);
    assert.equal((await call(t.app, 'GET', '/api/me', { token: admin.token })).body.workspace.defaultLocale, 'fr');
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
