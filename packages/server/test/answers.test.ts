// The API reference says what each operation answers: every route of the API, called by every
// kind of caller with its own resources and an example body, answers a status the reference
// declares for that operation, with a content type declared for that status.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp } from './helpers.js';
import {
  buildWorld,
  exampleBody,
  exampleHeaders,
  paramNames,
  pathWith,
  ROLES,
  signInAgain,
  type World,
} from './route-table.js';

type Responses = Record<string, { content?: Record<string, unknown> }>;

describe('every answer of the API is declared in its reference', () => {
  let t: TestApp;
  let world: World;
  let operations: Record<string, Record<string, { responses: Responses }>>;
  before(async () => {
    // Routes that remove part of the world, or require a second factor of its admins, have it built anew.
    t = await createTestApp({ limits: { signUpsPerAddress: 1000 } });
    world = await buildWorld(t.app);
    operations = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json().paths;
  });
  after(() => t.close());

  test('its status, and its content type', async () => {
    const seen = new Set<string>();
    for (const route of t.app.routeTable.filter((r) => r.url.startsWith('/api/'))) {
      await signInAgain(world);
      const path = route.url.replace(/:(\w+)/g, '{$1}');
      const responses = operations[path]?.[route.method.toLowerCase()]?.responses;
      assert.ok(responses, `${route.method} ${path} is in the reference`);
      for (const role of ROLES) {
        const values = Object.fromEntries(
          paramNames(route).map((n) => [n, encodeURIComponent(world.own[n]?.[0] ?? 'x')]),
        );
        const body = exampleBody(route);
        const token = world.tokens[role];
        const answer = await t.app.inject({
          method: route.method as 'GET',
          url: pathWith(route, values),
          headers: { ...exampleHeaders(route), ...(token ? { authorization: `Bearer ${token}` } : {}) },
          ...(body === undefined ? {} : { payload: body as object }),
        });
        const where = `${role}: ${route.method} ${path} answered ${answer.statusCode}`;
        const declared = responses[String(answer.statusCode)];
        assert.ok(declared, `${where}, which its reference does not declare`);
        seen.add(`${route.method} ${path} ${answer.statusCode}`);
        if (!answer.rawPayload.length) continue;
        const type = String(answer.headers['content-type'] ?? '').split(';')[0] ?? '';
        const types = Object.keys(declared.content ?? {});
        assert.ok(types.includes(type), `${where} as ${type}, declared as ${types.join(', ') || 'no content'}`);
      }
    }
    // The raw answers were reached, not only refused; so were the uploads.
    for (const answer of [
      'GET /api/workspace/export 200',
      'GET /api/workspace/export/screenshots 200',
      'GET /api/auth/sso/callback 302',
      'POST /api/comments/{id}/images 201',
      'PUT /api/comments/{id}/screenshot 200',
    ]) {
      assert.ok(seen.has(answer), `${answer} was tried`);
    }
  });
});
