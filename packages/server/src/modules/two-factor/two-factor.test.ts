import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  addClient,
  addMember,
  call,
  createTestApp,
  type Member,
  manualClock,
  signUp,
  type TestApp,
} from '../../../test/helpers.js';
import { codeAt, legacyRecoveryCodeHash } from './totp.js';

const PASSWORD = 'correct horse battery';
const MEMBER_PASSWORD = 'another good password';

describe('two-factor sign-in', () => {
  const clock = manualClock();
  let t: TestApp;
  before(async () => {
    t = await createTestApp({ limits: { signInFailuresPerAccount: 1000, signUpsPerAddress: 1000 } }, { clock });
  });
  after(() => t.close());

  /** Turns two-factor on for `who` from their account page; the seed and recovery codes. */
  async function enrol(who: Member, password = PASSWORD) {
    const started = await call(t.app, 'POST', '/api/me/two-factor/enrolment', { token: who.token, body: { password } });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    clock.advance(30_000);
    const confirmed = await call(t.app, 'POST', '/api/me/two-factor/confirm', {
      token: who.token,
      body: { code: codeAt(started.body.secret, clock.now()) },
    });
    assert.equal(confirmed.status, 200, JSON.stringify(confirmed.body));
    return { seed: started.body.secret as string, recoveryCodes: confirmed.body.recoveryCodes as string[] };
  }

  const login = (email: string, password = PASSWORD) =>
    call(t.app, 'POST', '/api/auth/login', { body: { email, password } });
  const answer = (challenge: string, code: string) =>
    call(t.app, 'POST', '/api/auth/two-factor', { body: { challenge, code } });

  test('enrolling: the password asked again, a QR code, the first code confirms; the seed is stored sealed', async () => {
    const admin = await signUp(t.app);
    const wrong = await call(t.app, 'POST', '/api/me/two-factor/enrolment', {
      token: admin.token,
      body: { password: 'not my password' },
    });
    assert.equal(wrong.status, 400);
    const started = await call(t.app, 'POST', '/api/me/two-factor/enrolment', {
      token: admin.token,
      body: { password: PASSWORD },
    });
    assert.equal(started.status, 200);
    assert.match(started.body.secret, /^[A-Z2-7]{32}$/);
    assert.match(started.body.uri, /^otpauth:\/\/totp\/.*secret=/);
    assert.match(started.body.qrSvg, /^<svg/);
    const refused = await call(t.app, 'POST', '/api/me/two-factor/confirm', {
      token: admin.token,
      body: { code: codeAt(started.body.secret, clock.now() - 10 * 60_000) },
    });
    assert.equal(refused.status, 400);
    assert.equal((await call(t.app, 'GET', '/api/me/two-factor', { token: admin.token })).body.enabled, false);
    const confirmed = await call(t.app, 'POST', '/api/me/two-factor/confirm', {
      token: admin.token,
      body: { code: codeAt(started.body.secret, clock.now()) },
    });
    assert.equal(confirmed.status, 200);
    assert.equal(confirmed.body.recoveryCodes.length, 10);
    assert.equal(new Set(confirmed.body.recoveryCodes).size, 10);
    const status = await call(t.app, 'GET', '/api/me/two-factor', { token: admin.token });
    assert.deepEqual(
      { enabled: status.body.enabled, left: status.body.recoveryCodesLeft, required: status.body.required },
      { enabled: true, left: 10, required: false },
    );
    const row = await t.app.database.db
      .selectFrom('users')
      .select(['totp_secret'])
      .where('id', '=', admin.id)
      .executeTakeFirstOrThrow();
    assert.match(row.totp_secret ?? '', /^v1\./);
    assert.ok(!row.totp_secret?.includes(started.body.secret), 'the seed is not stored in clear');
    const codes = await t.app.database.db
      .selectFrom('recovery_codes')
      .select('code_hash')
      .where('user_id', '=', admin.id)
      .execute();
    assert.ok(codes.every((c) => !confirmed.body.recoveryCodes.some((code: string) => c.code_hash.includes(code))));
    // Enrolling a second app while one is on: refused.
    const again = await call(t.app, 'POST', '/api/me/two-factor/enrolment', {
      token: admin.token,
      body: { password: PASSWORD },
    });
    assert.equal(again.status, 409);
  });

  test('signing in: a challenge after the password; a code works once; recovery codes once each', async () => {
    const admin = await signUp(t.app);
    const { seed, recoveryCodes } = await enrol(admin);
    const first = await login(admin.email);
    assert.equal(first.status, 200);
    assert.equal(first.body.secondFactor, 'code');
    assert.equal(first.body.token, undefined, 'no session before the second factor');
    assert.equal((await answer(first.body.challenge, '000000')).status, 400);
    clock.advance(30_000);
    const code = codeAt(seed, clock.now());
    const signedIn = await answer(first.body.challenge, code);
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
    assert.equal((await call(t.app, 'GET', '/api/me', { token: signedIn.body.token })).status, 200);
    // The challenge is spent, and so is the code.
    assert.equal((await answer(first.body.challenge, code)).status, 401);
    const second = await login(admin.email);
    assert.equal((await answer(second.body.challenge, code)).status, 400, 'a code is good once');
    // A recovery code, typed in capitals and without its dash, works once.
    const typed = (recoveryCodes[0] as string).replace('-', '').toUpperCase();
    assert.equal((await answer(second.body.challenge, typed)).status, 200);
    const third = await login(admin.email);
    assert.equal((await answer(third.body.challenge, recoveryCodes[0] as string)).status, 400);
    assert.equal((await answer(third.body.challenge, recoveryCodes[1] as string)).status, 200);
    const status = await call(t.app, 'GET', '/api/me/two-factor', { token: admin.token });
    assert.equal(status.body.recoveryCodesLeft, 8);
    const audit = await call(t.app, 'GET', '/api/workspace/audit?action=signed_in', { token: admin.token });
    assert.ok(audit.body.items.some((e: { detail: string }) => e.detail === 'password and recovery code'));
    assert.ok(audit.body.items.some((e: { detail: string }) => e.detail === 'password and code'));
    const failed = await call(t.app, 'GET', '/api/workspace/audit?action=sign_in_failed', { token: admin.token });
    assert.ok(failed.body.items.some((e: { detail: string }) => e.detail === 'wrong second-factor code'));
  });

  test('a challenge ends after five wrong codes, and after ten minutes', async () => {
    const admin = await signUp(t.app);
    const { seed } = await enrol(admin);
    const tried = await login(admin.email);
    for (let i = 0; i < 5; i++) assert.equal((await answer(tried.body.challenge, '000000')).status, 400);
    clock.advance(30_000);
    assert.equal((await answer(tried.body.challenge, codeAt(seed, clock.now()))).status, 401);
    const late = await login(admin.email);
    clock.advance(10 * 60_000 + 1000);
    assert.equal((await answer(late.body.challenge, codeAt(seed, clock.now()))).status, 401);
    assert.equal((await answer('svc_chl_made-up', '123456')).status, 401);
  });

  test('required by an admin: a member without a second factor enrols at sign-in, and cannot turn it off', async () => {
    const admin = await signUp(t.app);
    const member = await addMember(t.app, admin);
    const client = await addClient(t.app, admin);
    const byMember = await call(t.app, 'PATCH', '/api/workspace/security', {
      token: member.token,
      body: { twoFactorRequired: 'everyone' },
    });
    assert.equal(byMember.status, 403);
    const bad = await call(t.app, 'PATCH', '/api/workspace/security', {
      token: admin.token,
      body: { twoFactorRequired: 'sometimes' },
    });
    assert.equal(bad.status, 400);
    const set = await call(t.app, 'PATCH', '/api/workspace/security', {
      token: admin.token,
      body: { twoFactorRequired: 'everyone' },
    });
    assert.deepEqual(set.body, { twoFactorRequired: 'everyone' });
    assert.equal(
      (await call(t.app, 'GET', '/api/me', { token: member.token })).body.workspace.twoFactorRequired,
      'everyone',
    );
    // Sessions in force go on; the next sign-in asks.
    const asked = await login(member.email, MEMBER_PASSWORD);
    assert.equal(asked.body.secondFactor, 'enrol');
    assert.equal((await answer(asked.body.challenge, '123456')).status, 409, 'enrolment not started');
    const enrolment = await call(t.app, 'POST', '/api/auth/two-factor/enrolment', {
      body: { challenge: asked.body.challenge },
    });
    assert.equal(enrolment.status, 200);
    const signedIn = await answer(asked.body.challenge, codeAt(enrolment.body.secret, clock.now()));
    assert.equal(signedIn.status, 200, JSON.stringify(signedIn.body));
    assert.equal(signedIn.body.recoveryCodes.length, 10);
    const off = await call(t.app, 'POST', '/api/me/two-factor/disable', {
      token: signedIn.body.token,
      body: { password: MEMBER_PASSWORD },
    });
    assert.equal(off.status, 403);
    // Client accounts sign in by link: never asked.
    assert.equal((await call(t.app, 'GET', '/api/me', { token: client.token })).status, 200);
    const members = await call(t.app, 'GET', '/api/workspace/members', { token: admin.token });
    assert.equal(members.body.items.find((m: { id: string }) => m.id === member.id).twoFactor, true);
  });

  test('recovery codes are stored keyed with the server’s secret: the database alone cannot check them; one stored as before still works once', async () => {
    const admin = await signUp(t.app);
    const { recoveryCodes } = await enrol(admin);
    const stored = await t.app.database.db
      .selectFrom('recovery_codes')
      .select('code_hash')
      .where('user_id', '=', admin.id)
      .execute();
    const plain = recoveryCodes.map((code) => legacyRecoveryCodeHash(code));
    assert.equal(stored.length, 10);
    assert.ok(
      stored.every((row) => !plain.includes(row.code_hash)),
      'no stored hash is the plain SHA-256 of a code',
    );
    const sealedKey = await t.app.database.db
      .selectFrom('server_keys')
      .select('sealed')
      .where('name', '=', 'recovery-codes')
      .executeTakeFirstOrThrow();
    assert.match(sealedKey.sealed, /^v1\./, 'the key is kept sealed');
    // A code a release before stored as its plain hash.
    const [first] = stored;
    await t.app.database.db
      .updateTable('recovery_codes')
      .set({ code_hash: plain[0] as string })
      .where('code_hash', '=', first?.code_hash as string)
      .execute();
    const asked = await login(admin.email);
    assert.equal((await answer(asked.body.challenge, recoveryCodes[0] as string)).status, 200);
    const again = await login(admin.email);
    assert.equal((await answer(again.body.challenge, recoveryCodes[0] as string)).status, 400, 'once');
    assert.equal((await answer(again.body.challenge, recoveryCodes[1] as string)).status, 200);
  });

  /** The token of a link an admin made (`…#<token>`). */
  const fragmentOf = (url: string) => url.slice(url.indexOf('#') + 1);

  test('a completed password reset asks for the second factor, as a sign-in does; no session before the code', async () => {
    const admin = await signUp(t.app);
    const { seed } = await enrol(admin);
    const second = await addMember(t.app, admin, 'admin', 'Second Admin');
    const made = await call(t.app, 'POST', `/api/workspace/members/${admin.id}/password-reset`, {
      token: second.token,
    });
    assert.equal(made.status, 201);
    const completed = await call(t.app, 'POST', '/api/password-reset/complete', {
      body: { token: fragmentOf(made.body.resetUrl), password: 'a brand new passphrase' },
    });
    assert.equal(completed.status, 200);
    assert.equal(completed.body.token, undefined, 'no session: the reset proves the link, not the phone');
    assert.equal(completed.body.secondFactor, 'code');
    clock.advance(30_000);
    const signedIn = await answer(completed.body.challenge, codeAt(seed, clock.now()));
    assert.equal(signedIn.status, 200);
    assert.equal(typeof signedIn.body.token, 'string');
  });

  test('accepting an invitation while the workspace requires two-factor asks to enrol before any session', async () => {
    const admin = await signUp(t.app);
    await call(t.app, 'PATCH', '/api/workspace/security', {
      token: admin.token,
      body: { twoFactorRequired: 'everyone' },
    });
    const invited = await call(t.app, 'POST', '/api/workspace/invites', {
      token: admin.token,
      body: { email: `nia-${admin.id}@example.test`, role: 'member' },
    });
    const accepted = await call(t.app, 'POST', '/api/invites/accept', {
      body: { token: fragmentOf(invited.body.inviteUrl), name: 'Nia Newcomer', password: MEMBER_PASSWORD },
    });
    assert.equal(accepted.status, 201);
    assert.equal(accepted.body.token, undefined);
    assert.equal(accepted.body.secondFactor, 'enrol');
    const enrolment = await call(t.app, 'POST', '/api/auth/two-factor/enrolment', {
      body: { challenge: accepted.body.challenge },
    });
    const signedIn = await answer(accepted.body.challenge, codeAt(enrolment.body.secret, clock.now()));
    assert.equal(signedIn.status, 200);
    assert.equal(signedIn.body.recoveryCodes.length, 10);
  });

  test('a challenge to enrol handed out before the account enrolled dies: it cannot replace the owner’s second factor', async () => {
    const admin = await signUp(t.app);
    await call(t.app, 'PATCH', '/api/workspace/security', {
      token: admin.token,
      body: { twoFactorRequired: 'admins' },
    });
    // Someone with the password gets a challenge to enrol, and keeps it.
    const stale = await login(admin.email);
    assert.equal(stale.body.secondFactor, 'enrol');
    const staleEnrolment = await call(t.app, 'POST', '/api/auth/two-factor/enrolment', {
      body: { challenge: stale.body.challenge },
    });
    assert.equal(staleEnrolment.status, 200);
    // The owner enrols meanwhile, from their own sign-in.
    const own = await login(admin.email);
    const ownEnrolment = await call(t.app, 'POST', '/api/auth/two-factor/enrolment', {
      body: { challenge: own.body.challenge },
    });
    const ownSeed = ownEnrolment.body.secret as string;
    assert.equal((await answer(own.body.challenge, codeAt(ownSeed, clock.now()))).status, 200);
    // The stale challenge enrols nothing, and cannot start again either.
    const late = await answer(stale.body.challenge, codeAt(staleEnrolment.body.secret, clock.now()));
    assert.equal(late.status, 401);
    const restarted = await call(t.app, 'POST', '/api/auth/two-factor/enrolment', {
      body: { challenge: stale.body.challenge },
    });
    assert.equal(restarted.status, 401);
    // The owner's app still signs them in.
    clock.advance(30_000);
    const again = await login(admin.email);
    assert.equal(again.body.secondFactor, 'code');
    assert.equal((await answer(again.body.challenge, codeAt(ownSeed, clock.now()))).status, 200);
  });

  test('an admin resets a member’s second factor (audited); only in their own workspace', async () => {
    const admin = await signUp(t.app);
    const member = await addMember(t.app, admin);
    await enrol(member, MEMBER_PASSWORD);
    const stranger = await signUp(t.app);
    const client = await addClient(t.app, admin);
    assert.equal(
      (await call(t.app, 'DELETE', `/api/workspace/members/${member.id}/two-factor`, { token: stranger.token })).status,
      404,
    );
    assert.equal(
      (await call(t.app, 'DELETE', `/api/workspace/members/${member.id}/two-factor`, { token: member.token })).status,
      403,
    );
    assert.equal(
      (await call(t.app, 'DELETE', `/api/workspace/members/${client.id}/two-factor`, { token: admin.token })).status,
      404,
    );
    assert.equal((await login(member.email, MEMBER_PASSWORD)).body.secondFactor, 'code');
    const reset = await call(t.app, 'DELETE', `/api/workspace/members/${member.id}/two-factor`, { token: admin.token });
    assert.equal(reset.status, 204);
    const after = await login(member.email, MEMBER_PASSWORD);
    assert.equal(typeof after.body.token, 'string', 'the password alone signs in again');
    const audit = await call(t.app, 'GET', '/api/workspace/audit?action=two_factor_reset', { token: admin.token });
    assert.equal(audit.body.items[0].target.id, member.id);
  });

  test('turning it off and renewing recovery codes ask for the password', async () => {
    const admin = await signUp(t.app);
    const { recoveryCodes } = await enrol(admin);
    const renewed = await call(t.app, 'POST', '/api/me/two-factor/recovery-codes', {
      token: admin.token,
      body: { password: PASSWORD },
    });
    assert.equal(renewed.status, 200);
    const asked = await login(admin.email);
    assert.equal((await answer(asked.body.challenge, recoveryCodes[0] as string)).status, 400, 'old codes are void');
    assert.equal((await answer(asked.body.challenge, renewed.body.recoveryCodes[0])).status, 200);
    const wrong = await call(t.app, 'POST', '/api/me/two-factor/disable', {
      token: admin.token,
      body: { password: 'not my password' },
    });
    assert.equal(wrong.status, 400);
    const off = await call(t.app, 'POST', '/api/me/two-factor/disable', {
      token: admin.token,
      body: { password: PASSWORD },
    });
    assert.equal(off.status, 204);
    assert.equal(typeof (await login(admin.email)).body.token, 'string');
  });
});

describe('two-factor throttle', () => {
  test('wrong codes count as failed sign-ins of the account: past the limit 429, even with the right code', async () => {
    const clock = manualClock();
    const t = await createTestApp({ limits: { signInFailuresPerAccount: 3 } }, { clock });
    try {
      const admin = await signUp(t.app);
      const started = await call(t.app, 'POST', '/api/me/two-factor/enrolment', {
        token: admin.token,
        body: { password: PASSWORD },
      });
      await call(t.app, 'POST', '/api/me/two-factor/confirm', {
        token: admin.token,
        body: { code: codeAt(started.body.secret, clock.now()) },
      });
      const asked = await call(t.app, 'POST', '/api/auth/login', { body: { email: admin.email, password: PASSWORD } });
      for (let i = 0; i < 3; i++) {
        const wrong = await call(t.app, 'POST', '/api/auth/two-factor', {
          body: { challenge: asked.body.challenge, code: '000000' },
        });
        assert.equal(wrong.status, 400);
      }
      clock.advance(30_000);
      const refused = await call(t.app, 'POST', '/api/auth/two-factor', {
        body: { challenge: asked.body.challenge, code: codeAt(started.body.secret, clock.now()) },
      });
      assert.equal(refused.status, 429);
      assert.ok(refused.headers['retry-after']);
    } finally {
      await t.close();
    }
  });
});
