import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { AUDIT_ACTIONS, type AuditAction, type AuditEvent } from '@svc/contract';
import {
  addClient,
  addMember,
  call,
  createProject,
  createTestApp,
  dialect,
  type Member,
  signUp,
  type TestApp,
} from '../../../test/helpers.js';
import { codeAt } from '../two-factor/totp.js';
import { pruneAudit, recordAudit } from './audit.js';

/** The password `addMember` gives. */
const PASSWORD = 'another good password';
const NEW_PASSWORD = 'a much longer passphrase';

describe(`the audit log (${dialect})`, () => {
  let t: TestApp;
  let admin: Member;
  let stranger: Member;
  const done = new Set<AuditAction>();

  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app);
    stranger = await signUp(t.app, 'Sam Stranger');
  });
  after(() => t.close());

  const newest = async (action: AuditAction, token = admin.token): Promise<AuditEvent> => {
    const page = await call(t.app, 'GET', `/api/workspace/audit?action=${action}&limit=1`, { token });
    assert.equal(page.status, 200, JSON.stringify(page.body));
    const event = page.body.items[0] as AuditEvent | undefined;
    assert.ok(event, `${action} was recorded`);
    done.add(action);
    return event;
  };
  const ok = async (answer: Promise<{ status: number; body: unknown }>, status = 200) => {
    const { status: got, body } = await answer;
    assert.equal(got, status, JSON.stringify(body));
    return body as any;
  };
  const signIn = (email: string, password = PASSWORD) =>
    call(t.app, 'POST', '/api/auth/login', { body: { email, password } });

  test('sign-ins, their failures, sessions and passwords: who, when, from where, how', async () => {
    const dana = await addMember(t.app, admin, 'member', 'Dana Dev');
    const session = (await ok(signIn(dana.email))).token as string;
    let event = await newest('signed_in');
    assert.deepEqual([event.actor?.name, event.address, event.detail], ['Dana Dev', '127.0.0.1', 'password']);
    assert.ok(Date.now() - Date.parse(event.at) < 60_000);

    assert.equal((await signIn(dana.email, 'wrong password!')).status, 401);
    event = await newest('sign_in_failed');
    assert.deepEqual([event.actor?.name, event.detail], ['Dana Dev', 'wrong password']);
    assert.equal((await signIn('nobody@example.test', 'wrong password!')).status, 401);
    assert.equal((await newest('sign_in_failed')).id, event.id, 'an unknown e-mail is in no workspace’s log');

    const sessions = (await ok(call(t.app, 'GET', '/api/me/sessions', { token: dana.token }))).items as {
      id: string;
      current: boolean;
    }[];
    const other = sessions.find((s) => !s.current);
    assert.ok(other);
    await ok(call(t.app, 'DELETE', `/api/me/sessions/${other.id}`, { token: dana.token }), 204);
    event = await newest('session_ended');
    assert.deepEqual([event.actor?.name, event.target?.id], ['Dana Dev', other.id]);

    await ok(signIn(dana.email));
    await ok(call(t.app, 'POST', '/api/me/sessions/end-others', { token: dana.token }));
    assert.equal((await newest('other_sessions_ended')).detail, '1 ended');

    const changed = call(t.app, 'POST', '/api/me/password', {
      token: dana.token,
      body: { currentPassword: PASSWORD, newPassword: NEW_PASSWORD },
    });
    await ok(changed);
    assert.equal((await newest('password_changed')).actor?.name, 'Dana Dev');

    const again = (await ok(signIn(dana.email, NEW_PASSWORD))).token as string;
    await ok(call(t.app, 'POST', '/api/auth/logout', { token: again }), 204);
    assert.equal((await newest('signed_out')).actor?.name, 'Dana Dev');
    assert.equal((await call(t.app, 'GET', '/api/me', { token: session })).status, 401);
  });

  test('people: invitations, members, roles, removals, client links, password resets', async () => {
    const invite = await ok(
      call(t.app, 'POST', '/api/workspace/invites', {
        token: admin.token,
        body: { email: 'nia@example.test', role: 'member' },
      }),
      201,
    );
    let event = await newest('invitation_created');
    assert.deepEqual([event.actor?.id, event.target?.label, event.detail], [admin.id, 'nia@example.test', 'as member']);
    const token = new URL(invite.inviteUrl).hash.slice(1);
    await ok(call(t.app, 'POST', '/api/invites/accept', { body: { token, name: 'Nia New', password: PASSWORD } }), 201);
    event = await newest('invitation_accepted');
    assert.deepEqual([event.actor?.name, event.target?.label], ['Nia New', 'nia@example.test']);
    assert.equal((await newest('signed_in')).detail, 'invitation');

    const withdrawn = await ok(
      call(t.app, 'POST', '/api/workspace/invites', {
        token: admin.token,
        body: { email: 'x@example.test', role: 'admin' },
      }),
      201,
    );
    await ok(call(t.app, 'DELETE', `/api/workspace/invites/${withdrawn.id}`, { token: admin.token }), 204);
    assert.equal((await newest('invitation_withdrawn')).target?.label, 'x@example.test');

    const mo = await addMember(t.app, admin, 'member', 'Mo Member');
    event = await newest('member_added');
    assert.deepEqual([event.target?.id, event.target?.label, event.detail], [mo.id, mo.email, 'as member']);
    await ok(call(t.app, 'PATCH', `/api/workspace/members/${mo.id}`, { token: admin.token, body: { role: 'admin' } }));
    assert.equal((await newest('role_changed')).detail, 'member → admin');

    const reset = await ok(
      call(t.app, 'POST', `/api/workspace/members/${mo.id}/password-reset`, { token: admin.token }),
      201,
    );
    assert.equal((await newest('password_reset_created')).target?.id, mo.id);
    const resetToken = new URL(reset.resetUrl).hash.slice(1);
    await ok(
      call(t.app, 'POST', '/api/password-reset/complete', { body: { token: resetToken, password: NEW_PASSWORD } }),
    );
    event = await newest('password_reset_completed');
    assert.deepEqual([event.actor?.id, event.target?.id], [mo.id, mo.id]);

    await ok(call(t.app, 'DELETE', `/api/workspace/members/${mo.id}`, { token: admin.token }), 204);
    event = await newest('member_removed');
    assert.deepEqual([event.target?.label, event.detail], [mo.email, 'was admin']);

    const client = await ok(
      call(t.app, 'POST', '/api/workspace/quick-access', { token: admin.token, body: { name: 'Cleo Client' } }),
      201,
    );
    event = await newest('client_link_created');
    assert.deepEqual([event.target?.label, event.detail], ['Cleo Client', 'every project']);
    await ok(call(t.app, 'POST', `/api/workspace/quick-access/${client.user.id}/rotate`, { token: admin.token }));
    assert.equal((await newest('client_link_rotated')).target?.id, client.user.id);
    await ok(call(t.app, 'DELETE', `/api/workspace/quick-access/${client.user.id}`, { token: admin.token }), 204);
    assert.equal((await newest('client_link_revoked')).target?.id, client.user.id);
  });

  test('API keys and projects', async () => {
    const key = await ok(
      call(t.app, 'POST', '/api/me/api-keys', { token: admin.token, body: { name: 'deploy' } }),
      201,
    );
    let event = await newest('api_key_created');
    assert.deepEqual([event.target?.label, event.detail], ['deploy', `…${key.key.slice(-4)}`]);
    assert.equal(JSON.stringify(event).includes(key.key), false, 'never the secret');
    await ok(call(t.app, 'DELETE', `/api/me/api-keys/${key.id}`, { token: admin.token }), 204);
    assert.equal((await newest('api_key_revoked')).detail, 'its owner');
    const dana = await addMember(t.app, admin, 'member', 'Dana Keys');
    const hers = await ok(call(t.app, 'POST', '/api/me/api-keys', { token: dana.token, body: { name: 'ci' } }), 201);
    await ok(call(t.app, 'DELETE', `/api/workspace/api-keys/${hers.id}`, { token: admin.token }), 204);
    event = await newest('api_key_revoked');
    assert.deepEqual([event.actor?.id, event.detail], [admin.id, `an admin, of user ${dana.id}`]);

    const project = await createProject(t.app, admin);
    assert.equal((await newest('project_created')).target?.label, project.key);
    await ok(
      call(t.app, 'PATCH', `/api/projects/${project.key}`, {
        token: admin.token,
        body: { name: 'Renamed', allowedOrigins: ['https://a.test'] },
      }),
    );
    assert.equal((await newest('project_updated')).detail, 'changed name, allowed origins');
    await ok(call(t.app, 'DELETE', `/api/projects/${project.key}`, { token: admin.token }), 204);
    const exported = await t.app.inject({
      method: 'GET',
      url: '/api/workspace/export?format=csv',
      headers: { authorization: `Bearer ${admin.token}` },
    });
    assert.equal(exported.statusCode, 200);
    assert.deepEqual([(await newest('exported')).actor?.id, (await newest('exported')).detail], [admin.id, 'CSV']);
    event = await newest('project_deleted');
    assert.deepEqual([event.target?.label, event.detail], [project.key, 'Renamed']);
  });

  test('two-factor sign-in: turned on and off, codes renewed, a member’s reset, the workspace’s rule', async () => {
    const dana = await addMember(t.app, admin, 'member', 'Dana Factor');
    const started = await ok(
      call(t.app, 'POST', '/api/me/two-factor/enrolment', { token: dana.token, body: { password: PASSWORD } }),
    );
    await ok(
      call(t.app, 'POST', '/api/me/two-factor/confirm', {
        token: dana.token,
        body: { code: codeAt(started.secret, Date.now()) },
      }),
    );
    assert.deepEqual([(await newest('two_factor_enabled')).actor?.id], [dana.id]);
    await ok(
      call(t.app, 'POST', '/api/me/two-factor/recovery-codes', { token: dana.token, body: { password: PASSWORD } }),
    );
    assert.equal((await newest('recovery_codes_renewed')).actor?.id, dana.id);
    await ok(call(t.app, 'DELETE', `/api/workspace/members/${dana.id}/two-factor`, { token: admin.token }), 204);
    const reset = await newest('two_factor_reset');
    assert.deepEqual([reset.actor?.id, reset.target?.id, reset.detail], [admin.id, dana.id, 'by an admin']);
    const again = await ok(
      call(t.app, 'POST', '/api/me/two-factor/enrolment', { token: dana.token, body: { password: PASSWORD } }),
    );
    await ok(
      call(t.app, 'POST', '/api/me/two-factor/confirm', {
        token: dana.token,
        body: { code: codeAt(again.secret, Date.now()) },
      }),
    );
    await ok(
      call(t.app, 'POST', '/api/me/two-factor/disable', { token: dana.token, body: { password: PASSWORD } }),
      204,
    );
    assert.equal((await newest('two_factor_disabled')).actor?.id, dana.id);
    await ok(
      call(t.app, 'PATCH', '/api/workspace/security', { token: admin.token, body: { twoFactorRequired: 'none' } }),
    );
    assert.equal((await newest('security_changed')).detail, 'two-factor sign-in required of: none');
  });

  test('every action of the list was seen by the tests above', () => {
    assert.deepEqual(
      AUDIT_ACTIONS.filter((action) => !done.has(action)),
      [],
    );
  });

  test('only admins read it, only their workspace’s; a refused action records nothing', async () => {
    const member = await addMember(t.app, admin, 'member', 'Mia Member');
    const client = await addClient(t.app, admin);
    assert.equal((await call(t.app, 'GET', '/api/workspace/audit', { token: member.token })).status, 403);
    assert.equal((await call(t.app, 'GET', '/api/workspace/audit', { token: client.token })).status, 403);
    const theirs = (await ok(call(t.app, 'GET', '/api/workspace/audit?limit=100', { token: stranger.token }))).items;
    assert.deepEqual(
      theirs.map((e: AuditEvent) => e.actor?.id ?? null).filter((id: string | null) => id !== stranger.id),
      [],
      'another workspace sees only its own',
    );
    const before = (await ok(call(t.app, 'GET', '/api/workspace/audit?limit=1', { token: admin.token }))).items[0].id;
    assert.equal(
      (
        await call(t.app, 'PATCH', `/api/workspace/members/${member.id}`, {
          token: member.token,
          body: { role: 'admin' },
        })
      ).status,
      403,
    );
    assert.equal((await call(t.app, 'DELETE', '/api/projects/nope', { token: admin.token })).status, 404);
    const after = (await ok(call(t.app, 'GET', '/api/workspace/audit?limit=1', { token: admin.token }))).items[0].id;
    assert.equal(after, before);
  });

  test('filters (action, who, period) and pages; bad filters are 400', async () => {
    const page1 = await ok(
      call(t.app, 'GET', `/api/workspace/audit?actor=${admin.id}&limit=2`, { token: admin.token }),
    );
    assert.equal(page1.items.length, 2);
    assert.ok(page1.items.every((e: AuditEvent) => e.actor?.id === admin.id));
    const page2 = await ok(
      call(t.app, 'GET', `/api/workspace/audit?actor=${admin.id}&limit=2&cursor=${page1.nextCursor}`, {
        token: admin.token,
      }),
    );
    assert.ok(page2.items[0].id < page1.items[1].id, 'newest first, no overlap');
    const future = new Date(Date.now() + 3_600_000).toISOString();
    const none = await ok(call(t.app, 'GET', `/api/workspace/audit?since=${future}`, { token: admin.token }));
    assert.deepEqual(none.items, []);
    const all = await ok(call(t.app, 'GET', `/api/workspace/audit?until=${future}&limit=100`, { token: admin.token }));
    assert.ok(all.items.length > 10);
    for (const bad of ['action=dance', 'since=yesterday', 'limit=0']) {
      assert.equal((await call(t.app, 'GET', `/api/workspace/audit?${bad}`, { token: admin.token })).status, 400, bad);
    }
  });

  test('events past their retention are pruned, the rest kept', async () => {
    const by = {
      workspaceId: stranger.workspaceId,
      actor: { id: stranger.id, name: 'Sam Stranger' },
      address: '10.0.0.1',
    };
    const day = 24 * 60 * 60 * 1000;
    const now = Date.now();
    await recordAudit(t.app.database.db, by, 'project_created', null, 'old', new Date(now - 400 * day).toISOString());
    await recordAudit(t.app.database.db, by, 'project_created', null, 'recent', new Date(now - 10 * day).toISOString());
    assert.ok((await pruneAudit(t.app.database.db, 365, now, 1)) >= 1);
    const left = (
      await ok(call(t.app, 'GET', '/api/workspace/audit?action=project_created', { token: stranger.token }))
    ).items;
    assert.deepEqual(
      left.map((e: AuditEvent) => e.detail),
      ['recent'],
    );
  });
});
