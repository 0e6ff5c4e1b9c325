import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  addClient,
  addMember,
  call,
  countRows,
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
});
