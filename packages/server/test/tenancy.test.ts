import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp } from './helpers.js';
import {
  buildWorld,
  exampleBody,
  paramNames,
  pathWith,
  ROLES,
  type Role,
  rowCounts,
  signInAgain,
  type World,
} from './route-table.js';

const CALLERS = ROLES.filter((role): role is Exclude<Role, 'anonymous'> => role !== 'anonymous');

describe('tenancy matrix: every route x every role x a resource it may not reach', () => {
  let t: TestApp;
  let world: World;
  let tried = 0;
  before(async () => {
    t = await createTestApp();
    world = await buildWorld(t.app);
  });
  after(async () => {
    process.stdout.write(`# tenancy: ${tried} cross-tenant requests over ${t.app.routeTable.length} routes\n`);
    await t.close();
  });

  const send = async (role: Role, method: string, url: string, body: unknown) => {
    const token = world.tokens[role];
    tried++;
    return t.app.inject({
      method: method as 'GET',
      url,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}) },
      ...(body === undefined ? {} : { payload: body as object }),
    });
  };

  test('every request body of the API has an example that passes validation, so the matrix reaches the handlers', () => {
    for (const route of t.app.routeTable) {
      if (route.schema?.body)
        assert.ok(exampleBody(route) !== undefined, `${route.method} ${route.url} has no example`);
    }
  });

  test("another workspace's resources: 404 (or 403 where the role is refused first), nothing written", async () => {
    const routes = t.app.routeTable.filter((route) => route.url.startsWith('/api/') && paramNames(route).length > 0);
    assert.ok(routes.length >= 10, `${routes.length} routes with a resource in their path`);
    for (const route of routes) {
      await signInAgain(world);
      // Every request here is refused: the rows one leaves are the next one's starting point.
      let counts = await rowCounts(t.app);
      for (const role of CALLERS) {
        for (const name of paramNames(route)) {
          const foreignValues = [...(world.foreign[name] ?? [])];
          if (role === 'limitedClient' && name === 'key') foreignValues.push(world.otherProjectKey);
          for (const value of foreignValues) {
            const values = Object.fromEntries(paramNames(route).map((n) => [n, world.own[n]?.[0] ?? 'x']));
            values[name] = encodeURIComponent(value);
            const url = pathWith(route, values);
            const before = counts;
            const answer = await send(role, route.method, url, exampleBody(route));
            const where = `${role}: ${route.method} ${url} -> ${answer.statusCode} ${answer.body.slice(0, 200)}`;
            assert.ok([403, 404].includes(answer.statusCode), where);
            assert.equal(answer.json().code, answer.statusCode === 404 ? 'not_found' : 'forbidden', where);
            counts = await rowCounts(t.app);
            assert.deepEqual(counts, before, `wrote: ${where}`);
          }
        }
      }
    }
  });

  test('no answer to a caller of one workspace ever names anything of another', async () => {
    for (const route of t.app.routeTable.filter((r) => r.url.startsWith('/api/'))) {
      await signInAgain(world);
      for (const role of CALLERS) {
        const values = Object.fromEntries(
          paramNames(route).map((n) => [n, encodeURIComponent(world.own[n]?.[0] ?? 'x')]),
        );
        const answer = await send(role, route.method, pathWith(route, values), exampleBody(route));
        for (const marker of world.foreignMarkers) {
          assert.equal(answer.body.includes(marker), false, `${role}: ${route.method} ${route.url} answered ${marker}`);
        }
      }
    }
  });
});
