import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { api, ENDPOINTS, type EndpointSpec, REPLAY_TYPES } from '@svc/contract/api';
import { call, createTestApp, signUp, type TestApp } from '../../../test/helpers.js';

describe('operations endpoints', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(() => t.close());

  test('healthz and readyz answer without credentials', async () => {
    assert.deepEqual((await call(t.app, 'GET', '/healthz')).body, { status: 'ok' });
    assert.deepEqual((await call(t.app, 'GET', '/readyz')).body, { status: 'ready' });
  });

  test('metrics count requests by route template, not by raw URL', async () => {
    const admin = await signUp(t.app);
    await call(t.app, 'GET', '/api/me', { token: admin.token });
    const metrics = await t.app.inject({ method: 'GET', url: '/metrics' });
    assert.equal(metrics.statusCode, 200);
    assert.match(metrics.body, /svc_http_requests_total\{method="GET",route="\/api\/me",status="200"\} 1/);
    assert.match(metrics.body, /process_cpu_user_seconds_total/);
  });

  test('openapi.json is OpenAPI 3.1 and lists exactly the operations of the route table', async () => {
    const doc = (await call(t.app, 'GET', '/openapi.json')).body;
    assert.equal(doc.openapi, '3.1.0');
    const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
      .flatMap(([path, operations]) => Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`))
      .sort();
    const registered = t.app.routeTable
      .filter((route) => !route.hidden)
      .map((route) => `${route.method} ${route.url.replace(/:(\w+)/g, '{$1}')}`)
      .sort();
    assert.deepEqual(documented, registered);
    assert.ok(registered.length >= 30, `${registered.length} operations`);
    for (const route of t.app.routeTable.filter((r) => r.url.startsWith('/api/'))) {
      assert.ok(!route.hidden, `${route.method} ${route.url} is documented`);
      const responses = route.schema?.response as Record<string, unknown> | undefined;
      assert.ok(responses?.['400'] && responses['401'], `${route.method} ${route.url} documents its problems`);
    }
    const apply = doc.paths['/api/comments/{id}/apply'].post;
    assert.ok(apply.responses['200'] && apply.responses['409'] && apply.responses['400']);
    assert.ok(apply.responses['409'].content['application/problem+json'], 'problems are documented as served');
    assert.ok(apply.responses['200'].content['application/json']);
    assert.deepEqual(doc.paths['/api/auth/login'].post.security, [], 'a public route takes no token');
    assert.equal(apply.security, undefined, 'the others take the bearer token');
  });

  test('every route that takes a file declares its body (an image: PNG, JPEG and WebP bytes; a replay: gzip), so a generated client can upload', async () => {
    const doc = (await call(t.app, 'GET', '/openapi.json')).body;
    const uploads = Object.entries(api)
      .filter(([, spec]) => (spec as EndpointSpec).raw === 'body')
      .map(([endpoint]) => endpoint)
      .sort();
    assert.deepEqual(uploads, [
      'POST /api/comments/{id}/images',
      'PUT /api/comments/{id}/replay',
      'PUT /api/comments/{id}/screenshot',
    ]);
    for (const endpoint of uploads) {
      const [method = '', path = ''] = endpoint.split(' ');
      const body = doc.paths[path][method.toLowerCase()].requestBody;
      assert.equal(body?.required, true, endpoint);
      const types = endpoint.endsWith('/replay') ? [...REPLAY_TYPES] : ['image/png', 'image/jpeg', 'image/webp'];
      assert.deepEqual(Object.keys(body.content), types, endpoint);
      for (const media of Object.values(body.content) as { schema: object }[]) {
        assert.deepEqual(media.schema, { type: 'string', format: 'binary', description: 'The bytes of the file' });
      }
    }
  });

  test("the clients' typed map and the server's API routes are the same list, both ways", async () => {
    const served = t.app.routeTable
      .filter((route) => route.url.startsWith('/api/'))
      .map((route) => `${route.method} ${route.url.replace(/:(\w+)/g, '{$1}')}`);
    assert.deepEqual(
      ENDPOINTS.filter((endpoint) => !served.includes(endpoint)),
      [],
      'in the map, not served',
    );
    assert.deepEqual(
      served.filter((route) => !(ENDPOINTS as string[]).includes(route)),
      [],
      'served, not in the map',
    );
    assert.ok(ENDPOINTS.length >= 50);
  });

  test("the API reference says what each endpoint does in the contract's words, stating the settings of this server", async () => {
    const settings = { auditRetentionDays: 30 };
    const configured = await createTestApp(settings);
    try {
      const doc = (await call(configured.app, 'GET', '/openapi.json')).body;
      for (const endpoint of ENDPOINTS) {
        const [method = '', path = ''] = endpoint.split(' ');
        const spec: EndpointSpec = api[endpoint];
        const operation = doc.paths[path][method.toLowerCase()];
        assert.ok(spec.summary, `${endpoint} says what it does`);
        assert.equal(operation.summary, spec.summary, endpoint);
        const description = typeof spec.description === 'function' ? spec.description(settings) : spec.description;
        assert.equal(operation.description, description, endpoint);
      }
      assert.match(doc.paths['/api/workspace/audit'].get.description, /^Kept 30 days /);
    } finally {
      await configured.close();
    }
  });

  test('with SVC_METRICS_TOKEN set, /metrics asks for it', async () => {
    const guarded = await createTestApp({ metricsToken: 'scrape-me-please-0123' });
    try {
      const anonymous = await guarded.app.inject({ method: 'GET', url: '/metrics' });
      assert.equal(anonymous.statusCode, 401);
      assert.equal(anonymous.json().code, 'unauthenticated');
      const wrong = await guarded.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: 'Bearer scrape-me-please-0124' },
      });
      assert.equal(wrong.statusCode, 401);
      const right = await guarded.app.inject({
        method: 'GET',
        url: '/metrics',
        headers: { authorization: 'Bearer scrape-me-please-0123' },
      });
      assert.equal(right.statusCode, 200);
      assert.match(right.body, /svc_http_requests_total/);
    } finally {
      await guarded.close();
    }
  });

  test('docs serve an API reference page', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs/' });
    assert.equal(page.statusCode, 200);
    assert.match(page.headers['content-type'] as string, /text\/html/);
  });

  test('an unknown route is a 404 problem', async () => {
    const answer = await call(t.app, 'GET', '/api/nothing-here');
    assert.equal(answer.status, 404);
    assert.equal(answer.body.code, 'not_found');
    assert.equal(answer.body.type, 'urn:svc:problem:not_found');
  });
});
