import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { call, createComment, createProject, dialect, signUp, testConfig } from '../../../test/helpers.js';
import { buildApp } from '../../app.js';

describe('long reads of a SQLite file run on a thread of their own', { skip: dialect !== 'sqlite' }, () => {
  let dir: string;
  let app: Awaited<ReturnType<typeof buildApp>>;
  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-reader-'));
    app = await buildApp(testConfig({ dialect: 'sqlite', file: path.join(dir, 'svc.db') }));
  });
  after(async () => {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  test('a read of seconds there leaves the server’s thread free: its timers keep running meanwhile', async () => {
    assert.notEqual(app.database.reads, app.database.db, 'a reader of its own');
    let ticks = 0;
    let reading = true;
    const tick = () => {
      ticks++;
      if (reading) setImmediate(tick);
    };
    setImmediate(tick);
    // Some hundreds of milliseconds of the database's own work, whatever the machine.
    const { rows } = await sql<{
      n: number;
    }>`with recursive count(n) as (select 1 union all select n + 1 from count where n < 3000000)
      select max(n) as n from count`.execute(app.database.reads);
    reading = false;
    assert.equal(rows[0]?.n, 3_000_000);
    assert.ok(ticks > 10, `the server's thread ran ${ticks} times while the read ran`);
  });

  test('what it reads is what was committed: insights, a search and an export see a write at once', async () => {
    const admin = await signUp(app);
    const project = await createProject(app, admin);
    await createComment(app, admin, project.key, 'The zebra stripes are misaligned');
    const found = await call(app, 'GET', '/api/comments?q=zebra', { token: admin.token });
    assert.equal(found.status, 200);
    assert.equal(found.body.items.length, 1);
    const insights = await call(app, 'GET', '/api/workspace/insights?days=366', { token: admin.token });
    assert.equal(insights.body.backlog.open, 1);
    assert.equal(insights.body.backlog.days.at(-1).created, 1);
    const exported = await app.inject({
      method: 'GET',
      url: '/api/workspace/export',
      headers: { authorization: `Bearer ${admin.token}` },
    });
    assert.match(exported.body, /The zebra stripes are misaligned/);
  });

  test('it refuses writes: the thread has a read-only connection', async () => {
    await assert.rejects(
      sql`insert into workspaces (id, name, created_at) values ('ws_x', 'X', 'now')`.execute(app.database.reads),
      /Only reads|readonly/i,
    );
  });
});
