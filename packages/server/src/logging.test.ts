import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { call, createProject, createTestDatabase, testConfig } from '../test/helpers.js';
import { buildApp } from './app.js';
import { redactUrl } from './logging.js';
import { codeAt } from './modules/two-factor/totp.js';

describe('no secret in the logs', () => {
  test('secret query parameters are masked in logged URLs; other parameters stay', () => {
    assert.equal(redactUrl('/demo?svc_access=svc_acc_abc&tab=plans'), '/demo?svc_access=[redacted]&tab=plans');
    assert.equal(redactUrl('/x?Token=1&api_key=2&page=3'), '/x?Token=[redacted]&api_key=[redacted]&page=3');
    assert.equal(redactUrl('/api/comments?project=site'), '/api/comments?project=site');
    assert.equal(redactUrl('/plain'), '/plain');
  });

  test('every secret the product issues, through every route that takes it, is never logged (trace level)', async () => {
    const lines: string[] = [];
    const { database, drop } = await createTestDatabase();
    const app = await buildApp(
      testConfig(database, { logLevel: 'trace', publicUrl: 'https://feedback.example.test' }),
      {
        logStream: { write: (line) => lines.push(line) },
      },
    );
    const secrets: [string, string][] = [];
    const keep = (what: string, value: string) => {
      assert.ok(value && value.length >= 10, what);
      secrets.push([what, value]);
      return value;
    };
    try {
      // A password, and the session of sign-up and of sign-in.
      const password = keep('sign-up password', 'correct horse battery staple');
      const signup = await call(app, 'POST', '/api/signup', {
        body: { workspaceName: 'Acme', name: 'Ada', email: 'ada@acme.test', password },
      });
      const admin = { token: keep('sign-up session', signup.body.token) };
      const login = await call(app, 'POST', '/api/auth/login', { body: { email: 'ada@acme.test', password } });
      keep('sign-in session', login.body.token);
      await call(app, 'POST', '/api/auth/login', {
        body: { email: 'ada@acme.test', password: keep('a wrong password', 'not my password at all') },
      });
      await call(app, 'GET', '/api/me', { token: keep('a token that is no session', 'svc_sess_made_up_0123456789') });

      // An API key, used through the API and the agents' endpoint.
      const created = await call(app, 'POST', '/api/me/api-keys', { token: admin.token, body: { name: 'ci' } });
      const apiKey = keep('API key', created.body.key);
      await call(app, 'GET', '/api/me', { token: apiKey });
      const project = await createProject(
        app,
        { ...admin, id: '', email: '', role: 'admin', workspaceId: '' },
        {
          appUrl: 'https://app.acme.test/start',
        },
      );
      await app.inject({
        method: 'POST',
        url: `/mcp?project=${project.key}`,
        headers: {
          authorization: `Bearer ${apiKey}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        payload: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      });

      // An invitation, accepted with a password.
      const invite = await call(app, 'POST', '/api/workspace/invites', {
        token: admin.token,
        body: { email: 'dev@acme.test', role: 'member' },
      });
      const inviteToken = keep('invitation', invite.body.inviteUrl.split('#')[1]);
      const memberPassword = keep('invited password', 'a brand new passphrase');
      const accepted = await call(app, 'POST', '/api/invites/accept', {
        body: { token: inviteToken, name: 'Dev', password: memberPassword },
      });
      const member = { token: keep('invited session', accepted.body.token), id: accepted.body.user.id };

      // A password reset, and a password change.
      const reset = await call(app, 'POST', `/api/workspace/members/${member.id}/password-reset`, {
        token: admin.token,
      });
      const resetToken = keep('password reset', reset.body.resetUrl.split('#')[1]);
      const afterReset = await call(app, 'POST', '/api/password-reset/complete', {
        body: { token: resetToken, password: keep('reset password', 'yet another passphrase') },
      });
      await call(app, 'POST', '/api/me/password', {
        token: keep('session after reset', afterReset.body.token),
        body: {
          currentPassword: 'yet another passphrase',
          newPassword: keep('changed password', 'the final passphrase'),
        },
      });

      // A client's access link: exchanged, and opened the old way on a page this server serves.
      const client = await call(app, 'POST', '/api/workspace/quick-access', {
        token: admin.token,
        body: { name: 'Cleo' },
      });
      const accessToken = keep('access token', client.body.accessToken);
      assert.match(client.body.accessUrl, /#svc_access=/);
      const exchanged = await call(app, 'POST', '/api/auth/quick-access', { body: { accessToken } });
      keep('client session', exchanged.body.token);
      const page = await app.inject({ method: 'GET', url: `/demo?svc_access=${accessToken}&tab=plans` });
      assert.equal(page.statusCode, 200);
      await call(app, 'POST', '/api/auth/logout', { token: exchanged.body.token });

      // Two-factor sign-in: the seed, a code, recovery codes, the challenge between password and code.
      const enrolment = await call(app, 'POST', '/api/me/two-factor/enrolment', {
        token: admin.token,
        body: { password },
      });
      const seed = keep('two-factor seed', enrolment.body.secret);
      const confirmed = await call(app, 'POST', '/api/me/two-factor/confirm', {
        token: admin.token,
        body: { code: codeAt(seed, Date.now() - 30_000) },
      });
      const [recovery = ''] = confirmed.body.recoveryCodes as string[];
      keep('recovery code', recovery);
      const asked = await call(app, 'POST', '/api/auth/login', { body: { email: 'ada@acme.test', password } });
      const challenge = keep('sign-in challenge', asked.body.challenge);
      await call(app, 'POST', '/api/auth/two-factor', { body: { challenge, code: recovery } });
    } finally {
      await app.close();
      await drop();
    }
    const logged = lines.join('\n');
    assert.ok(lines.length > 20, `${lines.length} log lines`);
    for (const route of [
      '/api/auth/quick-access',
      '/api/invites/accept',
      '/api/password-reset/complete',
      '/mcp?project=',
      '/api/auth/two-factor',
    ]) {
      assert.ok(logged.includes(route), `requests to ${route} are logged`);
    }
    assert.match(logged, /svc_access=\[redacted\]&tab=plans/, 'the page request is logged, its token masked');
    for (const [what, value] of secrets) assert.ok(!logged.includes(value), `the ${what} is not in the log`);
    assert.ok(!/authorization/i.test(logged), 'no Authorization header');
  });
});
