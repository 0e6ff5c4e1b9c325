import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  addClient,
  addMember,
  call,
  changesHeard,
  createComment,
  createProject,
  createTestApp,
  createTestDatabase,
  dialect,
  type Member,
  signUp,
  type TestApp,
} from '../../../test/helpers.js';
import { callServer, killRemainingServers, startServers } from '../../../test/server-process.js';

type App = TestApp['app'];

const unread = async (app: App, user: Member) =>
  (await call(app, 'GET', '/api/me/notifications/unread-count', { token: user.token })).body.count as number;

const notificationsOf = async (app: App, user: Member, query = 'limit=100') =>
  (await call(app, 'GET', `/api/me/notifications?${query}`, { token: user.token })).body;

/** The truth, straight from the table, to compare the served count against. */
async function unreadRows(app: App, user: Member): Promise<number> {
  const row = await app.database.db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('recipient_id', '=', user.id)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

describe('notification events', () => {
  let t: TestApp;
  let admin: Member;
  let dev: Member;
  let client: Member;
  let project: { key: string };
  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app);
    dev = await addMember(t.app, admin, 'member', 'Dee Developer');
    client = await addClient(t.app, admin);
    project = await createProject(t.app, admin, { repoUrl: 'https://github.com/acme/site' });
  });
  after(() => t.close());

  test('CommentApplied goes to the author, with the commit SHA and link, and to nobody else', async () => {
    const comment = await createComment(t.app, client, project.key, 'Button is misaligned');
    const before = { admin: await unread(t.app, admin), dev: await unread(t.app, dev) };
    await call(t.app, 'POST', `/api/comments/${comment.id}/apply`, {
      token: dev.token,
      body: { commitSha: 'ABCDEF1' },
    });
    const list = await notificationsOf(t.app, client);
    const applied = list.items[0];
    assert.equal(applied.type, 'CommentApplied');
    assert.equal(applied.commitSha, 'abcdef1');
    assert.equal(applied.commitUrl, 'https://github.com/acme/site/commit/abcdef1');
    assert.equal(applied.excerpt, 'Button is misaligned');
    assert.deepEqual(applied.actor, { id: dev.id, name: 'Dee Developer' });
    assert.deepEqual(applied.comment, {
      id: comment.id,
      projectKey: project.key,
      pageUrl: 'https://app.example.test/pricing',
    });
    assert.equal(applied.read, false);
    assert.match(applied.id, /^ntf_/);
    assert.equal(await unread(t.app, admin), before.admin);
    assert.equal(await unread(t.app, dev), before.dev);
  });

  test('CommentReopened goes to whoever applied; ReplyAdded to the author; neither carries a commit', async () => {
    const comment = await createComment(t.app, client, project.key);
    await call(t.app, 'POST', `/api/comments/${comment.id}/apply`, {
      token: dev.token,
      body: { commitSha: 'abcdef1' },
    });
    await call(t.app, 'POST', `/api/comments/${comment.id}/reopen`, { token: admin.token });
    const reopened = (await notificationsOf(t.app, dev)).items[0];
    assert.equal(reopened.type, 'CommentReopened');
    assert.equal(reopened.comment.id, comment.id);
    assert.equal('commitSha' in reopened, false);

    await call(t.app, 'POST', `/api/comments/${comment.id}/replies`, {
      token: dev.token,
      body: { body: `Looking ${'again '.repeat(40)}` },
    });
    const reply = (await notificationsOf(t.app, client)).items[0];
    assert.equal(reply.type, 'ReplyAdded');
    assert.ok(reply.excerpt.length <= 140);
    assert.ok(reply.excerpt.startsWith('Looking again'));
  });

  test('nobody is notified of their own action', async () => {
    const comment = await createComment(t.app, dev, project.key);
    const before = await unread(t.app, dev);
    await call(t.app, 'POST', `/api/comments/${comment.id}/replies`, {
      token: dev.token,
      body: { body: 'note to self' },
    });
    await call(t.app, 'POST', `/api/comments/${comment.id}/apply`, {
      token: dev.token,
      body: { commitSha: 'abcdef1' },
    });
    await call(t.app, 'POST', `/api/comments/${comment.id}/reopen`, { token: dev.token });
    assert.equal(await unread(t.app, dev), before);
  });

  test('deleting a comment deletes all its notifications, and the counts follow at once', async () => {
    const comment = await createComment(t.app, client, project.key);
    await call(t.app, 'POST', `/api/comments/${comment.id}/apply`, {
      token: dev.token,
      body: { commitSha: 'abcdef1' },
    });
    await call(t.app, 'POST', `/api/comments/${comment.id}/reopen`, { token: admin.token });
    await call(t.app, 'POST', `/api/comments/${comment.id}/replies`, { token: admin.token, body: { body: 'hm' } });
    const before = { client: await unread(t.app, client), dev: await unread(t.app, dev) };
    assert.equal((await call(t.app, 'DELETE', `/api/comments/${comment.id}`, { token: client.token })).status, 204);
    assert.equal(await unread(t.app, client), before.client - 2);
    assert.equal(await unread(t.app, dev), before.dev - 1);
    const left = await t.app.database.db
      .selectFrom('notifications')
      .select('id')
      .where('comment_id', '=', comment.id)
      .execute();
    assert.deepEqual(left, []);
  });
});

describe('notification endpoints', () => {
  let t: TestApp;
  let admin: Member;
  let dev: Member;
  let author: Member;
  let stranger: Member;
  let project: { key: string };
  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app);
    dev = await addMember(t.app, admin);
    author = await addMember(t.app, admin, 'member', 'Ann Author');
    stranger = await signUp(t.app);
    project = await createProject(t.app, admin);
  });
  after(() => t.close());

  const raise = async (n: number) => {
    const comment = await createComment(t.app, author, project.key);
    for (let i = 0; i < n; i++) {
      await call(t.app, 'POST', `/api/comments/${comment.id}/replies`, {
        token: dev.token,
        body: { body: `reply ${i}` },
      });
    }
    return comment;
  };

  test('the list is newest first, pages without skipping or repeating, filters unread, and carries the unread count', async () => {
    await raise(7);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { items: { id: string }[]; nextCursor: string | null; unreadCount: number } = await notificationsOf(
        t.app,
        author,
        `limit=3${cursor ? `&cursor=${cursor}` : ''}`,
      );
      assert.equal(page.unreadCount, await unreadRows(t.app, author));
      seen.push(...page.items.map((n) => n.id));
      cursor = page.nextCursor;
    } while (cursor);
    assert.equal(seen.length, await unreadRows(t.app, author));
    assert.deepEqual(seen, [...seen].sort().reverse());
    await call(t.app, 'POST', `/api/me/notifications/${seen[0]}/read`, { token: author.token });
    const unreadOnly = await notificationsOf(t.app, author, 'unread=true&limit=100');
    assert.equal(
      unreadOnly.items.some((n: { id: string }) => n.id === seen[0]),
      false,
    );
    assert.equal(unreadOnly.items.length, seen.length - 1);
  });

  test('get and mark one read; the count drops by one and marking again changes nothing', async () => {
    await raise(2);
    const [first] = (await notificationsOf(t.app, author, 'unread=true')).items;
    const before = await unread(t.app, author);
    const got = await call(t.app, 'GET', `/api/me/notifications/${first.id}`, { token: author.token });
    assert.equal(got.status, 200);
    assert.equal(got.body.read, false);
    const read = await call(t.app, 'POST', `/api/me/notifications/${first.id}/read`, { token: author.token });
    assert.equal(read.body.read, true);
    assert.equal(await unread(t.app, author), before - 1);
    await call(t.app, 'POST', `/api/me/notifications/${first.id}/read`, { token: author.token });
    assert.equal(await unread(t.app, author), before - 1);
  });

  test("another user's notification is 404, in the same workspace or another, and nothing changes", async () => {
    await raise(1);
    const [mine] = (await notificationsOf(t.app, author, 'unread=true')).items;
    const before = await unread(t.app, author);
    for (const other of [dev, admin, stranger]) {
      assert.equal((await call(t.app, 'GET', `/api/me/notifications/${mine.id}`, { token: other.token })).status, 404);
      assert.equal(
        (await call(t.app, 'POST', `/api/me/notifications/${mine.id}/read`, { token: other.token })).status,
        404,
      );
      const readAll = await call(t.app, 'POST', '/api/me/notifications/read-all', {
        token: other.token,
        body: { upTo: mine.id },
      });
      assert.equal(readAll.status, 404);
      const listed = await notificationsOf(t.app, other);
      assert.equal(
        listed.items.some((n: { id: string }) => n.id === mine.id),
        false,
      );
    }
    assert.equal(await unread(t.app, author), before);
    assert.equal(
      (await call(t.app, 'GET', `/api/me/notifications/${mine.id}`, { token: author.token })).body.read,
      false,
    );
  });

  test('read-all with upTo marks that one and older; a notification raised meanwhile stays unread', async () => {
    await raise(3);
    const shown = (await notificationsOf(t.app, author, 'unread=true')).items;
    const comment = await raise(1);
    const answer = await call(t.app, 'POST', '/api/me/notifications/read-all', {
      token: author.token,
      body: { upTo: shown[0].id },
    });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.marked, shown.length);
    assert.equal(answer.body.unreadCount, 1);
    const left = (await notificationsOf(t.app, author, 'unread=true')).items;
    assert.equal(left.length, 1);
    assert.equal(left[0].comment.id, comment.id);

    const all = await call(t.app, 'POST', '/api/me/notifications/read-all', { token: author.token });
    assert.deepEqual(all.body, { marked: 1, unreadCount: 0 });
    assert.equal(await unread(t.app, author), 0);
  });

  test("read-all without upTo marks only the caller's notifications: another user's count and rows are untouched", async () => {
    await raise(2);
    // Someone else with unread notifications: in the workspace, and in another one.
    const other = await addMember(t.app, admin, 'member', 'Otto Other');
    const theirs = await createComment(t.app, other, project.key);
    for (let i = 0; i < 3; i++) {
      await call(t.app, 'POST', `/api/comments/${theirs.id}/replies`, { token: dev.token, body: { body: `r${i}` } });
    }
    const strangerDev = await addMember(t.app, stranger);
    const strangerProject = await createProject(t.app, stranger);
    const far = await createComment(t.app, stranger, strangerProject.key);
    await call(t.app, 'POST', `/api/comments/${far.id}/replies`, { token: strangerDev.token, body: { body: 'x' } });
    const before = { other: await unreadRows(t.app, other), stranger: await unreadRows(t.app, stranger) };
    assert.deepEqual(before, { other: 3, stranger: 1 });
    assert.equal(await unread(t.app, other), 3, 'their count is cached before');

    const all = await call(t.app, 'POST', '/api/me/notifications/read-all', { token: author.token, body: {} });
    assert.equal(all.body.unreadCount, 0);
    assert.deepEqual({ other: await unreadRows(t.app, other), stranger: await unreadRows(t.app, stranger) }, before);
    assert.equal(await unread(t.app, other), 3);
    assert.equal(await unread(t.app, stranger), 1);
  });

  test('unread-count answers a strong ETag with private, no-cache; a matching If-None-Match is 304 with no body', async () => {
    await call(t.app, 'POST', '/api/me/notifications/read-all', { token: author.token });
    const first = await t.app.inject({
      method: 'GET',
      url: '/api/me/notifications/unread-count',
      headers: { authorization: `Bearer ${author.token}` },
    });
    assert.equal(first.statusCode, 200);
    assert.deepEqual(first.json(), { count: 0 });
    const etag = first.headers.etag as string;
    assert.match(etag, /^"[^"]+"$/, 'strong, not W/');
    assert.equal(first.headers['cache-control'], 'private, no-cache');
    assert.equal(first.headers['x-poll-interval'], '1', 'the pace the server asks for: its floor while calm');

    const same = await t.app.inject({
      method: 'GET',
      url: '/api/me/notifications/unread-count',
      headers: { authorization: `Bearer ${author.token}`, 'if-none-match': etag },
    });
    assert.equal(same.statusCode, 304);
    assert.equal(same.body, '');
    assert.equal(same.headers.etag, etag);
    assert.equal(same.headers['x-poll-interval'], '1');

    await raise(1);
    const changed = await t.app.inject({
      method: 'GET',
      url: '/api/me/notifications/unread-count',
      headers: { authorization: `Bearer ${author.token}`, 'if-none-match': etag },
    });
    assert.equal(changed.statusCode, 200);
    assert.deepEqual(changed.json(), { count: 1 });
    assert.notEqual(changed.headers.etag, etag);
  });

  test('a cached session or key is refused at once after logout or revocation', async () => {
    const key = await call(t.app, 'POST', '/api/me/api-keys', { token: author.token, body: { name: 'poller' } });
    const session = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: author.email, password: 'another good password' },
    });
    for (const token of [key.body.key, session.body.token]) {
      assert.equal((await call(t.app, 'GET', '/api/me/notifications/unread-count', { token })).status, 200);
    }
    await call(t.app, 'DELETE', `/api/me/api-keys/${key.body.id}`, { token: author.token });
    await call(t.app, 'POST', '/api/auth/logout', { token: session.body.token });
    for (const token of [key.body.key, session.body.token]) {
      assert.equal((await call(t.app, 'GET', '/api/me/notifications/unread-count', { token })).status, 401);
    }
  });

  test('anonymous is 401', async () => {
    assert.equal((await call(t.app, 'GET', '/api/me/notifications/unread-count')).status, 401);
    assert.equal((await call(t.app, 'GET', '/api/me/notifications')).status, 401);
  });

  test('the count never drifts: after concurrent events, mark-read and read-all it equals the unread rows', async () => {
    const repliers = [dev, admin, await addMember(t.app, admin), await addMember(t.app, admin)];
    const comments = await Promise.all([1, 2, 3].map(() => createComment(t.app, author, project.key)));
    for (let round = 0; round < 4; round++) {
      const shown = (await notificationsOf(t.app, author, 'unread=true')).items;
      const work: Promise<unknown>[] = [];
      for (const [i, replier] of repliers.entries()) {
        for (const comment of comments) {
          work.push(
            call(t.app, 'POST', `/api/comments/${comment.id}/replies`, {
              token: replier.token,
              body: { body: `r${round}.${i}` },
            }),
          );
        }
      }
      work.push(
        call(t.app, 'POST', '/api/me/notifications/read-all', {
          token: author.token,
          body: shown[0] ? { upTo: shown[0].id } : {},
        }),
      );
      for (const n of shown.slice(0, 3)) {
        work.push(call(t.app, 'POST', `/api/me/notifications/${n.id}/read`, { token: author.token }));
      }
      // Polls in the middle of it all fill the cache with whatever they read.
      for (let p = 0; p < 5; p++) work.push(unread(t.app, author));
      if (round === 2) work.push(call(t.app, 'POST', '/api/me/notifications/read-all', { token: author.token }));
      await Promise.all(work);
      assert.equal(await unread(t.app, author), await unreadRows(t.app, author), `round ${round}`);
    }
    assert.ok((await unreadRows(t.app, author)) > 0);
  });
});

describe('several server processes on one PostgreSQL database', { skip: dialect !== 'postgres' }, () => {
  test('a notification raised through one process is counted by the other, and a revocation through one is honoured by both', async () => {
    const { database, drop } = await createTestDatabase();
    if (database.dialect !== 'postgres') return;
    const servers = await startServers(2, { DATABASE_URL: database.url, SVC_DEMO: 'false' });
    try {
      const [a, b] = servers as [(typeof servers)[0], (typeof servers)[0]];
      const http = (base: string, method: string, path: string, token?: string, body?: unknown) =>
        callServer(base, method, path, { token, body });
      /** Polls until the answer is as expected: a change reaches the other process within milliseconds. */
      const eventually = async (probe: () => Promise<unknown>, expected: unknown) => {
        const deadline = Date.now() + 2000;
        let last: unknown;
        while (Date.now() < deadline) {
          last = await probe();
          if (JSON.stringify(last) === JSON.stringify(expected)) return;
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        assert.deepEqual(last, expected);
      };
      const signup = await http(a.baseUrl, 'POST', '/api/signup', undefined, {
        workspaceName: 'W',
        name: 'Author',
        email: 'author@example.test',
        password: 'long enough pass',
      });
      const authorToken = signup.body.token as string;
      await http(a.baseUrl, 'POST', '/api/workspace/members', authorToken, {
        name: 'Dev',
        email: 'dev@example.test',
        role: 'member',
        password: 'long enough pass',
      });
      const devToken = (
        await http(b.baseUrl, 'POST', '/api/auth/login', undefined, {
          email: 'dev@example.test',
          password: 'long enough pass',
        })
      ).body.token;
      await http(a.baseUrl, 'POST', '/api/projects', authorToken, { key: 'site', name: 'Site' });
      const comment = (
        await http(a.baseUrl, 'POST', '/api/projects/site/comments', authorToken, {
          body: 'x',
          pageUrl: 'https://a.test/',
        })
      ).body;

      const countOn = (base: string) => async () =>
        (await http(base, 'GET', '/api/me/notifications/unread-count', authorToken)).body;
      // Both processes have the author's session and count cached.
      assert.deepEqual(await countOn(a.baseUrl)(), { count: 0 });
      assert.deepEqual(await countOn(b.baseUrl)(), { count: 0 });

      await http(a.baseUrl, 'POST', `/api/comments/${comment.id}/replies`, devToken, { body: 'through A' });
      await eventually(countOn(b.baseUrl), { count: 1 });
      await http(b.baseUrl, 'POST', `/api/comments/${comment.id}/apply`, devToken, { commitSha: 'abcdef1' });
      await eventually(countOn(a.baseUrl), { count: 2 });
      await http(b.baseUrl, 'POST', '/api/me/notifications/read-all', authorToken, {});
      await eventually(countOn(a.baseUrl), { count: 0 });

      const key = (await http(a.baseUrl, 'POST', '/api/me/api-keys', authorToken, { name: 'k' })).body;
      const meOn = (base: string, token: string) => async () =>
        (await http(base, 'GET', '/api/me/notifications/unread-count', token)).status;
      assert.equal(await meOn(a.baseUrl, key.key)(), 200);
      assert.equal(await meOn(b.baseUrl, key.key)(), 200);
      assert.equal(await meOn(b.baseUrl, devToken)(), 200);
      await http(a.baseUrl, 'DELETE', `/api/me/api-keys/${key.id}`, authorToken);
      await http(a.baseUrl, 'POST', '/api/auth/logout', devToken);
      await eventually(meOn(b.baseUrl, key.key), 401);
      await eventually(meOn(b.baseUrl, devToken), 401);
      assert.equal(await meOn(a.baseUrl, key.key)(), 401);
    } finally {
      for (const server of servers) await server.stop();
      await drop();
    }
  });
});

describe('unread-count answered from memory, before routing', () => {
  const url = '/api/me/notifications/unread-count';
  let t: TestApp;
  let base: string;
  let author: Member;
  let dev: Member;
  let commentId: string;
  before(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`;
    author = await signUp(t.app);
    dev = await addMember(t.app, author);
    const project = await createProject(t.app, author, { allowedOrigins: ['https://widget-host.test'] });
    commentId = (await createComment(t.app, author, project.key)).id;
    await call(t.app, 'POST', `/api/comments/${commentId}/replies`, { token: dev.token, body: { body: 'one' } });
    await changesHeard(t.app);
  });
  after(() => t.close());

  type Seen = { status: number; headers: [string, string][]; body: string };
  /** Headers that say something about the answer; the connection's own are left out. */
  const comparable = (headers: Iterable<[string, unknown]>) =>
    [...headers]
      .filter(([name]) => !['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name.toLowerCase()))
      .map(([name, value]): [string, string] => [name.toLowerCase(), String(value)])
      .sort(([a], [b]) => a.localeCompare(b));
  const overHttp = async (headers: Record<string, string>, path = url): Promise<Seen> => {
    const answer = await fetch(base + path, { headers });
    return { status: answer.status, headers: comparable(answer.headers), body: await answer.text() };
  };
  const throughRoute = async (headers: Record<string, string>): Promise<Seen> => {
    const answer = await t.app.inject({ method: 'GET', url, headers });
    return { status: answer.statusCode, headers: comparable(Object.entries(answer.headers)), body: answer.body };
  };
  /** How many polls the fast path answered, from the metrics it keeps. */
  const fromMemory = async () => {
    const metrics = await (await fetch(`${base}/metrics`)).text();
    const line =
      /svc_http_requests_answered_from_memory_total\{method="GET",route="\/api\/me\/notifications\/unread-count"\} (\d+)/;
    return Number(line.exec(metrics)?.[1] ?? 0);
  };
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

  test('gives byte for byte what the route gives: 200, 304, stale ETag, allowed and other origins', async () => {
    const first = await overHttp(bearer(author.token));
    assert.equal(first.status, 200);
    assert.equal(first.body, '{"count":1}');
    const cases = [
      bearer(author.token),
      { ...bearer(author.token), 'if-none-match': '"1"' },
      { ...bearer(author.token), 'if-none-match': '"0", W/"1"' },
      { ...bearer(author.token), 'if-none-match': '"7"' },
      { ...bearer(author.token), origin: 'https://widget-host.test' },
      { ...bearer(author.token), origin: 'https://elsewhere.test', 'if-none-match': '"1"' },
    ];
    const before = await fromMemory();
    for (const headers of cases) {
      const expected = await throughRoute(headers);
      assert.deepEqual(await overHttp(headers), expected, JSON.stringify(headers));
    }
    assert.equal(await fromMemory(), before + cases.length, 'every case was answered from memory');
    const withOrigin = await overHttp({ ...bearer(author.token), origin: 'https://widget-host.test' });
    assert.ok(
      withOrigin.headers.some(
        ([name, value]) => name === 'access-control-allow-origin' && value === 'https://widget-host.test',
      ),
    );
    assert.ok(
      withOrigin.headers.some(
        ([name, value]) => name === 'access-control-expose-headers' && /X-Poll-Interval/.test(value),
      ),
      'a widget on another origin may read the pace',
    );
    assert.equal((await overHttp({ ...bearer(author.token), 'if-none-match': '"1"' })).status, 304);
  });

  test('If-None-Match lists and weak validators get 304 on the route and from memory alike (RFC 9110 weak comparison)', async () => {
    const current = JSON.parse((await overHttp(bearer(author.token))).body).count as number;
    for (const header of [`"a", "${current}"`, `W/"${current}"`, `"x",W/"${current}" , "y"`, '*']) {
      const headers = { ...bearer(author.token), 'if-none-match': header };
      const before = await fromMemory();
      assert.equal((await overHttp(headers)).status, 304, `from memory: ${header}`);
      assert.equal(await fromMemory(), before + 1, `${header} was answered from memory`);
      assert.equal((await throughRoute(headers)).status, 304, `the route: ${header}`);
    }
    for (const header of [`"a", "${current + 1}"`, `W/"${current}0"`]) {
      const headers = { ...bearer(author.token), 'if-none-match': header };
      assert.equal((await overHttp(headers)).status, 200, header);
      assert.equal((await throughRoute(headers)).status, 200, header);
    }
  });

  test('leaves to the route what memory cannot answer, and stays exact after changes and logout', async () => {
    const session = await call(t.app, 'POST', '/api/auth/login', {
      body: { email: author.email, password: 'correct horse battery' },
    });
    const fresh = bearer(session.body.token);
    await changesHeard(t.app);
    let counted = await fromMemory();
    /** `answeredFromMemory` null: either (on PostgreSQL a process hears its own changes a moment later too). */
    const expectPoll = async (
      headers: Record<string, string>,
      status: number,
      body: string | null,
      answeredFromMemory: boolean | null,
      path = url,
    ) => {
      const seen = await overHttp(headers, path);
      assert.equal(seen.status, status);
      if (body !== null) assert.equal(seen.body, body);
      if (answeredFromMemory === null) counted = await fromMemory();
      else if (answeredFromMemory) counted++;
      assert.equal(await fromMemory(), counted, `${path} ${JSON.stringify(headers)}`);
    };

    await expectPoll(fresh, 200, '{"count":1}', false); // a session not seen yet: loaded by the route
    await expectPoll(fresh, 200, '{"count":1}', true);
    await expectPoll(fresh, 200, '{"count":1}', false, `${url}?t=1`);
    await expectPoll(bearer('svc_sess_unknown'), 401, null, false);
    await expectPoll({}, 401, null, false);

    await call(t.app, 'POST', `/api/comments/${commentId}/replies`, { token: dev.token, body: { body: 'two' } });
    await expectPoll(fresh, 200, '{"count":2}', null);
    await call(t.app, 'POST', '/api/me/notifications/read-all', { token: author.token, body: {} });
    await expectPoll(fresh, 200, '{"count":0}', null);

    await call(t.app, 'POST', '/api/auth/logout', { token: session.body.token });
    await expectPoll(fresh, 401, null, false);
  });
});

after(killRemainingServers);
