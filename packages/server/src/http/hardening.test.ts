import assert from 'node:assert/strict';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import {
  addClient,
  call,
  countRows,
  createComment,
  createProject,
  createTestApp,
  type Member,
  signUp,
  type TestApp,
} from '../../test/helpers.js';

describe('bad input never breaks a project', () => {
  let t: TestApp;
  let admin: Member;
  let project: { key: string };
  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app);
    project = await createProject(t.app, admin);
  });
  after(() => t.close());

  test('a non-finite anchor offset (1e400 parses to Infinity) is 400 naming it, and nothing is written', async () => {
    const before = await countRows(t.app, 'comments');
    for (const json of [
      '{"body":"x","pageUrl":"https://a.test/","anchor":{"selector":"p","x":1e400,"y":0}}',
      '{"body":"x","pageUrl":"https://a.test/","anchor":{"selector":"p","x":0,"y":-1e400}}',
      '{"body":"x","pageUrl":"https://a.test/","anchor":{"selector":"p","x":1000001,"y":0}}',
    ]) {
      const answer = await t.app.inject({
        method: 'POST',
        url: `/api/projects/${project.key}/comments`,
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
        payload: json,
      });
      assert.equal(answer.statusCode, 400, json);
      assert.equal(answer.json().code, 'validation_failed');
      assert.match(answer.json().errors[0].path, /^\/anchor\/[xy]$/);
    }
    assert.equal(await countRows(t.app, 'comments'), before);
  });

  test('a stored row with a non-finite offset is repaired on read: the list and the comment still answer', async () => {
    const comment = await createComment(t.app, admin, project.key);
    await t.app.database.db
      .updateTable('comments')
      .set({ anchor_x: Number.POSITIVE_INFINITY, anchor_y: Number.NEGATIVE_INFINITY })
      .where('id', '=', comment.id)
      .execute();
    const list = await call(t.app, 'GET', `/api/projects/${project.key}/comments`, { token: admin.token });
    assert.equal(list.status, 200);
    const one = await call(t.app, 'GET', `/api/comments/${comment.id}`, { token: admin.token });
    assert.equal(one.status, 200);
    assert.deepEqual(one.body.anchor, { selector: 'main > h1', x: 0, y: 0 });
    assert.equal((await call(t.app, 'DELETE', `/api/comments/${comment.id}`, { token: admin.token })).status, 204);
  });

  test('NUL and other control characters are 400 in bodies, path ids and query strings, signed in or not', async () => {
    const counts = async () =>
      Promise.all((['comments', 'users', 'sessions'] as const).map((n) => countRows(t.app, n)));
    const before = await counts();
    const cases: [string, string, Record<string, unknown> | undefined, string | undefined, string][] = [
      ['POST', '/api/auth/login', { email: 'a\u0000@b.test', password: 'x' }, undefined, '/email'],
      ['POST', '/api/auth/login', { email: 'a@b.test', password: 'pass\u0000word' }, undefined, '/password'],
      ['POST', `/api/projects/${project.key}/comments`, { body: 'a\u0000b', pageUrl: 'https://a.test/' }, 't', '/body'],
      [
        'POST',
        `/api/projects/${project.key}/comments`,
        { body: 'bell\u0007', pageUrl: 'https://a.test/' },
        't',
        '/body',
      ],
      ['POST', `/api/projects/${project.key}/comments`, { body: 'ok', pageUrl: 'https://a.test/\n' }, 't', '/pageUrl'],
      ['GET', '/api/comments/cmt_%00', undefined, 't', '/id'],
      ['GET', `/api/projects/${project.key}/comments?pageUrl=https://a.test/%00`, undefined, 't', '/pageUrl'],
      ['GET', `/api/projects/${project.key}/comments?cursor=%01`, undefined, 't', '/cursor'],
    ];
    for (const [method, url, body, token, path] of cases) {
      const answer = await call(t.app, method as 'GET', url, { body, token: token ? admin.token : undefined });
      assert.equal(answer.status, 400, `${method} ${url}`);
      assert.equal(answer.headers['content-type'], 'application/problem+json; charset=utf-8');
      assert.equal(answer.body.errors[0].path, path);
      assert.equal(answer.body.errors[0].message, 'must not contain control characters');
    }
    assert.deepEqual(await counts(), before);
  });

  test('every kind of name refuses C0 and C1 controls and direction overrides, isolates and marks: 400 naming the field, nothing written', async () => {
    const label = await call(t.app, 'POST', '/api/workspace/labels', {
      token: admin.token,
      body: { name: 'Bug', color: 'red' },
    });
    assert.equal(label.status, 201);
    const counts = () =>
      Promise.all(
        (['users', 'workspaces', 'projects', 'labels', 'api_keys', 'sso_providers'] as const).map((n) =>
          countRows(t.app, n),
        ),
      );
    const before = await counts();
    const person = { email: `n-${Date.now()}@b.test`, password: 'a long passphrase' };
    // [method, url, body without the name, the name's field]
    const names: [string, string, Record<string, unknown>, string][] = [
      ['POST', '/api/signup', { ...person, workspaceName: 'W' }, 'name'],
      ['POST', '/api/signup', { ...person, name: 'N' }, 'workspaceName'],
      ['POST', '/api/workspace/members', { ...person, role: 'member' }, 'name'],
      ['POST', '/api/workspace/quick-access', {}, 'name'],
      ['POST', '/api/invites/accept', { token: 'svc_inv_x', password: person.password }, 'name'],
      ['POST', '/api/workspace/agents', {}, 'name'],
      ['POST', '/api/me/api-keys', {}, 'name'],
      ['POST', '/api/projects', { key: 'named-badly' }, 'name'],
      ['PATCH', `/api/projects/${project.key}`, {}, 'name'],
      ['POST', '/api/workspace/labels', { color: 'red' }, 'name'],
      ['PATCH', `/api/workspace/labels/${label.body.id}`, {}, 'name'],
      [
        'PUT',
        '/api/workspace/sso',
        {
          issuer: 'https://id.example.test',
          clientId: 'c',
          clientSecret: 's',
          allowedDomains: [],
          newMemberRole: null,
          requireForMembers: false,
        },
        'displayName',
      ],
    ];
    // U+202E reads a label backwards; U+009B opens a terminal's control sequence; the rest alike.
    const refused = [
      '\u202e',
      '\u202a',
      '\u2066',
      '\u2069',
      '\u200e',
      '\u200f',
      '\u061c',
      '\u009b',
      '\u0085',
      '\u0000',
      '\u007f',
    ];
    for (const [method, url, body, field] of names) {
      for (const character of refused) {
        const answer = await call(t.app, method as 'POST', url, {
          token: admin.token,
          body: { ...body, [field]: `Bug${character}fix` },
        });
        const what = `${method} ${url} ${field} U+${character.codePointAt(0)?.toString(16).padStart(4, '0')}`;
        assert.equal(answer.status, 400, what);
        assert.equal(answer.headers['content-type'], 'application/problem+json; charset=utf-8', what);
        assert.equal(answer.body.code, 'validation_failed', what);
        assert.deepEqual(
          answer.body.errors,
          [
            {
              path: `/${field}`,
              message: 'must not contain control characters or bidirectional formatting characters',
              rule: 'pattern',
            },
          ],
          what,
        );
        assert.match(answer.body.detail, new RegExp(`^body/${field} must not contain control characters`), what);
      }
    }
    assert.deepEqual(await counts(), before);
    // Right-to-left scripts need none of them.
    const hebrew = await call(t.app, 'POST', '/api/workspace/labels', {
      token: admin.token,
      body: { name: 'באג', color: 'red' },
    });
    assert.equal(hebrew.status, 201);
    assert.equal(hebrew.body.name, 'באג');
  });

  test('bodies keep tab and newlines', async () => {
    const answer = await call(t.app, 'POST', `/api/projects/${project.key}/comments`, {
      token: admin.token,
      body: { body: 'line one\r\n\tline two\n', pageUrl: 'https://a.test/' },
    });
    assert.equal(answer.status, 201);
    assert.equal(answer.body.body, 'line one\r\n\tline two');
  });

  test("Fastify's own refusals are problem+json with a code: bad percent-encoding, over-long ids, a content coding", async () => {
    const badUrl = await call(t.app, 'GET', '/api/comments/%zz', { token: admin.token });
    assert.equal(badUrl.status, 400);
    assert.equal(badUrl.body.code, 'validation_failed');
    assert.equal(badUrl.headers['content-type'], 'application/problem+json; charset=utf-8');
    const long = await call(t.app, 'GET', `/api/comments/${'a'.repeat(101)}`, { token: admin.token });
    assert.equal(long.status, 414);
    assert.equal(long.body.code, 'uri_too_long');
    const before = await countRows(t.app, 'api_keys');
    const gzip = await t.app.inject({
      method: 'POST',
      url: '/api/me/api-keys',
      headers: {
        authorization: `Bearer ${admin.token}`,
        'content-type': 'application/json',
        'content-encoding': 'gzip',
      },
      payload: '{"name":"plain body labelled gzip"}',
    });
    assert.equal(gzip.statusCode, 415);
    assert.equal(gzip.json().code, 'unsupported_media_type');
    assert.equal(await countRows(t.app, 'api_keys'), before);
  });

  test('bytes that are not UTF-8 and lone surrogates are refused naming the field; a __proto__ key is said to be one; nothing written', async () => {
    const before = await countRows(t.app, 'comments');
    const post = (payload: Buffer | string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/projects/${project.key}/comments`,
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
        payload,
      });
    const latin1 = await post(
      Buffer.concat([Buffer.from('{"pageUrl":"https://a.test/","body":"caf'), Buffer.from([0xe9]), Buffer.from('"}')]),
    );
    assert.equal(latin1.statusCode, 400);
    assert.deepEqual(latin1.json().errors, [{ path: '/body', message: 'is not valid UTF-8' }]);
    const lone = await post('{"pageUrl":"https://a.test/","body":"ok","anchor":{"selector":"a\\ud800b","x":0,"y":0}}');
    assert.equal(lone.statusCode, 400);
    assert.equal(lone.json().errors[0].path, '/anchor/selector');
    assert.match(lone.json().errors[0].message, /lone surrogate/);
    const paired = await post('{"pageUrl":"https://a.test/","body":"a pin \\ud83d\\udccc is fine"}');
    assert.equal(paired.statusCode, 201, 'a surrogate pair is one character');
    assert.equal(paired.json().body, 'a pin 📌 is fine');
    const proto = await post('{"pageUrl":"https://a.test/","body":"x","__proto__":{"admin":true}}');
    assert.equal(proto.statusCode, 400);
    assert.match(proto.json().detail, /__proto__/);
    assert.equal(await countRows(t.app, 'comments'), before + 1);
  });

  test("every answer is problem+json: a body over its route's limit names that limit; a lying Content-Length; headers too large (431)", async () => {
    const shot = await t.app.inject({
      method: 'PUT',
      url: '/api/comments/cmt_x/screenshot',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'image/png' },
      payload: Buffer.alloc(600 * 1024),
    });
    assert.equal(shot.statusCode, 413);
    assert.match(shot.json().detail, /limit of 512 KiB/);
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/me/api-keys',
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ name: 'x'.repeat(70 * 1024) }),
    });
    assert.equal(json.statusCode, 413);
    assert.match(json.json().detail, /limit of 64 KiB/);

    // Over a real socket: what Node itself cannot read.
    const base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = new URL(base);
    const raw = (request: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(port), '127.0.0.1', () => socket.end(request));
        let answer = '';
        socket.on('data', (chunk) => {
          answer += chunk;
        });
        socket.on('end', () => resolve(answer));
        socket.on('error', reject);
      });
    const huge = await raw(`GET /api/me HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    assert.match(huge, /^HTTP\/1\.1 431/);
    assert.match(huge, /content-type: application\/problem\+json/i);
    assert.equal(JSON.parse(huge.slice(huge.indexOf('\r\n\r\n') + 4)).code, 'headers_too_large');
    const longUrl = await raw(`GET /api/comments?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`);
    assert.match(longUrl, /^HTTP\/1\.1 431/);
    const lying = await raw(
      `POST /api/me/api-keys HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${admin.token}\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\n{"name":"much longer than five bytes"}`,
    );
    assert.match(lying, /^HTTP\/1\.1 4\d\d/);
    assert.match(lying, /application\/problem\+json/i);
  });

  test('/docs with a query string still renders: the parameters are dropped', async () => {
    const answer = await t.app.inject({ method: 'GET', url: '/docs?anything=1' });
    assert.equal(answer.statusCode, 302);
    assert.equal(answer.headers.location, '/docs');
    assert.equal((await t.app.inject({ method: 'GET', url: '/docs' })).statusCode, 200);
  });
});

describe('headers', () => {
  let t: TestApp;
  let admin: Member;
  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app);
  });
  after(() => t.close());

  test('every answer has nosniff and no-referrer; JSON allows nothing, the HTML pages their own scripts', async () => {
    for (const url of ['/api/me', '/healthz', '/api/nothing-here', '/demo', '/docs']) {
      const answer = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${admin.token}` } });
      assert.equal(answer.headers['x-content-type-options'], 'nosniff', url);
      assert.equal(answer.headers['referrer-policy'], 'no-referrer', url);
      const csp = String(answer.headers['content-security-policy']);
      assert.match(csp, /frame-ancestors 'none'/, url);
      if (url === '/demo' || url === '/docs') assert.match(csp, /script-src 'self'/, url);
      else assert.match(csp, /^default-src 'none'/, url);
      // The widget's screenshot thumbnail is a blob: image.
      if (url === '/demo') assert.match(csp, /img-src 'self' data: blob:/, url);
    }
  });

  test('authenticated answers are no-store; the unread-count keeps private, no-cache', async () => {
    const me = await call(t.app, 'GET', '/api/me', { token: admin.token });
    assert.equal(me.headers['cache-control'], 'no-store');
    const login = await call(t.app, 'POST', '/api/auth/login', { body: { email: admin.email, password: 'wrong' } });
    assert.equal(login.headers['cache-control'], 'no-store');
    const count = await call(t.app, 'GET', '/api/me/notifications/unread-count', { token: admin.token });
    assert.equal(count.headers['cache-control'], 'private, no-cache');
  });

  test('a safe X-Request-Id is kept; anything else is replaced with a new id', () => {
    // The id generator Fastify calls for every request (not in its instance typings).
    const { genReqId } = t.app as unknown as { genReqId: (request: unknown) => string };
    assert.equal(genReqId({ headers: { 'x-request-id': 'abc-123.x:y_z' } } as never), 'abc-123.x:y_z');
    for (const bad of ['has space', 'x'.repeat(65), '<script>', 'new\nline', 'caf\u00e9']) {
      const generated = genReqId({ headers: { 'x-request-id': bad } } as never);
      assert.match(generated, /^[0-9a-f]{8}-[0-9a-z]+$/, bad);
    }
  });

  test('Vary: Origin on every answer, whether the origin is allowed, refused or absent', async () => {
    const project = await createProject(t.app, admin, { allowedOrigins: ['https://allowed.test'] });
    const client = await addClient(t.app, admin, project.key);
    for (const origin of ['https://allowed.test', 'https://other.test', undefined]) {
      for (const url of ['/api/me', '/api/me/notifications/unread-count']) {
        const answer = await t.app.inject({
          method: 'GET',
          url,
          headers: { authorization: `Bearer ${client.token}`, ...(origin ? { origin } : {}) },
        });
        assert.match(String(answer.headers.vary), /Origin/, `${url} from ${origin}`);
        assert.equal(
          answer.headers['access-control-allow-origin'],
          origin === 'https://allowed.test' ? origin : undefined,
        );
      }
    }
  });
});
