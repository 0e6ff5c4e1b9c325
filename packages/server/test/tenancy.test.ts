import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.js';
import type { DatabaseConfig } from '../src/config.js';
import type { RegisteredRoute } from '../src/http/server.js';
import { createTestApp, createTestDatabase, TEST_SECRET_KEY, type TestApp, testConfig, withNewIds } from './helpers.js';
import {
  buildWorld,
  exampleBody,
  exampleHeaders,
  mentionFields,
  paramNames,
  pathWith,
  ROLES,
  type Role,
  rowCounts,
  signInAgain,
  strayMentions,
  switchQueries,
  type World,
} from './route-table.js';

const CALLERS = ROLES.filter((role): role is Exclude<Role, 'anonymous'> => role !== 'anonymous');

describe('tenancy matrix: every route x every role x a resource it may not reach', () => {
  let t: TestApp;
  let world: World;
  let tried = 0;
  before(async () => {
    // A route that removes part of the world, or requires a second factor of admins, has it built anew.
    t = await createTestApp({ limits: { signUpsPerAddress: 1000 } });
    world = await buildWorld(t.app);
  });
  after(async () => {
    process.stdout.write(`# tenancy: ${tried} cross-tenant requests over ${t.app.routeTable.length} routes\n`);
    await t.close();
  });

  /** `route`'s example body (or `body`) as `role`: an upload route gets an image, in its type. */
  const send = async (role: Role, route: RegisteredRoute, url: string, body = exampleBody(route)) => {
    const token = world.tokens[role];
    tried++;
    return t.app.inject({
      method: route.method as 'GET',
      url,
      headers: { ...exampleHeaders(route), ...(token ? { authorization: `Bearer ${token}` } : {}) },
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
            for (const query of ['', ...switchQueries(route)]) {
              const url = `${pathWith(route, values)}${query}`;
              const before = counts;
              const answer = await send(role, route, url);
              const where = `${role}: ${route.method} ${url} -> ${answer.statusCode} ${answer.body.slice(0, 200)}`;
              assert.ok([403, 404].includes(answer.statusCode), where);
              assert.equal(answer.json().code, answer.statusCode === 404 ? 'not_found' : 'forbidden', where);
              counts = await rowCounts(t.app);
              assert.deepEqual(counts, before, `wrote: ${where}`);
            }
          }
        }
      }
    }
  });

  test("another workspace's person, mentioned in any text that mentions (x-mentions): refused naming the text, nothing written, never shown", async () => {
    const routes = t.app.routeTable.filter((route) => mentionFields(route).length > 0);
    assert.deepEqual(
      routes.map((route) => `${route.method} ${route.url}`).sort(),
      ['POST /api/comments/:id/replies', 'POST /api/comments/:id/verify', 'POST /api/projects/:key/comments'],
      'the texts that hold mentions: a comment, a reply, a verdict’s note',
    );
    const [stranger] = world.people.foreign;
    assert.ok(stranger);
    for (const route of routes) {
      await signInAgain(world);
      const example = exampleBody(route) as Record<string, unknown>;
      // The example, and the example with each switch off: a verdict's note is read when it is not ok.
      const switches = Object.keys(example).filter((key) => typeof example[key] === 'boolean');
      const bodies = [example, ...switches.map((key) => ({ ...example, [key]: !example[key] }))];
      const values = Object.fromEntries(
        paramNames(route).map((n) => [n, encodeURIComponent(world.own[n]?.[0] ?? 'x')]),
      );
      for (const field of mentionFields(route)) {
        let namedTheField = false;
        for (const role of CALLERS) {
          for (const base of bodies) {
            const before = await rowCounts(t.app);
            const body: Record<string, unknown> = { ...base, [field]: `Look <@${stranger}|Alpha Admin> here` };
            const answer = await send(role, route, pathWith(route, values), body);
            const where: string = `${role}: ${route.method} ${route.url} ${JSON.stringify(body)} -> ${answer.statusCode} ${answer.body.slice(0, 200)}`;
            for (const marker of world.foreignMarkers) assert.equal(answer.body.includes(marker), false, where);
            if (answer.statusCode >= 400) assert.deepEqual(await rowCounts(t.app), before, `wrote: ${where}`);
            if (answer.statusCode === 400 && answer.json().errors?.[0]?.path === `/${field}`) namedTheField = true;
            assert.deepEqual(await strayMentions(t.app), [], where);
          }
        }
        assert.ok(
          namedTheField,
          `${route.method} ${route.url}: no caller was told /${field} mentions someone it may not`,
        );
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
        const answer = await send(role, route, pathWith(route, values));
        for (const marker of world.foreignMarkers) {
          assert.equal(answer.body.includes(marker), false, `${role}: ${route.method} ${route.url} answered ${marker}`);
        }
      }
    }
  });
});

describe('tenancy of an import, through the admin command: a file never writes into another workspace', () => {
  const adminEntry = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/admin.js');
  let world: World;
  let app: Awaited<ReturnType<typeof buildApp>>;
  let env: Record<string, string>;
  let drop: () => Promise<void>;
  let alphaExport: Record<string, any>[];
  before(async () => {
    const created = await createTestDatabase();
    let database: DatabaseConfig = created.database;
    drop = created.drop;
    if (database.dialect === 'postgres') {
      env = { DATABASE_URL: database.url };
    } else {
      // A file, so that the admin command's process opens the same database.
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-tenancy-import-'));
      database = { dialect: 'sqlite', file: path.join(dir, 'svc.db') };
      env = { SVC_DATA_DIR: dir };
      drop = async () => fs.rmSync(dir, { recursive: true, force: true });
    }
    app = await buildApp(testConfig(database));
    world = await buildWorld(app);
    const exported = await app.inject({
      method: 'GET',
      url: '/api/workspace/export',
      headers: { authorization: `Bearer ${world.tokens.admin}` },
    });
    alphaExport = exported.body
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
  });
  after(async () => {
    await app.close();
    await drop();
  });

  /** The admin command's import of `records`: refused (exit 1, no usage text) naming `line`, and no row of any table written. */
  async function refusedImport(records: unknown[], line: number, what: string) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-tenancy-file-'));
    try {
      const file = path.join(dir, 'export.jsonl');
      fs.writeFileSync(file, records.map((record) => JSON.stringify(record)).join('\n'));
      const before = await rowCounts(app);
      const run = spawnSync(process.execPath, [adminEntry, 'import', file], {
        env: { PATH: process.env.PATH ?? '', SVC_SECRET_KEY: TEST_SECRET_KEY.toString('base64'), ...env },
        encoding: 'utf8',
      });
      assert.equal(run.status, 1, `${what}: ${run.stdout}${run.stderr}`);
      assert.doesNotMatch(run.stderr, /Usage:/, `${what}: a refusal, not a mistake of usage`);
      assert.match(run.stderr, new RegExp(`line ${line}\\b`), what);
      assert.match(run.stderr, /nothing was imported/, what);
      assert.deepEqual(await rowCounts(app), before, `${what}: wrote`);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }

  test("each of another workspace's ids in a file is refused, naming its line", async () => {
    // The workspace itself: its own export, and one naming the other workspace.
    await refusedImport(alphaExport, 1, 'the export of a workspace that is here');
    const copy = withNewIds(alphaExport);
    await refusedImport(
      copy.map((record) =>
        record.type === 'export'
          ? { ...record, workspace: { ...record.workspace, id: world.foreignWorkspace } }
          : record,
      ),
      1,
      'a header naming another workspace',
    );
    // Every id of the other workspace, put in the place of one of the copy's of the same kind.
    const kinds = { project: 'prj_', user: 'usr_', comment: 'cmt_' } as const;
    for (const [type, prefix] of Object.entries(kinds)) {
      const foreignIds = (world.foreign.id ?? []).filter((id) => id.startsWith(prefix));
      assert.ok(foreignIds.length > 0, `the other workspace has a ${type}`);
      const at = copy.findIndex((record) => record.type === type);
      for (const id of foreignIds) {
        const edited = copy.map((record, i) =>
          i === at ? { ...record, id, ...(type === 'comment' ? { replies: [] } : {}) } : record,
        );
        await refusedImport(edited, at + 1, `${type} ${id}`);
      }
    }
  });
});
