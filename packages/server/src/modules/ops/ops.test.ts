import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
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

  test('openapi.json is OpenAPI 3.1 and documents every API route with its responses', async () => {
    const doc = (await call(t.app, 'GET', '/openapi.json')).body;
    assert.equal(doc.openapi, '3.1.0');
    for (const path of [
      '/api/signup',
      '/api/auth/login',
      '/api/auth/logout',
      '/api/auth/quick-access',
      '/api/me',
      '/api/workspace/members',
      '/api/workspace/quick-access',
      '/api/me/api-keys',
      '/api/me/api-keys/{id}',
      '/api/projects',
      '/api/projects/{key}',
      '/api/projects/{key}/comments',
      '/api/comments/{id}',
      '/api/comments/{id}/replies',
      '/api/comments/{id}/apply',
      '/api/comments/{id}/reopen',
      '/api/comments/{id}/archive',
      '/api/comments/{id}/verify',
      '/api/projects/{key}/builds',
      '/api/projects/{key}/comments/pending-deploy',
      '/api/me/notifications',
      '/api/me/notifications/unread-count',
      '/api/me/notifications/read-all',
      '/api/me/notifications/{id}',
      '/api/me/notifications/{id}/read',
    ]) {
      assert.ok(doc.paths[path], `missing ${path}`);
    }
    const apply = doc.paths['/api/comments/{id}/apply'].post;
    assert.ok(apply.responses['200'] && apply.responses['409'] && apply.responses['400']);
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
