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

describe('workspace members and quick-access accounts', () => {
  let t: TestApp;
  let admin: Member;
  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app);
  });
  after(() => t.close());

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
