import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestDnsServer, type TestDnsServer } from '../../../test/dns-server.js';
import {
  addClient,
  addMember,
  call,
  createProject,
  createTestApp,
  type Member,
  manualClock,
  signUp,
  type TestApp,
} from '../../../test/helpers.js';
import { ID_TOKEN_TTL_S, startTestProvider, type TestProvider } from '../../../test/oidc-provider.js';

const BASE = 'http://feedback.test';
const REDIRECT = `${BASE}/api/auth/sso/callback`;

describe('single sign-on with a real OpenID provider', () => {
  const clock = manualClock();
  let t: TestApp;
  let idp: TestProvider;
  let dns: TestDnsServer;
  let admin: Member;

  before(async () => {
    idp = await startTestProvider(REDIRECT);
    dns = await startTestDnsServer();
    t = await createTestApp({ publicUrl: BASE, dnsServers: [dns.address] }, { clock });
    admin = await signUp(t.app);
  });
  after(async () => {
    await t.close();
    await idp.close();
    await dns.close();
  });

  const configure = (extra: Record<string, unknown> = {}, token = admin.token) =>
    call(t.app, 'PUT', '/api/workspace/sso', {
      token,
      body: {
        issuer: idp.issuer,
        clientId: idp.clientId,
        clientSecret: idp.clientSecret,
        displayName: 'Acme Login',
        allowedDomains: ['acme.test'],
        newMemberRole: 'member',
        requireForMembers: false,
        ...extra,
      },
    });

  /** Starts a sign-in, goes through the provider as `account`, and lands on the callback: where it redirects. */
  async function signInAs(account: string, beforeCallback?: () => void) {
    const started = await call(t.app, 'POST', '/api/auth/sso/start', { body: { workspace: admin.workspaceId } });
    assert.equal(started.status, 200, JSON.stringify(started.body));
    const back = await idp.signInAt(started.body.url, account);
    beforeCallback?.();
    return { ...(await landOn(back)), binding: started.body.binding as string };
  }

  async function landOn(back: URL) {
    const landed = await t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
    assert.equal(landed.statusCode, 302);
    const location = new URL(String(landed.headers.location));
    assert.equal(location.origin + location.pathname, `${BASE}/sign-in`);
    assert.equal(location.search, '', 'nothing in the query');
    const fragment = new URLSearchParams(location.hash.slice(1));
    return { code: fragment.get('sso_code'), error: fragment.get('sso_error'), back };
  }

  /** Trades a signed-in answer's one-time code, with the binding its start gave, for a session. */
  const exchange = (answer: { code: string | null; binding: string }) =>
    call(t.app, 'POST', '/api/auth/sso/exchange', { body: { code: answer.code ?? '', binding: answer.binding } });

  test('settings: admins only, the issuer discovered first, the client secret kept sealed and never returned', async () => {
    const member = await addMember(t.app, admin);
    assert.equal((await configure({}, member.token)).status, 403);
    assert.equal((await configure({ clientSecret: undefined })).status, 400, 'a secret the first time');
    const bad = await configure({ issuer: 'http://127.0.0.1:9/nothing' });
    assert.equal(bad.status, 400);
    assert.match(bad.body.detail, /could not be discovered/);
    assert.equal(
      (await configure({ issuer: 'http://idp.example.com' })).status,
      400,
      'https only, but on this machine',
    );
    const saved = await configure();
    assert.equal(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(saved.body.redirectUrl, REDIRECT);
    assert.equal(JSON.stringify(saved.body).includes(idp.clientSecret), false);
    const row = await t.app.database.db.selectFrom('sso_providers').selectAll().executeTakeFirstOrThrow();
    assert.equal(row.client_secret.includes(idp.clientSecret), false);
    // Kept when omitted.
    assert.equal((await configure({ clientSecret: undefined, displayName: 'Acme Login' })).status, 200);
    // Listed is not proven: nobody is routed by an unproven domain.
    const byEmail = () => call(t.app, 'GET', '/api/auth/sso?email=someone@ACME.test');
    assert.equal((await byEmail()).status, 404);
    const [domain] = saved.body.domains;
    assert.deepEqual(
      { ...domain, record: { ...domain.record, value: domain.record.value.slice(0, 24) } },
      {
        domain: 'acme.test',
        proven: false,
        provenAt: null,
        provenBy: null,
        record: { type: 'TXT', name: '_svc-verification.acme.test', value: 'svc-domain-verification=' },
      },
    );
    assert.ok(domain.record.value.length > 40, 'a token to publish');
    const check = (token = admin.token) => call(t.app, 'POST', '/api/workspace/sso/domains/acme.test/check', { token });
    const missing = await check();
    assert.equal(missing.status, 409);
    assert.match(missing.body.detail, /no TXT record at _svc-verification\.acme\.test holds svc-domain-verification=/);
    dns.txt.set('_svc-verification.acme.test', ['svc-domain-verification=someone-elses-token']);
    assert.match((await check()).body.detail, /found: svc-domain-verification=someone-elses-token/);
    dns.txt.set('_svc-verification.acme.test', ['v=spf1 -all', domain.record.value]);
    const proven = await check();
    assert.equal(proven.status, 200, JSON.stringify(proven.body));
    assert.deepEqual([proven.body.proven, proven.body.provenBy], [true, 'dns']);
    assert.equal((await check()).status, 200, 'idempotent');
    assert.deepEqual((await byEmail()).body, { workspaceId: admin.workspaceId, displayName: 'Acme Login' });
    assert.equal((await call(t.app, 'GET', '/api/auth/sso?email=someone@elsewhere.test')).status, 404);
    // Another workspace may list the domain, but not prove it once proven here, even with its own record.
    const other = await signUp(t.app);
    const theirs = await configure({}, other.token);
    assert.equal(theirs.status, 200);
    dns.txt.set('_svc-verification.acme.test', [domain.record.value, theirs.body.domains[0].record.value]);
    const stolen = await check(other.token);
    assert.equal(stolen.status, 409);
    assert.match(stolen.body.detail, /Another workspace on this server has proven acme\.test/);
    assert.deepEqual((await byEmail()).body.workspaceId, admin.workspaceId);
    assert.equal((await call(t.app, 'DELETE', '/api/workspace/sso', { token: other.token })).status, 204);
    // Public mail domains are nobody's.
    const gmail = await configure({ allowedDomains: ['acme.test', 'gmail.com'], clientSecret: undefined });
    assert.equal(gmail.status, 400);
    assert.equal(gmail.body.errors[0].path, '/allowedDomains/1');
    assert.match(gmail.body.errors[0].message, /public mail domain/);
    const audit = await call(t.app, 'GET', '/api/workspace/audit?action=security_changed', { token: admin.token });
    assert.ok(
      audit.body.items.some(
        (event: { detail: string }) => event.detail === 'e-mail domain acme.test proven by its DNS record',
      ),
    );
  });

  test('an existing member with a verified e-mail signs in; the subject is linked, so a changed e-mail is still them', async () => {
    const member = await addMember(t.app, admin, 'member', 'Mel Member');
    idp.people.set('mel', { email: member.email, email_verified: true, name: 'Mel at Acme' });
    const signedIn = await signInAs('mel');
    const { error } = signedIn;
    assert.equal(error, null);
    const session = await exchange(signedIn);
    assert.equal(session.status, 200, JSON.stringify(session.body));
    assert.equal(session.body.user.id, member.id);
    assert.equal((await exchange(signedIn)).status, 401, 'the one-time code is good once');
    idp.people.set('mel', { email: 'mel.renamed@acme.test', email_verified: true });
    const again = await signInAs('mel');
    assert.equal((await exchange(again)).body.user.id, member.id);
    // An answer for someone else's sign-in, slipped into another browser: without the binding
    // its start gave, the code signs nobody in (and is spent).
    const slipped = await signInAs('mel');
    assert.equal((await exchange({ code: slipped.code, binding: 'svc_ssb_another-browsers' })).status, 401);
    assert.equal((await exchange(slipped)).status, 401, 'spent');
    const audit = await call(t.app, 'GET', '/api/workspace/audit?action=signed_in&limit=1', { token: admin.token });
    assert.equal(audit.body.items[0].detail, 'single sign-on');
  });

  test('someone new of an allowed domain joins as the chosen role; other domains, unverified e-mails and clients are refused', async () => {
    idp.people.set('nia', { email: 'nia@acme.test', email_verified: true, name: 'Nia New' });
    const joined = await exchange(await signInAs('nia'));
    assert.equal(joined.status, 200);
    assert.deepEqual([joined.body.user.name, joined.body.user.role], ['Nia New', 'member']);
    const noPassword = await call(t.app, 'POST', '/api/me/two-factor/enrolment', {
      token: joined.body.token,
      body: { password: 'anything at all' },
    });
    assert.equal(noPassword.status, 409, 'no password to confirm: a clear refusal, not a signed-out session');
    idp.people.set('out', { email: 'out@elsewhere.test', email_verified: true });
    assert.match((await signInAs('out')).error ?? '', /may not join/);
    // A domain listed but not proven lets nobody join, whatever the provider asserts.
    assert.equal(
      (await configure({ allowedDomains: ['acme.test', 'beta.test'], clientSecret: undefined })).status,
      200,
    );
    idp.people.set('bea', { email: 'bea@beta.test', email_verified: true });
    assert.match(
      (await signInAs('bea')).error ?? '',
      /bea@beta\.test is not in this workspace, and its domain may not join/,
    );
    await configure({ clientSecret: undefined });
    // Someone of another workspace hears what someone of no workspace hears: nothing of where they are.
    const elsewhere = await signUp(t.app);
    idp.people.set('els', { email: elsewhere.email, email_verified: true });
    const refusal = (await signInAs('els')).error ?? '';
    assert.equal(
      refusal,
      `${elsewhere.email} is not in this workspace, and its domain may not join by itself: ask an admin to invite you.`,
    );
    assert.doesNotMatch(refusal, /another workspace/);
    idp.people.set('unv', { email: 'unv@acme.test', email_verified: false });
    assert.match((await signInAs('unv')).error ?? '', /did not vouch/);
    const client = await addClient(t.app, admin);
    const clientEmail = 'cleo@acme.test';
    await t.app.database.db.updateTable('users').set({ email: clientEmail }).where('id', '=', client.id).execute();
    idp.people.set('cleo', { email: clientEmail, email_verified: true });
    assert.match((await signInAs('cleo')).error ?? '', /Client accounts/);
  });

  test("a newcomer's name from the provider loses its controls and direction overrides; the sign-in goes on", async () => {
    // Nobody typed it here: refusing would lock them out for their provider's data, so it is cleaned.
    idp.people.set('rtl', {
      email: 'rtl@acme.test',
      email_verified: true,
      name: 'Rae\u202eevil\u009b[31m\u2066 Ray\u200f',
    });
    const joined = await exchange(await signInAs('rtl'));
    assert.equal(joined.status, 200, JSON.stringify(joined.body));
    assert.equal(joined.body.user.name, 'Raeevil[31m Ray');
    idp.people.set('bidi', { email: 'bidi@acme.test', email_verified: true, name: '\u202e\u202c' });
    const unnamed = await exchange(await signInAs('bidi'));
    assert.equal(unnamed.status, 200, JSON.stringify(unnamed.body));
    assert.equal(unnamed.body.user.name, 'bidi', 'nothing left of the name: the e-mail names them');
    const members = await call(t.app, 'GET', '/api/workspace/members?limit=100', { token: admin.token });
    const shown = members.body.items.map((m: { name: string }) => m.name);
    assert.ok(shown.includes('Raeevil[31m Ray'));
  });

  test('a removed member is refused, even with a valid ID token', async () => {
    const member = await addMember(t.app, admin, 'member', 'Rex Removed');
    idp.people.set('rex', { email: member.email, email_verified: true });
    assert.equal((await exchange(await signInAs('rex'))).status, 200);
    assert.equal(
      (await call(t.app, 'DELETE', `/api/workspace/members/${member.id}`, { token: admin.token })).status,
      204,
    );
    assert.match((await signInAs('rex')).error ?? '', /removed/);
  });

  test('a wrong state, a replayed answer, a wrong audience and an expired token are refused', async () => {
    idp.people.set('val', { email: 'val@acme.test', email_verified: true });
    const started = await call(t.app, 'POST', '/api/auth/sso/start', { body: { workspace: admin.workspaceId } });
    const back = await idp.signInAt(started.body.url, 'val');
    const forged = new URL(back);
    forged.searchParams.set('state', 'a-state-we-never-issued');
    assert.match((await landOn(forged)).error ?? '', /not started here/);
    const first = await landOn(back);
    assert.ok(first.code);
    assert.match((await landOn(back)).error ?? '', /not started here|already used/, 'replayed');
    // The same code under a new sign-in's state: the provider refuses a code redeemed once.
    const another = await call(t.app, 'POST', '/api/auth/sso/start', { body: { workspace: admin.workspaceId } });
    const replayed = new URL(back);
    replayed.searchParams.set('state', new URL(another.body.url).searchParams.get('state') ?? '');
    assert.match((await landOn(replayed)).error ?? '', /could not be accepted/);

    idp.tamperNextIdToken((claims) => ({ ...claims, aud: 'another-client' }));
    assert.match((await signInAs('val')).error ?? '', /could not be accepted.*"aud"/);

    // Past the token's expiry and the minute of clock skew allowed, within the sign-in's ten minutes.
    const expired = await signInAs('val', () => clock.advance((ID_TOKEN_TTL_S + 120) * 1000));
    assert.match(expired.error ?? '', /could not be accepted.*"exp"/);
    clock.advance(-(ID_TOKEN_TTL_S + 120) * 1000);
  });

  test("a widget's sign-in: only from an origin the workspace's projects allow; the popup's last page hands the code there", async () => {
    const configured = await configure({ clientSecret: idp.clientSecret });
    assert.equal(configured.status, 200, JSON.stringify(configured.body));
    const project = await createProject(t.app, admin, { allowedOrigins: ['https://app.acme.test'] });
    const found = await call(t.app, 'GET', `/api/auth/sso?project=${project.key}`);
    assert.deepEqual(found.body, { workspaceId: admin.workspaceId, displayName: 'Acme Login' });
    const startFrom = (origin: string) =>
      call(t.app, 'POST', '/api/auth/sso/start', { body: { workspace: admin.workspaceId }, headers: { origin } });
    assert.equal((await startFrom('https://evil.test')).status, 403);
    const started = await startFrom('https://app.acme.test');
    assert.equal(started.status, 200, JSON.stringify(started.body));
    idp.people.set('wid', { email: 'wid@acme.test', email_verified: true });
    const back = await idp.signInAt(started.body.url, 'wid');
    const landed = await t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
    const location = new URL(String(landed.headers.location));
    assert.equal(location.pathname, '/sso/done');
    const fragment = new URLSearchParams(location.hash.slice(1));
    assert.equal(fragment.get('to'), 'https://app.acme.test');
    assert.equal(fragment.get('sso_error'), null);
    assert.equal((await exchange({ code: fragment.get('sso_code'), binding: started.body.binding })).status, 200);
    const page = await t.app.inject({ method: 'GET', url: '/sso/done' });
    assert.equal(page.headers['cross-origin-opener-policy'], 'unsafe-none');
    assert.match(String(page.headers['content-security-policy']), /script-src 'self'/);
    assert.match(page.body, /<html lang="en" dir="ltr">/);
    assert.match(page.body, /This window closes by itself/);
  });

  test("the popup's last page speaks the person's language (their browser's, or the one the address asks for), right to left in Arabic", async () => {
    const asked = async (url: string, acceptLanguage?: string) =>
      (
        await t.app.inject({
          method: 'GET',
          url,
          headers: acceptLanguage ? { 'accept-language': acceptLanguage } : {},
        })
      ).body;
    const french = await asked('/sso/done', 'fr-CA,fr;q=0.9,en;q=0.5');
    assert.match(french, /<html lang="fr" dir="ltr">/);
    assert.match(french, /<title>Connexion…<\/title>/);
    assert.match(french, /Cette fenêtre se ferme d’elle-même/);
    assert.match(
      french,
      /data-failed="L&#8217;authentification unique n&#8217;a pas fonctionné :"|data-failed="L’authentification unique n’a pas fonctionné :"/,
    );
    const arabic = await asked('/sso/done?locale=ar', 'fr');
    assert.match(arabic, /<html lang="ar" dir="rtl">/);
    assert.match(arabic, /جارٍ تسجيل الدخول/);
    assert.match(await asked('/sso/done', 'sv, *;q=0.5'), /<html lang="en"/, 'none of ours: English');
  });

  test("the browser extension's settings page: its sign-in comes back to it, an extension's page being no web page's origin", async () => {
    assert.equal((await configure()).status, 200);
    for (const origin of [
      'chrome-extension://abcdefghijklmnopabcdefghijklmnop',
      'moz-extension://3f2c1b9e-7d4a-4e8b-9c1d-2a6b5e8f0c71',
    ]) {
      const started = await call(t.app, 'POST', '/api/auth/sso/start', {
        body: { workspace: admin.workspaceId },
        headers: { origin },
      });
      assert.equal(started.status, 200, JSON.stringify(started.body));
      idp.people.set('ext', { email: admin.email, email_verified: true });
      const back = await idp.signInAt(started.body.url, 'ext');
      const landed = await t.app.inject({ method: 'GET', url: `${back.pathname}${back.search}` });
      const location = new URL(String(landed.headers.location));
      assert.equal(location.pathname, '/sso/done');
      const fragment = new URLSearchParams(location.hash.slice(1));
      assert.equal(fragment.get('to'), origin);
      const exchanged = await exchange({ code: fragment.get('sso_code'), binding: started.body.binding });
      assert.equal(exchanged.status, 200, JSON.stringify(exchanged.body) + location.hash);
    }
    // Something that only looks like one is a web page's origin, refused as any other.
    for (const origin of ['chrome-extension://evil.test/', 'https://chrome-extension.test']) {
      const refused = await call(t.app, 'POST', '/api/auth/sso/start', {
        body: { workspace: admin.workspaceId },
        headers: { origin },
      });
      assert.equal(refused.status, 403, origin);
    }
  });

  test("another workspace's project of the same key does not hide the widget's single sign-on", async () => {
    assert.equal((await configure()).status, 200);
    const project = await createProject(t.app, admin, { allowedOrigins: ['https://shop.acme.test'] });
    const discover = (query: string, origin?: string) =>
      call(t.app, 'GET', `/api/auth/sso?${query}`, origin ? { headers: { origin } } : {});
    const acme = { workspaceId: admin.workspaceId, displayName: 'Acme Login' };
    const other = await signUp(t.app);
    // Same key, elsewhere: the page the widget runs on says which project it means.
    const shadow = await createProject(t.app, other, { key: project.key, allowedOrigins: ['https://other.test'] });
    assert.equal(shadow.key, project.key);
    assert.deepEqual((await discover(`project=${project.key}`, 'https://shop.acme.test')).body, acme);
    assert.equal((await discover(`project=${project.key}`, 'https://other.test')).status, 404, 'theirs has none');
    // Listing Acme's origin as well makes the key name neither for sure; the embed's workspace still does.
    await call(t.app, 'PATCH', `/api/projects/${project.key}`, {
      token: other.token,
      body: { allowedOrigins: ['https://shop.acme.test'] },
    });
    assert.equal((await discover(`project=${project.key}`, 'https://shop.acme.test')).status, 404);
    assert.deepEqual((await discover(`workspace=${admin.workspaceId}`, 'https://shop.acme.test')).body, acme);
  });

  test('required of members: their password is refused; admins keep theirs as the way back in', async () => {
    const member = await addMember(t.app, admin, 'member', 'Pia Password');
    assert.equal((await configure({ requireForMembers: true, clientSecret: undefined })).status, 200);
    try {
      const refused = await call(t.app, 'POST', '/api/auth/login', {
        body: { email: member.email, password: 'another good password' },
      });
      assert.equal(refused.status, 403);
      assert.match(refused.body.detail, /Continue with Acme Login/);
      // A reset is a way in by password too: refused, and the link and the old password left as they were.
      const made = await call(t.app, 'POST', `/api/workspace/members/${member.id}/password-reset`, {
        token: admin.token,
      });
      const resetToken = String(made.body.resetUrl).split('#')[1];
      const reset = await call(t.app, 'POST', '/api/password-reset/complete', {
        body: { token: resetToken, password: 'a brand new passphrase' },
      });
      assert.equal(reset.status, 403);
      assert.match(reset.body.detail, /Continue with Acme Login/);
      await configure({ requireForMembers: false, clientSecret: undefined });
      const unchanged = await call(t.app, 'POST', '/api/auth/login', {
        body: { email: member.email, password: 'another good password' },
      });
      assert.equal(unchanged.status, 200);
      await configure({ requireForMembers: true, clientSecret: undefined });
      const fallback = await call(t.app, 'POST', '/api/auth/login', {
        body: { email: admin.email, password: 'correct horse battery' },
      });
      assert.equal(fallback.status, 200);
      assert.equal(typeof fallback.body.token, 'string');
    } finally {
      await configure({ requireForMembers: false, clientSecret: undefined });
    }
    assert.equal((await call(t.app, 'DELETE', '/api/workspace/sso', { token: admin.token })).status, 204);
    assert.equal((await call(t.app, 'GET', `/api/auth/sso?workspace=${admin.workspaceId}`)).status, 404);
    assert.equal((await configure()).status, 200);
  });
});
