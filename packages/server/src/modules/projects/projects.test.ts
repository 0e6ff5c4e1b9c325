import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  addClient,
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

describe('projects', () => {
  let t: TestApp;
  let admin: Member;
  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app);
  });
  after(() => t.close());

  test('an admin creates a project; repoUrl and origins are normalised', async () => {
    const answer = await call(t.app, 'POST', '/api/projects', {
      token: admin.token,
      body: {
        key: 'marketing-site',
        name: ' Marketing ',
        repoUrl: 'https://github.com/acme/site/',
        allowedOrigins: ['https://www.acme.test/', 'https://www.acme.test', 'http://localhost:5173'],
      },
    });
    assert.equal(answer.status, 201);
    assert.equal(answer.body.key, 'marketing-site');
    assert.equal(answer.body.name, 'Marketing');
    assert.equal(answer.body.repoUrl, 'https://github.com/acme/site');
    assert.deepEqual(answer.body.allowedOrigins, ['https://www.acme.test', 'http://localhost:5173']);
    assert.match(answer.body.id, /^prj_/);
  });

  test('members and clients may not create projects (403); anonymous 401; nothing written', async () => {
    const member = await addMember(t.app, admin);
    const client = await addClient(t.app, admin);
    const before = await countRows(t.app, 'projects');
    for (const caller of [member, client]) {
      const answer = await call(t.app, 'POST', '/api/projects', {
        token: caller.token,
        body: { key: 'nope', name: 'n' },
      });
      assert.equal(answer.status, 403);
    }
    assert.equal((await call(t.app, 'POST', '/api/projects', { body: { key: 'nope', name: 'n' } })).status, 401);
    assert.equal(await countRows(t.app, 'projects'), before);
  });

  test('each invalid field is a 400 naming it, and nothing is written', async () => {
    const before = await countRows(t.app, 'projects');
    const cases: [Record<string, unknown>, string][] = [
      [{ key: 'A', name: 'n' }, '/key'],
      [{ key: 'has space', name: 'n' }, '/key'],
      [{ key: 'x'.repeat(41), name: 'n' }, '/key'],
      [{ key: 'ok-key' }, '/name'],
      [{ key: 'ok-key', name: 'n', repoUrl: 'ftp://example.test/repo' }, '/repoUrl'],
      [{ key: 'ok-key', name: 'n', allowedOrigins: ['https://a.test', 'https://b.test/path'] }, '/allowedOrigins/1'],
      [{ key: 'ok-key', name: 'n', allowedOrigins: ['https://a.test', 42] }, '/allowedOrigins/1'],
      [{ key: 'ok-key', name: 'n', allowedOrigins: 'https://a.test' }, '/allowedOrigins'],
    ];
    for (const [body, path] of cases) {
      const answer = await call(t.app, 'POST', '/api/projects', { token: admin.token, body });
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(answer.body.errors[0].path, path, JSON.stringify(body));
    }
    assert.equal(await countRows(t.app, 'projects'), before);
  });

  test('a key is unique within a workspace (409) but another workspace may reuse it', async () => {
    await call(t.app, 'POST', '/api/projects', { token: admin.token, body: { key: 'shared-key', name: 'One' } });
    const again = await call(t.app, 'POST', '/api/projects', {
      token: admin.token,
      body: { key: 'shared-key', name: 'Two' },
    });
    assert.equal(again.status, 409);
    assert.equal(again.body.errors[0].path, '/key');
    const other = await signUp(t.app);
    const theirs = await call(t.app, 'POST', '/api/projects', {
      token: other.token,
      body: { key: 'shared-key', name: 'Theirs' },
    });
    assert.equal(theirs.status, 201);
  });

  test("another workspace's project is 404 and never listed", async () => {
    const mine = await createProject(t.app, admin);
    const stranger = await signUp(t.app);
    assert.equal((await call(t.app, 'GET', `/api/projects/${mine.key}`, { token: stranger.token })).status, 404);
    const listed = await call(t.app, 'GET', '/api/projects', { token: stranger.token });
    assert.equal(
      listed.body.items.some((p: { id: string }) => p.id === mine.id),
      false,
    );
    const own = await call(t.app, 'GET', '/api/projects', { token: admin.token });
    assert.ok(own.body.items.some((p: { id: string }) => p.id === mine.id));
  });

  test('a client limited to one project sees only that one; every other project is 404', async () => {
    const mine = await createProject(t.app, admin);
    const other = await createProject(t.app, admin);
    const client = await addClient(t.app, admin, mine.key);
    const listed = await call(t.app, 'GET', '/api/projects', { token: client.token });
    assert.deepEqual(
      listed.body.items.map((p: { key: string }) => p.key),
      [mine.key],
    );
    assert.equal((await call(t.app, 'GET', `/api/projects/${other.key}`, { token: client.token })).status, 404);
    assert.equal((await call(t.app, 'GET', `/api/projects/${mine.key}`, { token: client.token })).status, 200);
  });

  test("CORS answers preflights from a project's allowed origins only, and learns new ones at once", async () => {
    const preflight = (origin: string) =>
      t.app.inject({
        method: 'OPTIONS',
        url: '/api/me/notifications/unread-count',
        headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
      });
    const before = await preflight('https://widget-host.test');
    assert.equal(before.headers['access-control-allow-origin'], undefined);
    await createProject(t.app, admin, { allowedOrigins: ['https://widget-host.test'] });
    const allowed = await preflight('https://widget-host.test');
    assert.equal(allowed.headers['access-control-allow-origin'], 'https://widget-host.test');
    assert.match(String(allowed.headers['access-control-allow-headers']), /Authorization/);
    const other = await preflight('https://evil.test');
    assert.equal(other.headers['access-control-allow-origin'], undefined);
    assert.notEqual(other.statusCode, 204);

    const poll = await t.app.inject({
      method: 'GET',
      url: '/api/me/notifications/unread-count',
      headers: { origin: 'https://widget-host.test', authorization: `Bearer ${admin.token}` },
    });
    assert.equal(poll.statusCode, 200);
    assert.equal(poll.headers['access-control-allow-origin'], 'https://widget-host.test');
    assert.match(String(poll.headers['access-control-expose-headers']), /ETag/);
    assert.equal(poll.headers.vary, 'Origin');
  });

  test('PATCH changes name, repoUrl (null clears), appUrl and origins; the key is not a field; nothing else moves', async () => {
    const project = await createProject(t.app, admin, { repoUrl: 'https://github.com/acme/x' });
    const patch = (body: unknown, token = admin.token) =>
      call(t.app, 'PATCH', `/api/projects/${project.key}`, { token, body });
    const changed = await patch({
      name: ' Renamed ',
      appUrl: 'https://app.acme.test/',
      allowedOrigins: ['https://app.acme.test/'],
    });
    assert.equal(changed.status, 200);
    assert.equal(changed.body.name, 'Renamed');
    assert.equal(changed.body.appUrl, 'https://app.acme.test');
    assert.equal(changed.body.repoUrl, 'https://github.com/acme/x');
    assert.deepEqual(changed.body.allowedOrigins, ['https://app.acme.test']);
    const cleared = await patch({ repoUrl: null });
    assert.equal(cleared.body.repoUrl, null);
    assert.equal(cleared.body.name, 'Renamed');
    const stored = (await call(t.app, 'GET', `/api/projects/${project.key}`, { token: admin.token })).body;
    assert.deepEqual(stored, cleared.body);

    // Refused: nothing written.
    const refusals = [
      [await patch({ key: 'renamed' }), 400],
      [await patch({}), 400],
      [await patch({ appUrl: 'ftp://x.test' }), 400],
      [await patch({ allowedOrigins: ['https://x.test/path'] }), 400],
      [await patch({ name: '   ' }), 400],
      [await call(t.app, 'PATCH', '/api/projects/no-such', { token: admin.token, body: { name: 'x' } }), 404],
    ] as const;
    for (const [answer, status] of refusals) assert.equal(answer.status, status, JSON.stringify(answer.body));
    const member = await addMember(t.app, admin, 'member');
    const client = await addClient(t.app, admin);
    assert.equal((await patch({ name: 'x' }, member.token)).status, 403);
    assert.equal((await patch({ name: 'x' }, client.token)).status, 403);
    const other = await signUp(t.app, 'Other Admin');
    assert.equal((await patch({ name: 'x' }, other.token)).status, 404, 'another workspace: not found');
    assert.deepEqual((await call(t.app, 'GET', `/api/projects/${project.key}`, { token: admin.token })).body, stored);
  });

  test('origins changed by PATCH are allowed (and removed ones refused) at once', async () => {
    const project = await createProject(t.app, admin, { allowedOrigins: ['https://before.test'] });
    const preflight = async (origin: string) =>
      (
        await t.app.inject({
          method: 'OPTIONS',
          url: '/api/me',
          headers: { origin, 'access-control-request-method': 'PATCH' },
        })
      ).headers['access-control-allow-origin'];
    assert.equal(await preflight('https://before.test'), 'https://before.test');
    await call(t.app, 'PATCH', `/api/projects/${project.key}`, {
      token: admin.token,
      body: { allowedOrigins: ['https://after.test'] },
    });
    assert.equal(await preflight('https://after.test'), 'https://after.test');
    assert.equal(await preflight('https://before.test'), undefined);
  });

  test('DELETE removes the project with its comments, replies, notifications, builds and limited clients; unread counts follow', async () => {
    const project = await createProject(t.app, admin);
    const keep = await createProject(t.app, admin);
    const member = await addMember(t.app, admin, 'member');
    const limited = await addClient(t.app, admin, project.key);
    const comment = await createComment(t.app, admin, project.key);
    const kept = await createComment(t.app, admin, keep.key);
    await call(t.app, 'POST', `/api/comments/${comment.id}/replies`, { token: member.token, body: { body: 'on it' } });
    await call(t.app, 'POST', `/api/comments/${kept.id}/replies`, { token: member.token, body: { body: 'kept' } });
    await call(t.app, 'POST', `/api/projects/${project.key}/builds`, { token: member.token, body: { sha: 'abcdef1' } });
    const unread = async () =>
      (await call(t.app, 'GET', '/api/me/notifications/unread-count', { token: admin.token })).body.count;
    assert.equal(await unread(), 2, 'counted, and cached');
    const before = { comments: await countRows(t.app, 'comments'), users: await countRows(t.app, 'users') };

    assert.equal((await call(t.app, 'DELETE', `/api/projects/${project.key}`, { token: member.token })).status, 403);
    assert.equal((await call(t.app, 'DELETE', `/api/projects/${project.key}`, { token: admin.token })).status, 204);
    assert.equal((await call(t.app, 'GET', `/api/projects/${project.key}`, { token: admin.token })).status, 404);
    assert.equal((await call(t.app, 'GET', `/api/comments/${comment.id}`, { token: admin.token })).status, 404);
    assert.equal((await call(t.app, 'GET', `/api/comments/${kept.id}`, { token: admin.token })).status, 200);
    assert.equal(await unread(), 1, 'the cached count dropped what the deletion removed');
    assert.equal(
      (await call(t.app, 'GET', '/api/me', { token: limited.token })).status,
      401,
      'its limited client is gone',
    );
    assert.equal(await countRows(t.app, 'comments'), before.comments - 1);
    assert.equal(await countRows(t.app, 'users'), before.users - 1);
    const builds = await t.app.database.db
      .selectFrom('builds')
      .select('id')
      .where('project_id', '=', project.id)
      .execute();
    assert.equal(builds.length, 0);
    assert.equal((await call(t.app, 'DELETE', `/api/projects/${project.key}`, { token: admin.token })).status, 404);
    // The key is free again.
    assert.equal(
      (await call(t.app, 'POST', '/api/projects', { token: admin.token, body: { key: project.key, name: 'Again' } }))
        .status,
      201,
    );
  });

  describe('a widget on an origin the project does not allow', () => {
    const check = (key: string, origin?: string) =>
      call(t.app, 'GET', `/api/widget/origin-check?project=${key}`, { headers: origin ? { origin } : {} });
    const refused = async (key: string, token = admin.token) =>
      call(t.app, 'GET', `/api/projects/${key}/refused-origins`, { token });

    test('is told so, readable from any origin; the admins are offered the origin until they allow it', async () => {
      const project = await createProject(t.app, admin, { allowedOrigins: ['https://app.acme.test'] });
      const ok = await check(project.key, 'https://app.acme.test');
      assert.deepEqual(ok.body, { origin: 'https://app.acme.test', allowed: true });
      const no = await check(project.key, 'https://staging.acme.test');
      assert.equal(no.status, 200);
      assert.equal(no.headers['access-control-allow-origin'], '*');
      assert.deepEqual(no.body, { origin: 'https://staging.acme.test', allowed: false });
      await check(project.key, 'https://staging.acme.test');

      const listed = await refused(project.key);
      assert.equal(listed.status, 200);
      assert.equal(listed.body.items.length, 1);
      assert.equal(listed.body.items[0].origin, 'https://staging.acme.test');
      assert.equal(listed.body.items[0].attempts, 2);
      const member = await addMember(t.app, admin, 'member');
      assert.equal((await refused(project.key, member.token)).status, 403);

      await call(t.app, 'PATCH', `/api/projects/${project.key}`, {
        token: admin.token,
        body: { allowedOrigins: ['https://app.acme.test', 'https://staging.acme.test'] },
      });
      assert.deepEqual((await refused(project.key)).body.items, [], 'allowed now: no longer offered');
    });

    test('nothing is noted without an origin, for a malformed one, or for a key two workspaces share', async () => {
      const project = await createProject(t.app, admin);
      assert.deepEqual((await check(project.key)).body, { origin: null, allowed: false });
      assert.equal((await check(project.key, 'null')).body.allowed, false);
      assert.equal((await check(project.key, 'https://x.test/path')).body.allowed, false);
      assert.deepEqual((await refused(project.key)).body.items, []);

      const other = await signUp(t.app, 'Olga Other');
      await call(t.app, 'POST', '/api/projects', { token: other.token, body: { key: project.key, name: 'Theirs' } });
      await check(project.key, 'https://secret-staging.other.test');
      assert.deepEqual((await refused(project.key)).body.items, [], "another workspace's page is not shown here");
      assert.deepEqual((await refused(project.key, other.token)).body.items, []);
    });

    test('the list keeps the latest 20 origins of a project', async () => {
      const project = await createProject(t.app, admin);
      for (let i = 0; i < 25; i++) await check(project.key, `https://host-${i}.test`);
      assert.equal((await refused(project.key)).body.items.length, 20);
      assert.equal(
        await countRows(t.app, 'refused_origins'),
        20 + 1,
        'and no more are stored (one is of the first test)',
      );
    });
  });
});
