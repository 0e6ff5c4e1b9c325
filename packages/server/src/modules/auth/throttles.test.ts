import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  addMember,
  call,
  countRows,
  createComment,
  createProject,
  createTestApp,
  type Member,
  signUp,
  type TestApp,
} from '../../../test/helpers.js';
import { AppError } from '../../errors.js';
import { consumeRateLimit, MINUTE_MS, refuseWhenExhausted } from '../../limits/rate-limit.js';

const login = (t: TestApp, email: string, password: string, address = '10.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/login',
    remoteAddress: address,
    payload: { email, password },
  });

/** Moves every rate-limit window back in time, as if `ms` had passed. */
async function letTimePass(t: TestApp, ms: number) {
  const rows = await t.app.database.db.selectFrom('rate_limits').selectAll().execute();
  await t.app.database.db.deleteFrom('rate_limits').execute();
  for (const row of rows) {
    await t.app.database.db
      .insertInto('rate_limits')
      .values({ ...row, window_start: Number(row.window_start) - ms })
      .execute();
  }
}

describe('sign-in throttles', () => {
  test('failed sign-ins of one account: past the limit 429 with Retry-After, even with the right password, until the window passes', async () => {
    const t = await createTestApp({ limits: { signInFailuresPerAccount: 3 } });
    try {
      const admin = await signUp(t.app);
      for (let i = 0; i < 3; i++) assert.equal((await login(t, admin.email, 'wrong password')).statusCode, 401);
      for (const password of ['wrong password', 'correct horse battery']) {
        const refused = await login(t, admin.email, password, '10.9.9.9');
        assert.equal(refused.statusCode, 429, 'from another address too: the account is throttled');
        assert.equal(refused.json().code, 'rate_limited');
        const retryAfter = Number(refused.headers['retry-after']);
        assert.ok(retryAfter >= 1 && retryAfter <= 20 * 60, String(retryAfter));
      }
      // An unknown e-mail is throttled the same way: nothing tells it apart from a known one.
      for (let i = 0; i < 3; i++) await login(t, 'nobody@example.test', 'x');
      assert.equal((await login(t, 'nobody@example.test', 'x')).statusCode, 429);
      await letTimePass(t, 21 * MINUTE_MS);
      assert.equal((await login(t, admin.email, 'correct horse battery')).statusCode, 200);
    } finally {
      await t.close();
    }
  });

  test('failed sign-ins from one address, over many accounts, are throttled; other addresses are not', async () => {
    const t = await createTestApp({ limits: { signInFailuresPerAddress: 4 } });
    try {
      const admin = await signUp(t.app);
      for (let i = 0; i < 4; i++) await login(t, `guess-${i}@example.test`, 'x', '10.0.0.7');
      assert.equal((await login(t, 'guess-9@example.test', 'x', '10.0.0.7')).statusCode, 429);
      assert.equal((await login(t, admin.email, 'correct horse battery', '10.0.0.7')).statusCode, 429);
      assert.equal((await login(t, admin.email, 'correct horse battery', '10.0.0.8')).statusCode, 200);
    } finally {
      await t.close();
    }
  });

  test('successful sign-ins use up no failures: many people behind one office address all get in', async () => {
    const t = await createTestApp({ limits: { signInFailuresPerAddress: 2, signInFailuresPerAccount: 2 } });
    try {
      const admin = await signUp(t.app);
      const team = [admin, ...(await Promise.all([1, 2, 3].map(() => addMember(t.app, admin))))];
      for (let i = 0; i < 20; i++) {
        const who = team[i % team.length] as Member;
        const password = who === admin ? 'correct horse battery' : 'another good password';
        assert.equal((await login(t, who.email, password, '10.1.1.1')).statusCode, 200);
      }
    } finally {
      await t.close();
    }
  });

  test('successful sign-ins are limited too, per account and per address: each writes a session and an audit row', async () => {
    const t = await createTestApp({ limits: { signInsPerAccount: 5, signInsPerAddress: 6 } });
    const password = 'another good password';
    try {
      const admin = await signUp(t.app); // its first session
      const [mia, max] = [
        await addMember(t.app, admin, 'member', 'Mia'),
        await addMember(t.app, admin, 'member', 'Max'),
      ];
      const sessions = await countRows(t.app, 'sessions');
      for (let i = 0; i < 4; i++) {
        assert.equal((await login(t, admin.email, 'correct horse battery', `10.2.0.${i}`)).statusCode, 200);
      }
      const sixth = await login(t, admin.email, 'correct horse battery', '10.2.0.9');
      assert.equal(sixth.statusCode, 429, 'the account, from any address');
      assert.ok(Number(sixth.headers['retry-after']) > 0);
      assert.equal(await countRows(t.app, 'sessions'), sessions + 4, 'no session written past the limit');
      // 10.2.0.1 has had one (the admin's): four more people's, then it is refused for anyone.
      for (let i = 0; i < 3; i++) assert.equal((await login(t, mia.email, password, '10.2.0.1')).statusCode, 200);
      for (let i = 0; i < 2; i++) assert.equal((await login(t, max.email, password, '10.2.0.1')).statusCode, 200);
      assert.equal((await login(t, max.email, password, '10.2.0.1')).statusCode, 429, 'the address');
      assert.equal((await login(t, max.email, password, '10.3.0.1')).statusCode, 200, 'elsewhere');
      await letTimePass(t, 20 * MINUTE_MS);
      assert.equal((await login(t, admin.email, 'correct horse battery', '10.2.0.1')).statusCode, 200);
    } finally {
      await t.close();
    }
  });

  test('failed access-link exchanges are throttled per address', async () => {
    const t = await createTestApp({ limits: { accessLinkFailuresPerAddress: 3 } });
    try {
      const exchange = (address: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/auth/quick-access',
          remoteAddress: address,
          payload: { accessToken: 'svc_acc_guessed' },
        });
      for (let i = 0; i < 3; i++) assert.equal((await exchange('10.2.2.2')).statusCode, 401);
      assert.equal((await exchange('10.2.2.2')).statusCode, 429);
      assert.equal((await exchange('10.2.2.3')).statusCode, 401);
    } finally {
      await t.close();
    }
  });

  test('sign-ups are limited per address', async () => {
    const t = await createTestApp({ limits: { signUpsPerAddress: 2 } });
    try {
      const signup = (i: number) =>
        t.app.inject({
          method: 'POST',
          url: '/api/signup',
          remoteAddress: '10.3.3.3',
          payload: { workspaceName: 'W', name: 'N', email: `s${i}@example.test`, password: 'a long passphrase' },
        });
      assert.equal((await signup(1)).statusCode, 201);
      assert.equal((await signup(2)).statusCode, 201);
      const refused = await signup(3);
      assert.equal(refused.statusCode, 429);
      assert.equal(await countRows(t.app, 'workspaces'), 2);
    } finally {
      await t.close();
    }
  });
});

describe('password rules', () => {
  test('at least 10 characters and not a common password, at sign-up and when an admin adds a member', async () => {
    const t = await createTestApp();
    try {
      const admin = await signUp(t.app);
      const before = await countRows(t.app, 'users');
      for (const password of ['nine char', 'password123', 'QWERTYUIOP', '1234567890']) {
        const signup = await call(t.app, 'POST', '/api/signup', {
          body: { workspaceName: 'W', name: 'N', email: 'p@example.test', password },
        });
        assert.equal(signup.status, 400, password);
        assert.equal(signup.body.errors[0].path, '/password');
        const member = await call(t.app, 'POST', '/api/workspace/members', {
          token: admin.token,
          body: { name: 'M', email: 'm@example.test', role: 'member', password },
        });
        assert.equal(member.status, 400, password);
        assert.equal(member.body.errors[0].path, '/password');
      }
      assert.equal(await countRows(t.app, 'users'), before);
    } finally {
      await t.close();
    }
  });
});

describe('bounded writes per user', () => {
  test('replies and comments past their per-minute limit are 429 and write nothing', async () => {
    const t = await createTestApp({ limits: { repliesPerMinute: 3, commentsPerMinute: 2 } });
    try {
      const admin = await signUp(t.app);
      const member: Member = await addMember(t.app, admin);
      const project = await createProject(t.app, admin);
      const comment = await createComment(t.app, admin, project.key);
      const reply = (token: string) =>
        call(t.app, 'POST', `/api/comments/${comment.id}/replies`, { token, body: { body: 'again' } });
      for (let i = 0; i < 3; i++) assert.equal((await reply(member.token)).status, 201);
      const replies = await countRows(t.app, 'replies');
      const refused = await reply(member.token);
      assert.equal(refused.status, 429);
      assert.equal(await countRows(t.app, 'replies'), replies);
      assert.equal((await reply(admin.token)).status, 201, 'the limit is per user');
      await createComment(t.app, member, project.key);
      await createComment(t.app, member, project.key);
      const comments = await countRows(t.app, 'comments');
      const third = await call(t.app, 'POST', `/api/projects/${project.key}/comments`, {
        token: member.token,
        body: { body: 'x', pageUrl: 'https://a.test/' },
      });
      assert.equal(third.status, 429);
      assert.equal(await countRows(t.app, 'comments'), comments);
    } finally {
      await t.close();
    }
  });

  test('API keys: at most N live per user (409 past it), listed in pages', async () => {
    const t = await createTestApp({ limits: { apiKeysPerUser: 3 } });
    try {
      const admin = await signUp(t.app);
      const ids: string[] = [];
      for (let i = 0; i < 3; i++) {
        const created = await call(t.app, 'POST', '/api/me/api-keys', { token: admin.token, body: { name: `k${i}` } });
        assert.equal(created.status, 201);
        ids.push(created.body.id);
      }
      const fourth = await call(t.app, 'POST', '/api/me/api-keys', { token: admin.token, body: { name: 'k4' } });
      assert.equal(fourth.status, 409);
      assert.equal(await countRows(t.app, 'api_keys'), 3);
      const first = await call(t.app, 'GET', '/api/me/api-keys?limit=2', { token: admin.token });
      assert.deepEqual(
        first.body.items.map((k: { id: string }) => k.id),
        [ids[2], ids[1]],
      );
      const second = await call(t.app, 'GET', `/api/me/api-keys?limit=2&cursor=${first.body.nextCursor}`, {
        token: admin.token,
      });
      assert.deepEqual(
        second.body.items.map((k: { id: string }) => k.id),
        [ids[0]],
      );
      assert.equal(second.body.nextCursor, null);
      await call(t.app, 'DELETE', `/api/me/api-keys/${ids[0]}`, { token: admin.token });
      assert.equal(
        (await call(t.app, 'POST', '/api/me/api-keys', { token: admin.token, body: { name: 'k5' } })).status,
        201,
      );
    } finally {
      await t.close();
    }
  });
});

describe('the sliding window', () => {
  test('a burst at the end of one window still counts just after the boundary: no 2x at the edge', async () => {
    const t = await createTestApp();
    try {
      const rule = { name: 'test', limit: 3, windowMs: MINUTE_MS };
      const boundary = Math.ceil(Date.now() / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
      for (let i = 0; i < 3; i++) await consumeRateLimit(t.app.database.db, rule, 'u', boundary - 1_000);
      // A fixed window would start from zero here and let three more through.
      await assert.rejects(consumeRateLimit(t.app.database.db, rule, 'u', boundary + 1_000), { code: 'rate_limited' });
      // Once most of the previous window has slid out, there is room again.
      await consumeRateLimit(t.app.database.db, rule, 'v', boundary - 1_000);
      await consumeRateLimit(t.app.database.db, rule, 'u', boundary + 50_000);
      // Retry-After is when the next event fits: refused a second before it, accepted at it.
      const subject = 'w';
      for (let i = 0; i < 3; i++) await consumeRateLimit(t.app.database.db, rule, subject, boundary + 10_000);
      const refusal = await consumeRateLimit(t.app.database.db, rule, subject, boundary + 11_000).catch(
        (e: AppError) => e,
      );
      assert.ok(refusal instanceof AppError);
      const wait = Number(refusal.headers?.['retry-after']) * 1000;
      assert.ok(wait > 0 && wait <= 2 * MINUTE_MS, String(wait));
      await assert.rejects(refuseWhenExhausted(t.app.database.db, rule, subject, boundary + 11_000 + wait - 2_000), {
        code: 'rate_limited',
      });
      await refuseWhenExhausted(t.app.database.db, rule, subject, boundary + 11_000 + wait);
    } finally {
      await t.close();
    }
  });
});

describe('behind a reverse proxy (SVC_TRUST_PROXY)', () => {
  const failures = (t: TestApp, peer: string, forwardedFor?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      remoteAddress: peer,
      headers: forwardedFor ? { 'x-forwarded-for': forwardedFor } : {},
      // A new e-mail each time: only the per-address throttle counts.
      payload: { email: `nobody-${Math.random().toString(36).slice(2)}@example.test`, password: 'wrong password' },
    });

  test('from a trusted proxy, the forwarded address is throttled, not the proxy', async () => {
    const t = await createTestApp({ trustProxy: ['10.0.0.0/8'], limits: { signInFailuresPerAddress: 3 } });
    try {
      for (let i = 0; i < 3; i++) assert.equal((await failures(t, '10.0.0.2', '203.0.113.7')).statusCode, 401);
      assert.equal((await failures(t, '10.0.0.2', '203.0.113.7')).statusCode, 429, 'that client is throttled');
      assert.equal(
        (await failures(t, '10.0.0.2', '203.0.113.8')).statusCode,
        401,
        'another client behind the proxy is not',
      );
      // A client cannot pick its address by prepending to the header: the proxy's hop is the one believed.
      assert.equal((await failures(t, '10.0.0.2', '198.51.100.1, 203.0.113.7')).statusCode, 429);
    } finally {
      await t.close();
    }
  });

  test('by hops: the address one hop in is the client', async () => {
    const t = await createTestApp({ trustProxy: 1, limits: { signInFailuresPerAddress: 2 } });
    try {
      for (let i = 0; i < 2; i++) assert.equal((await failures(t, '192.0.2.1', '203.0.113.9')).statusCode, 401);
      assert.equal((await failures(t, '192.0.2.1', '203.0.113.9')).statusCode, 429);
      assert.equal((await failures(t, '192.0.2.1', '203.0.113.10')).statusCode, 401);
    } finally {
      await t.close();
    }
  });

  test('without it, X-Forwarded-For is ignored: the peer is the client', async () => {
    const t = await createTestApp({ limits: { signInFailuresPerAddress: 3 } });
    try {
      for (let i = 0; i < 3; i++) assert.equal((await failures(t, '10.0.0.2', `203.0.113.${i}`)).statusCode, 401);
      assert.equal(
        (await failures(t, '10.0.0.2', '203.0.113.99')).statusCode,
        429,
        'a new forwarded address changes nothing',
      );
    } finally {
      await t.close();
    }
  });
});

describe('heavy reads per user', () => {
  test('insights, text searches and exports past their limit are 429 for that user alone; pages and lists are not counted', async () => {
    const t = await createTestApp({ limits: { insightsPerMinute: 2, searchesPerMinute: 2, exportsPerHour: 2 } });
    try {
      const admin = await signUp(t.app);
      const other = await addMember(t.app, admin, 'admin', 'Otto Other');
      const get = async (who: Member, url: string) => {
        const answer = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${who.token}` } });
        return { status: answer.statusCode, headers: answer.headers };
      };
      for (const url of ['/api/workspace/insights?days=366', '/api/comments?q=price', '/api/workspace/export']) {
        assert.equal((await get(admin, url)).status, 200, url);
        assert.equal((await get(admin, url)).status, 200, url);
        const refused = await get(admin, url);
        assert.equal(refused.status, 429, url);
        assert.ok(Number(refused.headers['retry-after']) > 0);
        assert.equal((await get(other, url)).status, 200, `${url}: another member has their own allowance`);
      }
      for (let i = 0; i < 5; i++)
        assert.equal((await get(admin, '/api/comments')).status, 200, 'a list without a search');
    } finally {
      await t.close();
    }
  });
});
