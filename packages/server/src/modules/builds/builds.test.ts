import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  addClient,
  addMember,
  amid,
  call,
  createComment,
  createProject,
  createTestApp,
  createTestDatabase,
  dialect,
  type Member,
  manualClock,
  RACE_POINTS,
  signUp,
  type TestApp,
} from '../../../test/helpers.js';
import { callServer, killRemainingServers, startServers } from '../../../test/server-process.js';

const FULL = 'a1b2c3d4e5f60718293a4b5c6d7e8f9012345678';
const OTHER = 'ffffeeee00001111222233334444555566667777';

describe('build reports', () => {
  let t: TestApp;
  let admin: Member;
  let dev: Member;
  let project: { key: string };
  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app);
    dev = await addMember(t.app, admin);
    project = await createProject(t.app, admin);
  });
  after(() => t.close());

  const appliedWith = async (commitSha: string, key = project.key) => {
    const comment = await createComment(t.app, admin, key);
    await call(t.app, 'POST', `/api/comments/${comment.id}/apply`, { token: dev.token, body: { commitSha } });
    return comment.id;
  };
  const report = (body: unknown, user: Member = dev, key = project.key) =>
    call(t.app, 'POST', `/api/projects/${key}/builds`, { token: user.token, body });
  const comment = async (id: string) => (await call(t.app, 'GET', `/api/comments/${id}`, { token: admin.token })).body;
  const buildCount = async () =>
    Number(
      (
        await t.app.database.db
          .selectFrom('builds')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  test('a reported sha is trimmed and lowercased; the comment with that exact commit goes Live', async () => {
    const id = await appliedWith(FULL);
    const answer = await report({ sha: `  ${FULL.toUpperCase()} `, containsCommitShas: [] });
    assert.equal(answer.status, 201);
    assert.deepEqual(answer.body, { sha: FULL, firstSeen: true, deployedCommentIds: [id] });
    const live = await comment(id);
    assert.equal(live.deployedBuildSha, FULL);
    assert.ok(live.deployedAt);
    assert.equal(live.status, 'applied');
  });

  test('prefix matching both ways: 7 characters stored and 40 reported, and 40 stored and 7 reported', async () => {
    const shortStored = await appliedWith('1234567');
    const longStored = await appliedWith('89abcdef0123456789abcdef0123456789abcdef');
    const answer = await report({
      sha: OTHER,
      containsCommitShas: ['1234567890abcdef1234567890abcdef12345678', '89abcdef'],
    });
    assert.deepEqual(answer.body.deployedCommentIds, [shortStored, longStored].sort());
    assert.equal((await comment(shortStored)).deployedBuildSha, OTHER);
  });

  test('the deployed sha itself matches by prefix, and an omitted list matches only it', async () => {
    const abbreviated = await appliedWith('c0ffee1');
    const unrelated = await appliedWith('d00d1234');
    const answer = await report({ sha: 'c0ffee1234567890' });
    assert.deepEqual(answer.body.deployedCommentIds, [abbreviated]);
    assert.equal((await comment(unrelated)).deployedAt, null);
  });

  test('only applied comments of this project with a commit and no deploy yet are stamped', async () => {
    const sha = 'beefbeef11';
    const open = await createComment(t.app, admin, project.key);
    const archived = await appliedWith(sha);
    await call(t.app, 'POST', `/api/comments/${archived}/archive`, { token: dev.token });
    const otherProject = await createProject(t.app, admin);
    const elsewhere = await appliedWith(sha, otherProject.key);
    const stranger = await signUp(t.app);
    const theirProject = await createProject(t.app, stranger);
    const theirs = await createComment(t.app, stranger, theirProject.key);
    await call(t.app, 'POST', `/api/comments/${theirs.id}/apply`, { token: stranger.token, body: { commitSha: sha } });
    const answer = await report({ sha: `${sha}00`, containsCommitShas: [sha] });
    assert.deepEqual(answer.body.deployedCommentIds, []);
    for (const id of [open.id, archived, elsewhere]) assert.equal((await comment(id)).deployedAt, null);
  });

  test('a repeat of a sha is a 200 no-op: firstSeen false, nothing deployed, no second build', async () => {
    await report({ sha: '5eed5eed00' });
    const builds = await buildCount();
    const late = await appliedWith('5eed5eed00');
    const again = await report({ sha: '5EED5EED00', containsCommitShas: ['5eed5eed00'] });
    assert.equal(again.status, 200);
    assert.deepEqual(again.body, { sha: '5eed5eed00', firstSeen: false, deployedCommentIds: [] });
    assert.equal(await buildCount(), builds);
    assert.equal((await comment(late)).deployedAt, null);
  });

  test('deployedAt is written once: a later build carrying the same commit never moves it', async () => {
    const id = await appliedWith('0ddba11');
    await report({ sha: '0ddba11' });
    const first = await comment(id);
    const later = await report({ sha: OTHER.replace('f', '0'), containsCommitShas: ['0ddba11'] });
    assert.deepEqual(later.body.deployedCommentIds, []);
    const after = await comment(id);
    assert.equal(after.deployedAt, first.deployedAt);
    assert.equal(after.deployedBuildSha, '0ddba11');
  });

  test('a new apply starts a new cycle: the new commit is deployed by the next build that carries it', async () => {
    const id = await appliedWith('aaaa1111');
    await report({ sha: 'aaaa1111' });
    await call(t.app, 'POST', `/api/comments/${id}/apply`, { token: dev.token, body: { commitSha: 'bbbb2222' } });
    assert.equal((await comment(id)).deployedAt, null);
    const next = await report({ sha: 'cccc3333', containsCommitShas: ['bbbb2222', 'aaaa1111'] });
    assert.deepEqual(next.body.deployedCommentIds, [id]);
    assert.equal((await comment(id)).deployedBuildSha, 'cccc3333');
  });

  test('50 concurrent identical reports: exactly one firstSeen, each comment deployed once', async () => {
    const ids = [await appliedWith('abcabc1'), await appliedWith('defdef2')];
    const answers = await Promise.all(
      Array.from({ length: 50 }, () => report({ sha: '9a9a9a9a9', containsCommitShas: ['abcabc1', 'defdef2'] })),
    );
    assert.equal(answers.filter((a) => a.body.firstSeen).length, 1);
    assert.equal(answers.filter((a) => a.status === 201).length, 1);
    assert.deepEqual(answers.find((a) => a.body.firstSeen)?.body.deployedCommentIds, ids.sort());
    const rows = await t.app.database.db
      .selectFrom('build_deployments')
      .select('comment_id')
      .where('comment_id', 'in', ids)
      .execute();
    assert.equal(rows.length, 2);
  });

  test('each malformed report is a 400 naming the failing path, and nothing is written', async () => {
    const id = await appliedWith('feedfeed');
    const builds = await buildCount();
    const cases: [unknown, string][] = [
      [{ containsCommitShas: [] }, '/sha'],
      [{ sha: 'xyz' }, '/sha'],
      [
        { sha: 'feedfeed', containsCommitShas: ['feedfeed', 'abc1234', 'abcdef0', 'not-a-sha'] },
        '/containsCommitShas/3',
      ],
      [{ sha: 'feedfeed', containsCommitShas: ['feedfeed', 42] }, '/containsCommitShas/1'],
      [{ sha: 'feedfeed', containsCommitShas: ['abc12'] }, '/containsCommitShas/0'],
      [{ sha: 'feedfeed', containsCommitShas: ['a'.repeat(41)] }, '/containsCommitShas/0'],
      [{ sha: 'feedfeed', containsCommitShas: Array.from({ length: 201 }, () => 'feedfeed') }, '/containsCommitShas'],
      [{ sha: 'feedfeed', containsCommitShas: 'feedfeed' }, '/containsCommitShas'],
    ];
    for (const [body, path] of cases) {
      const answer = await report(body);
      assert.equal(answer.status, 400, JSON.stringify(body).slice(0, 60));
      assert.equal(answer.body.code, 'validation_failed');
      assert.equal(answer.body.errors[0].path, path, JSON.stringify(body).slice(0, 60));
    }
    assert.equal(await buildCount(), builds);
    assert.equal((await comment(id)).deployedAt, null);
    const exactly200 = await report({
      sha: 'feedfeed',
      containsCommitShas: Array.from({ length: 200 }, () => 'feedfeed'),
    });
    assert.equal(exactly200.status, 201);
  });

  test('quick-access accounts 403, another workspace 404, anonymous 401', async () => {
    const client = await addClient(t.app, admin);
    assert.equal((await report({ sha: 'abcdef1' }, client)).status, 403);
    const stranger = await signUp(t.app);
    assert.equal((await report({ sha: 'abcdef1' }, stranger)).status, 404);
    const anonymous = await call(t.app, 'POST', `/api/projects/${project.key}/builds`, { body: { sha: 'abcdef1' } });
    assert.equal(anonymous.status, 401);
  });

  test('pending-deploy lists applied, undeployed comments with a commit, oldest first, every one once', async () => {
    const fresh = await createProject(t.app, admin);
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push(await appliedWith(`77770${i}aa`, fresh.key));
    await createComment(t.app, admin, fresh.key);
    const noCommit = await createComment(t.app, admin, fresh.key);
    await call(t.app, 'POST', `/api/comments/${noCommit.id}/apply`, { token: dev.token, body: {} });
    await report({ sha: '777700aa' }, dev, fresh.key);
    const seen: { id: string; commitSha: string }[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { items: { id: string; commitSha: string }[]; nextCursor: string | null } } = await call(
        t.app,
        'GET',
        `/api/projects/${fresh.key}/comments/pending-deploy?limit=4${cursor ? `&cursor=${cursor}` : ''}`,
        { token: dev.token },
      );
      seen.push(...page.body.items);
      cursor = page.body.nextCursor;
    } while (cursor);
    assert.deepEqual(
      seen.map((c) => c.id),
      ids.slice(1),
    );
    assert.equal(seen[0]?.commitSha, '777701aa');
    // A deploy step reads the list whole: up to 1,000 a page here, 100 elsewhere.
    const whole = await call(t.app, 'GET', `/api/projects/${fresh.key}/comments/pending-deploy?limit=1000`, {
      token: dev.token,
    });
    assert.equal(whole.status, 200);
    assert.equal(whole.body.items.length, 6);
    const over = await call(t.app, 'GET', `/api/projects/${fresh.key}/comments/pending-deploy?limit=1001`, {
      token: dev.token,
    });
    assert.equal(over.status, 400);
    assert.equal(over.body.errors[0].path, '/limit');
  });

  test('builds are listed newest first with the comments each deployed', async () => {
    const fresh = await createProject(t.app, admin);
    const id = await appliedWith('12121212', fresh.key);
    await report({ sha: '12121212' }, dev, fresh.key);
    await report({ sha: '34343434' }, admin, fresh.key);
    const listed = await call(t.app, 'GET', `/api/projects/${fresh.key}/builds`, { token: dev.token });
    assert.deepEqual(
      listed.body.items.map((b: { sha: string; deployedCommentIds: string[] }) => [b.sha, b.deployedCommentIds]),
      [
        ['34343434', []],
        ['12121212', [id]],
      ],
    );
    assert.equal(listed.body.items[1].reportedBy.id, dev.id);
    assert.match(listed.body.items[1].id, /^bld_/);
  });
});

/** Rate-limit windows are fixed minutes: start a burst well inside one, so it cannot straddle two (server processes read the system's clock). */
async function awayFromMinuteBoundary(): Promise<void> {
  const intoMinute = Date.now() % 60_000;
  if (intoMinute > 50_000) await new Promise((resolve) => setTimeout(resolve, 60_000 - intoMinute + 100));
}

describe('build reports while their project is deleted', () => {
  let t: TestApp;
  let admin: Member;
  before(async () => {
    t = await createTestApp({ buildRateLimit: 100_000 });
    admin = await signUp(t.app);
  });
  after(() => t.close());

  test('fifty reports at once, each making comments Live, while the project is deleted: each recorded before (and gone with it) or 404, the deletion 204, none a 500', async () => {
    const other = await t.twin();
    for (const [round, answered] of RACE_POINTS.entries()) {
      const project = await createProject(t.app, admin);
      const commits: string[] = [];
      for (let i = 0; i < 5; i++) {
        const { id } = await createComment(t.app, admin, project.key, `Fixed ${i}`);
        const commitSha = `${round}${i}`.padEnd(7, 'a');
        await call(t.app, 'POST', `/api/comments/${id}/apply`, { token: admin.token, body: { commitSha } });
        commits.push(commitSha);
      }
      const { answers, meanwhile: deleted } = await amid(
        Array.from(
          { length: 50 },
          (_, i) => () =>
            call(t.app, 'POST', `/api/projects/${project.key}/builds`, {
              token: admin.token,
              body: { sha: `b${i}`.padEnd(7, '0'), containsCommitShas: commits },
            }),
        ),
        answered,
        () => call(other, 'DELETE', `/api/projects/${project.key}`, { token: admin.token }),
      );
      assert.equal(deleted.status, 204, `round ${round}: ${JSON.stringify(deleted.body)}`);
      for (const answer of answers) assert.ok([200, 201, 404].includes(answer.status), JSON.stringify(answer.body));
    }
  });
});

describe('build report rate limit', () => {
  test('past SVC_BUILD_RATE_LIMIT reports a minute, 429 rate_limited with Retry-After', async () => {
    const clock = manualClock();
    const t = await createTestApp({ buildRateLimit: 3 }, { clock });
    try {
      const admin = await signUp(t.app);
      const other = await addMember(t.app, admin);
      const project = await createProject(t.app, admin);
      // A second into a minute: the burst cannot straddle two.
      clock.advance(60_000 - (clock.now() % 60_000) + 1000);
      for (let i = 0; i < 3; i++) {
        const ok = await call(t.app, 'POST', `/api/projects/${project.key}/builds`, {
          token: admin.token,
          body: { sha: `abcdef${i}` },
        });
        assert.equal(ok.status, 201);
      }
      const limited = await call(t.app, 'POST', `/api/projects/${project.key}/builds`, {
        token: admin.token,
        body: { sha: 'abcdef9' },
      });
      assert.equal(limited.status, 429);
      assert.equal(limited.body.code, 'rate_limited');
      // A sliding window: the burst weighs on the next minute too, so the wait may pass 60 s.
      const retryAfter = Number(limited.headers['retry-after']);
      assert.ok(retryAfter >= 1 && retryAfter <= 120, String(retryAfter));
      // The limit is per user.
      const someoneElse = await call(t.app, 'POST', `/api/projects/${project.key}/builds`, {
        token: other.token,
        body: { sha: 'abcdef9' },
      });
      assert.equal(someoneElse.status, 201);
      // Two minutes later the burst weighs nothing.
      clock.advance(120_000);
      const later = await call(t.app, 'POST', `/api/projects/${project.key}/builds`, {
        token: admin.token,
        body: { sha: 'abcdef8' },
      });
      assert.equal(later.status, 201);
    } finally {
      await t.close();
    }
  });

  test('on PostgreSQL the limit holds across two server processes', { skip: dialect !== 'postgres' }, async () => {
    const { database, drop } = await createTestDatabase();
    if (database.dialect !== 'postgres') return;
    const servers = await startServers(2, { DATABASE_URL: database.url, SVC_DEMO: 'false', SVC_BUILD_RATE_LIMIT: '4' });
    try {
      const post = (base: string, path: string, body: unknown, token?: string) =>
        callServer(base, 'POST', path, { token, body });
      const [a, b] = servers.map((s) => s.baseUrl) as [string, string];
      const signup = await post(a, '/api/signup', {
        workspaceName: 'W',
        name: 'A',
        email: 'rate@example.test',
        password: 'long enough pass',
      });
      const token = signup.body.token as string;
      await post(a, '/api/projects', { key: 'site', name: 'Site' }, token);
      const statuses: number[] = [];
      await awayFromMinuteBoundary();
      for (let i = 0; i < 6; i++) {
        statuses.push((await post(i % 2 ? b : a, '/api/projects/site/builds', { sha: `abcdef${i}` }, token)).status);
      }
      assert.deepEqual(statuses, [201, 201, 201, 201, 429, 429]);
    } finally {
      for (const server of servers) await server.stop();
      await drop();
    }
  });
});

after(killRemainingServers);
