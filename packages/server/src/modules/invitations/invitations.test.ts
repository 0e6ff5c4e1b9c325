import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  addClient,
  addMember,
  amid,
  call,
  countRows,
  createTestApp,
  type Member,
  RACE_POINTS,
  signUp,
  type TestApp,
} from '../../../test/helpers.js';

/** The token of a one-time link: after `#`, so that it never reaches a server log. */
const tokenOf = (url: string) => new URL(url).hash.slice(1);

describe('invitations and password resets', () => {
  let t: TestApp;
  let admin: Member;
  before(async () => {
    t = await createTestApp({ publicUrl: 'https://feedback.example.test' });
    admin = await signUp(t.app);
  });
  after(() => t.close());

  const invite = (who: Member, email: string, role = 'member') =>
    call(t.app, 'POST', '/api/workspace/invites', { token: who.token, body: { email, role } });
  const accept = (token: string, name = 'Nia Newcomer', password = 'my own passphrase') =>
    call(t.app, 'POST', '/api/invites/accept', { body: { token, name, password } });

  test('an admin invites; the link (public URL, token after #) creates the account with the name and password chosen, signed in, once', async () => {
    const created = await invite(admin, 'Nia@Example.test', 'admin');
    assert.equal(created.status, 201);
    assert.equal(created.body.email, 'nia@example.test');
    assert.match(created.body.inviteUrl, /^https:\/\/feedback\.example\.test\/invite#svc_inv_/);
    const days = (Date.parse(created.body.expiresAt) - Date.now()) / 86_400_000;
    assert.ok(days > 6.9 && days <= 7, `expires in 7 days (${days})`);
    const stored = await t.app.database.db.selectFrom('one_time_links').selectAll().execute();
    assert.ok(!JSON.stringify(stored).includes(tokenOf(created.body.inviteUrl)), 'only the hash is stored');

    const pending = await call(t.app, 'GET', '/api/workspace/invites', { token: admin.token });
    assert.equal(pending.body.items[0].email, 'nia@example.test');
    assert.equal(pending.body.items[0].invitedBy.id, admin.id);

    const accepted = await accept(tokenOf(created.body.inviteUrl));
    assert.equal(accepted.status, 201);
    assert.equal(accepted.body.user.role, 'admin');
    assert.equal(accepted.body.user.name, 'Nia Newcomer');
    const me = await call(t.app, 'GET', '/api/me', { token: accepted.body.token });
    assert.equal(me.body.workspace.id, admin.workspaceId);
    const login = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: 'nia@example.test', password: 'my own passphrase' },
    });
    assert.equal(login.status, 200);
    assert.equal((await accept(tokenOf(created.body.inviteUrl), 'Again')).status, 401, 'once only');
    assert.equal((await call(t.app, 'GET', '/api/workspace/invites', { token: admin.token })).body.items.length, 0);
  });

  test('refusals: members and clients may not invite (403); an e-mail in use is 409; a bad name or common password is 400 and the link still works', async () => {
    const member = await addMember(t.app, admin);
    const client = await addClient(t.app, admin);
    assert.equal((await invite(member, 'x@example.test')).status, 403);
    assert.equal((await invite(client, 'x@example.test')).status, 403);
    assert.equal((await invite(admin, member.email)).status, 409);
    assert.equal((await invite(admin, 'x@example.test', 'client')).status, 400);
    assert.equal((await call(t.app, 'GET', '/api/workspace/invites', { token: member.token })).status, 403);
    const created = await invite(admin, 'careful@example.test');
    const users = await countRows(t.app, 'users');
    assert.equal((await accept(tokenOf(created.body.inviteUrl), '  ')).status, 400);
    assert.equal((await accept(tokenOf(created.body.inviteUrl), 'Name', 'password123')).status, 400);
    assert.equal((await accept('svc_inv_made-up')).status, 401);
    assert.equal((await accept('svc_acc_wrong-kind')).status, 401);
    assert.equal(await countRows(t.app, 'users'), users, 'nothing written');
    assert.equal((await accept(tokenOf(created.body.inviteUrl))).status, 201, 'the link survived the refusals');
  });

  test('inviting again replaces the earlier link; a withdrawn or expired invitation does not work; another workspace cannot withdraw it', async () => {
    const first = await invite(admin, 'twice@example.test');
    const second = await invite(admin, 'twice@example.test');
    assert.equal((await accept(tokenOf(first.body.inviteUrl))).status, 401);
    const other = await signUp(t.app, 'Other Admin');
    assert.equal(
      (await call(t.app, 'DELETE', `/api/workspace/invites/${second.body.id}`, { token: other.token })).status,
      404,
    );
    assert.equal(
      (await call(t.app, 'DELETE', `/api/workspace/invites/${second.body.id}`, { token: admin.token })).status,
      204,
    );
    assert.equal((await accept(tokenOf(second.body.inviteUrl))).status, 401);

    const expiring = await invite(admin, 'late@example.test');
    await t.app.database.db
      .updateTable('one_time_links')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', expiring.body.id)
      .execute();
    assert.equal((await accept(tokenOf(expiring.body.inviteUrl))).status, 401);
    assert.ok(
      !(await call(t.app, 'GET', '/api/workspace/invites', { token: admin.token })).body.items.some(
        (i: { id: string }) => i.id === expiring.body.id,
      ),
      'expired invitations are not listed',
    );
  });

  test('password reset: an admin makes a one-time link; completing it sets the password and ends every session of the member', async () => {
    const member = await addMember(t.app, admin);
    const client = await addClient(t.app, admin);
    const reset = (who: Member, id: string) =>
      call(t.app, 'POST', `/api/workspace/members/${id}/password-reset`, { token: who.token });
    assert.equal((await reset(member, member.id)).status, 403);
    assert.equal((await reset(admin, client.id)).status, 404, 'client accounts have no password');
    assert.equal((await reset(await signUp(t.app), member.id)).status, 404, 'another workspace');
    const link = await reset(admin, member.id);
    assert.equal(link.status, 201);
    assert.match(link.body.resetUrl, /^https:\/\/feedback\.example\.test\/reset#svc_rst_/);
    const hours = (Date.parse(link.body.expiresAt) - Date.now()) / 3_600_000;
    assert.ok(hours > 23.9 && hours <= 24);
    const complete = (token: string, password: string) =>
      call(t.app, 'POST', '/api/password-reset/complete', { body: { token, password } });
    assert.equal((await complete(tokenOf(link.body.resetUrl), 'password123')).status, 400);
    assert.equal((await call(t.app, 'GET', '/api/me', { token: member.token })).status, 200, 'nothing ended yet');
    const done = await complete(tokenOf(link.body.resetUrl), 'a brand new passphrase');
    assert.equal(done.status, 200);
    assert.equal((await call(t.app, 'GET', '/api/me', { token: member.token })).status, 401, 'old sessions ended');
    assert.equal((await call(t.app, 'GET', '/api/me', { token: done.body.token })).status, 200);
    const login = (password: string) =>
      call(t.app, 'POST', '/api/auth/login', { body: { email: member.email, password } });
    assert.equal((await login('another good password')).status, 401);
    assert.equal((await login('a brand new passphrase')).status, 200);
    assert.equal((await complete(tokenOf(link.body.resetUrl), 'yet another passphrase')).status, 401, 'once only');
    assert.equal((await accept(tokenOf(link.body.resetUrl))).status, 401, 'a reset link is not an invitation');
  });

  test('without SVC_PUBLIC_URL, links start with the address the admin reached the server at', async () => {
    const local = await createTestApp();
    try {
      const boss = await signUp(local.app);
      const created = await local.app.inject({
        method: 'POST',
        url: '/api/workspace/invites',
        headers: { authorization: `Bearer ${boss.token}`, host: 'feedback.internal:8080' },
        payload: { email: 'someone@example.test', role: 'member' },
      });
      assert.match(created.json().inviteUrl, /^http:\/\/feedback\.internal:8080\/invite#svc_inv_/);
    } finally {
      await local.close();
    }
  });
});

describe('one-time links under concurrency, on either database', () => {
  let t: TestApp;
  let admin: Member;
  before(async () => {
    t = await createTestApp({ publicUrl: 'https://feedback.example.test' });
    admin = await signUp(t.app);
  });
  after(() => t.close());

  const links = async (where: { email: string } | { userId: string }) => {
    const query = t.app.database.db.selectFrom('one_time_links').select('id');
    const rows = await ('email' in where
      ? query.where('email', '=', where.email)
      : query.where('user_id', '=', where.userId)
    ).execute();
    return rows.length;
  };

  test('fifty invitations of one address at once: each replaces the one before, one link is left', async () => {
    const answers = await Promise.all(
      Array.from({ length: 50 }, () =>
        call(t.app, 'POST', '/api/workspace/invites', {
          token: admin.token,
          body: { email: 'many@example.test', role: 'member' },
        }),
      ),
    );
    for (const answer of answers) assert.equal(answer.status, 201, JSON.stringify(answer.body));
    assert.equal(await links({ email: 'many@example.test' }), 1);
  });

  test('fifty reset links for one member at once leave one; made while the member is removed, none', async () => {
    const member = await addMember(t.app, admin, 'member', 'Reset Many');
    const reset = (id: string) => () =>
      call(t.app, 'POST', `/api/workspace/members/${id}/password-reset`, { token: admin.token });
    const answers = await Promise.all(Array.from({ length: 50 }, reset(member.id)));
    for (const answer of answers) assert.equal(answer.status, 201, JSON.stringify(answer.body));
    assert.equal(await links({ userId: member.id }), 1);
    const other = await t.twin();
    for (const [round, answered] of RACE_POINTS.entries()) {
      const leaving = await addMember(t.app, admin, 'member', `Reset Leaving ${round}`);
      const { answers: raced, meanwhile: removed } = await amid(
        Array.from({ length: 50 }, () => reset(leaving.id)),
        answered,
        () => call(other, 'DELETE', `/api/workspace/members/${leaving.id}`, { token: admin.token }),
      );
      assert.equal(removed.status, 204);
      for (const answer of raced) assert.ok([201, 404].includes(answer.status), JSON.stringify(answer.body));
      assert.equal(await links({ userId: leaving.id }), 0, `round ${round}: a removed member keeps a reset link`);
    }
  });
});
