import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  addClient,
  addMember,
  call,
  createTestApp,
  createTestDatabase,
  dialect,
  type Member,
  manualClock,
  signUp,
  type TestApp,
} from '../../../test/helpers.js';
import { callServer, killRemainingServers, startServers } from '../../../test/server-process.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const signIn = async (t: TestApp, email: string, password = 'another good password') =>
  (await call(t.app, 'POST', '/api/auth/login', { body: { email, password } })).body.token as string;

describe('sessions end by themselves', () => {
  test('a session unused for the idle timeout is refused, also where the unread-count is answered from memory', async () => {
    const clock = manualClock();
    const t = await createTestApp({ sessions: { idleMs: 10 * 60_000 } }, { clock });
    try {
      const admin = await signUp(t.app);
      const poll = () => call(t.app, 'GET', '/api/me/notifications/unread-count', { token: admin.token });
      // In use more often than the idle timeout: it stays.
      for (let i = 0; i < 6; i++) {
        assert.equal((await poll()).status, 200);
        clock.advance(3 * 60_000);
      }
      clock.advance(12 * 60_000);
      const refused = await poll();
      assert.equal(refused.status, 401);
      assert.equal(refused.body.code, 'unauthenticated');
      assert.equal((await call(t.app, 'GET', '/api/me', { token: admin.token })).status, 401);
    } finally {
      await t.close();
    }
  });

  test('a session in constant use still ends at its absolute lifetime', async () => {
    const clock = manualClock();
    const t = await createTestApp({ sessions: { lifetimeMs: 60 * 60_000 } }, { clock });
    try {
      const admin = await signUp(t.app);
      let status = 200;
      let minutes = 0;
      while (status === 200 && minutes < 120) {
        status = (await call(t.app, 'GET', '/api/me/notifications/unread-count', { token: admin.token })).status;
        clock.advance(5 * 60_000);
        minutes += 5;
      }
      assert.equal(status, 401);
      assert.ok(minutes > 60 && minutes <= 70, `ended after ${minutes} minutes of use`);
      assert.equal((await call(t.app, 'GET', '/api/me', { token: admin.token })).status, 401);
      assert.equal(
        (
          await call(t.app, 'POST', '/api/auth/login', {
            body: { email: admin.email, password: 'correct horse battery' },
          })
        ).status,
        200,
      );
    } finally {
      await t.close();
    }
  });
});

describe('sessions can be listed and ended', () => {
  let t: TestApp;
  let admin: Member;
  let member: Member;
  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app);
    member = await addMember(t.app, admin);
  });
  after(() => t.close());

  test('the list shows the sessions in force, newest first, the current one marked, with the browser', async () => {
    const other = (
      await call(t.app, 'POST', '/api/auth/login', {
        body: { email: member.email, password: 'another good password' },
        headers: { 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0' },
      })
    ).body.token;
    const listed = await call(t.app, 'GET', '/api/me/sessions', { token: member.token });
    assert.equal(listed.status, 200);
    assert.equal(listed.body.items.length, 2);
    const [newest, oldest] = listed.body.items;
    assert.equal(newest.current, false);
    assert.equal(newest.userAgent, 'Mozilla/5.0 (X11; Linux x86_64) Firefox/130.0');
    assert.equal(oldest.current, true);
    assert.ok(Date.parse(newest.expiresAt) > Date.now());
    const paged = await call(t.app, 'GET', '/api/me/sessions?limit=1', { token: member.token });
    assert.equal(paged.body.items.length, 1);
    const rest = await call(t.app, 'GET', `/api/me/sessions?limit=1&cursor=${paged.body.nextCursor}`, {
      token: member.token,
    });
    assert.equal(rest.body.items[0].id, oldest.id);
    assert.equal(rest.body.nextCursor, null);
    assert.equal((await call(t.app, 'DELETE', `/api/me/sessions/${newest.id}`, { token: member.token })).status, 204);
    assert.equal((await call(t.app, 'GET', '/api/me', { token: other })).status, 401);
    assert.equal((await call(t.app, 'GET', '/api/me', { token: member.token })).status, 200);
  });

  test("another user's session, in the workspace or outside it, is 404 and stays", async () => {
    const stranger = await signUp(t.app);
    const listed = await call(t.app, 'GET', '/api/me/sessions', { token: admin.token });
    const id = listed.body.items[0].id;
    for (const caller of [member, stranger]) {
      assert.equal((await call(t.app, 'DELETE', `/api/me/sessions/${id}`, { token: caller.token })).status, 404);
    }
    assert.equal((await call(t.app, 'GET', '/api/me', { token: admin.token })).status, 200);
  });

  test('sign out everywhere else ends every session but the current one', async () => {
    const second = await signIn(t, member.email);
    const third = await signIn(t, member.email);
    const ended = await call(t.app, 'POST', '/api/me/sessions/end-others', { token: member.token });
    assert.equal(ended.status, 200);
    assert.ok(ended.body.ended >= 2);
    for (const token of [second, third]) assert.equal((await call(t.app, 'GET', '/api/me', { token })).status, 401);
    assert.equal((await call(t.app, 'GET', '/api/me', { token: member.token })).status, 200);
    const listed = await call(t.app, 'GET', '/api/me/sessions', { token: member.token });
    assert.deepEqual(
      listed.body.items.map((s: { current: boolean }) => s.current),
      [true],
    );
  });

  test('changing the password needs the current one, refuses a common one, and ends every other session', async () => {
    const user = await addMember(t.app, admin);
    const other = await signIn(t, user.email);
    const change = (body: unknown) => call(t.app, 'POST', '/api/me/password', { token: user.token, body });
    const wrong = await change({ currentPassword: 'not it at all', newPassword: 'a brand new passphrase' });
    assert.equal(wrong.status, 400);
    assert.equal(wrong.body.errors[0].path, '/currentPassword');
    const common = await change({ currentPassword: 'another good password', newPassword: 'password123' });
    assert.equal(common.status, 400);
    assert.equal(common.body.errors[0].path, '/newPassword');
    const short = await change({ currentPassword: 'another good password', newPassword: 'short' });
    assert.equal(short.status, 400);
    assert.equal((await call(t.app, 'GET', '/api/me', { token: other })).status, 200, 'refusals ended nothing');
    const ok = await change({ currentPassword: 'another good password', newPassword: 'a brand new passphrase' });
    assert.equal(ok.status, 200);
    assert.equal(ok.body.ended, 1);
    assert.equal((await call(t.app, 'GET', '/api/me', { token: other })).status, 401);
    assert.equal((await call(t.app, 'GET', '/api/me', { token: user.token })).status, 200);
    const login = (password: string) =>
      call(t.app, 'POST', '/api/auth/login', { body: { email: user.email, password } });
    assert.equal((await login('another good password')).status, 401);
    assert.equal((await login('a brand new passphrase')).status, 200);
  });

  test('a quick-access client has no password to change (403), but may list and end its sessions', async () => {
    const client = await addClient(t.app, admin);
    const change = await call(t.app, 'POST', '/api/me/password', {
      token: client.token,
      body: { currentPassword: 'x', newPassword: 'a brand new passphrase' },
    });
    assert.equal(change.status, 403);
    assert.equal((await call(t.app, 'GET', '/api/me/sessions', { token: client.token })).body.items.length, 1);
  });
});

describe('ended sessions in several processes', { skip: dialect !== 'postgres' }, () => {
  test('sessions ended through one process are refused at once by the other, which had them cached', async () => {
    const { database, drop } = await createTestDatabase();
    if (database.dialect !== 'postgres') return;
    const servers = await startServers(2, { DATABASE_URL: database.url, SVC_DEMO: 'false' });
    try {
      const [a, b] = servers.map((s) => s.baseUrl) as [string, string];
      const email = 'two@example.test';
      const signup = await callServer(a, 'POST', '/api/signup', {
        body: { workspaceName: 'W', name: 'A', email, password: 'long enough pass' },
      });
      const current = signup.body.token as string;
      const login = async () =>
        (await callServer(b, 'POST', '/api/auth/login', { body: { email, password: 'long enough pass' } })).body
          .token as string;
      const others = [await login(), await login()];
      for (const token of others) {
        assert.equal((await callServer(b, 'GET', '/api/me/notifications/unread-count', { token })).status, 200);
      }
      await callServer(a, 'POST', '/api/me/sessions/end-others', { token: current });
      // Another process hears of it through the change feed: on a loaded machine that may take a while.
      const deadline = Date.now() + 20_000;
      let statuses: number[] = [];
      while (Date.now() < deadline) {
        statuses = await Promise.all(
          others.map(
            async (token) => (await callServer(b, 'GET', '/api/me/notifications/unread-count', { token })).status,
          ),
        );
        if (statuses.every((s) => s === 401)) break;
        await sleep(10);
      }
      assert.deepEqual(statuses, [401, 401]);
      assert.equal((await callServer(b, 'GET', '/api/me', { token: current })).status, 200);
    } finally {
      for (const server of servers) await server.stop();
      await drop();
    }
  });
});

after(killRemainingServers);
