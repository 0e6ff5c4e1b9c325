import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { call, createTestDatabase, dialect, testConfig } from '../test/helpers.js';
import { killRemainingServers, startServer, startServers } from '../test/server-process.js';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';

const repositoryRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** Whether something listens on the port (a connection is accepted). */
function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

describe('configuration', () => {
  test('defaults follow the documented table', () => {
    const loaded = loadConfig({});
    assert.ok(loaded.ok);
    assert.equal(loaded.config.port, 8080);
    assert.equal(loaded.config.host, '127.0.0.1');
    assert.deepEqual(loaded.config.database, { dialect: 'sqlite', file: path.resolve('data', 'svc.db') });
    assert.equal(loaded.config.demo, true);
    assert.equal(loaded.config.signup, 'first');
    assert.equal(loaded.config.buildRateLimit, 120);
    assert.equal(loaded.config.pollFloorSeconds, 1);
    assert.equal(loaded.config.logLevel, 'info');
  });

  test('every problem is reported at once, and a database URL is never echoed', () => {
    const loaded = loadConfig({
      PORT: 'eighty',
      SVC_DEMO: 'maybe',
      SVC_BUILD_RATE_LIMIT: '0',
      SVC_LOG_LEVEL: 'loud',
      DATABASE_URL: 'mysql://user:hunter2@db/x',
    });
    assert.equal(loaded.ok, false);
    if (loaded.ok) return;
    assert.equal(loaded.problems.length, 5);
    assert.equal(loaded.problems.join('\n').includes('hunter2'), false);
  });

  test('SVC_TRUST_PROXY takes hops or addresses and CIDRs; SVC_LOG_FORMAT auto, json or pretty', () => {
    const trust = (value: string) => loadConfig({ SVC_TRUST_PROXY: value });
    const hops = trust('2');
    assert.ok(hops.ok);
    assert.equal(hops.config.trustProxy, 2);
    const listed = trust('10.0.0.0/8, 127.0.0.1,loopback,::1');
    assert.ok(listed.ok);
    assert.deepEqual(listed.config.trustProxy, ['10.0.0.0/8', '127.0.0.1', 'loopback', '::1']);
    for (const bad of ['true', '0', '11', '10.0.0.0/33', 'proxy.example.com', '10.0.0.1/8/2']) {
      const refused = trust(bad);
      assert.equal(refused.ok, false, bad);
      if (!refused.ok) assert.match(refused.problems.join(), /SVC_TRUST_PROXY/);
    }
    const defaults = loadConfig({});
    assert.ok(defaults.ok);
    assert.equal(defaults.config.trustProxy, null, 'no proxy trusted unless configured');
    assert.equal(defaults.config.logFormat, 'auto');
    assert.equal(loadConfig({ SVC_LOG_FORMAT: 'fancy' }).ok, false);
  });
});

describe('readiness', () => {
  test('listening before the migrations: /readyz says why, other routes answer 503, until migrated; then draining', async () => {
    const { database, drop } = await createTestDatabase();
    const app = await buildApp(testConfig(database), { deferMigrations: true });
    try {
      const notYet = await call(app, 'GET', '/readyz');
      assert.equal(notYet.status, 503);
      assert.match(notYet.body.detail, /database is being migrated/);
      assert.equal((await call(app, 'GET', '/healthz')).status, 200, 'alive all the same');
      const early = await call(app, 'POST', '/api/auth/login', { body: { email: 'a@b.test', password: 'x' } });
      assert.equal(early.status, 503);
      assert.equal(early.headers['retry-after'], '5');
      await app.migrate();
      assert.equal((await call(app, 'GET', '/readyz')).status, 200);
      assert.equal(
        (await call(app, 'POST', '/api/auth/login', { body: { email: 'a@b.test', password: 'x' } })).status,
        401,
      );
      app.readiness.phase = 'draining';
      const draining = await call(app, 'GET', '/readyz');
      assert.equal(draining.status, 503);
      assert.match(draining.body.detail, /shutting down/);
    } finally {
      await app.close();
      await drop();
    }
  });
});

describe('the server process', () => {
  test('on an empty SQLite database it creates the demo once, and SIGTERM exits 0', {
    skip: dialect !== 'sqlite',
  }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-start-'));
    try {
      const first = await startServer({ SVC_DATA_DIR: dataDir });
      await first.printed(/Stop it with Ctrl\+C/);
      assert.match(first.stdout(), /Admin: +admin@demo\.local/);
      // The server listens before it migrates: the audit log is pruned once its table exists.
      assert.doesNotMatch(first.stdout(), /pruning the audit log failed/);
      const key = /API key: +(svc_key_\S+)/.exec(first.stdout())?.[1];
      assert.ok(key);
      const me = await fetch(`${first.baseUrl}/api/me`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(me.status, 200);
      const demo = await fetch(`${first.baseUrl}/demo`);
      assert.equal(demo.status, 200);
      assert.match(await demo.text(), /<script src="\/widget\.js" data-project-key="demo"/);
      const widget = await fetch(`${first.baseUrl}/widget.js`);
      assert.equal(widget.status, 200, 'the built widget is served');
      assert.equal(await first.stop(), 0);

      const second = await startServer({ SVC_DATA_DIR: dataDir });
      await second.printed(/Stop it with Ctrl\+C/);
      assert.equal(/API key:/.test(second.stdout()), false, 'secrets are printed only once');
      assert.equal(await second.stop(), 0);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('npm start hands SIGTERM to the server: it drains, exits 0, frees the port; the banner is printed last', {
    skip: dialect !== 'sqlite',
    timeout: 240_000,
  }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-npm-start-'));
    const npm = spawn('npm', ['start'], {
      cwd: repositoryRoot,
      env: { PATH: process.env.PATH ?? '', HOME: dataDir, PORT: '0', HOST: '127.0.0.1', SVC_DATA_DIR: dataDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    npm.stdout.on('data', (chunk) => {
      out += chunk;
    });
    npm.stderr.on('data', (chunk) => {
      out += chunk;
    });
    // 'close': the exit code once every line of output has been read.
    const exited = new Promise<number | null>((resolve) => npm.once('close', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 200_000;
      while (!/Stop it with Ctrl\+C/.test(out) && Date.now() < deadline && npm.exitCode === null) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      const port = Number(/server ready at http:\/\/127\.0\.0\.1:(\d+)/.exec(out)?.[1]);
      assert.ok(port > 0, out);
      const ready = out.indexOf('server ready at');
      assert.ok(out.indexOf('Feedback comments is running') > ready, 'the banner comes after the logs');
      assert.ok(out.indexOf('Password:') > ready, 'and so do the demo secrets');
      await fetch(`http://127.0.0.1:${port}/healthz`);
      assert.equal(await listening(port), true);

      npm.kill('SIGTERM');
      assert.equal(await exited, 0, out);
      assert.match(out, /draining in-flight requests/);
      assert.match(out, /shutdown complete/);
      assert.equal(await listening(port), false, 'the port is free: no server left behind');
      assert.doesNotMatch(out, /"url":"\/healthz"/, 'probes are not logged at info');
    } finally {
      npm.kill('SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('an older server refuses a database migrated by a newer one, with a clear message', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-newer-'));
    const created = await createTestDatabase();
    const database =
      created.database.dialect === 'sqlite'
        ? { dialect: 'sqlite' as const, file: path.join(dataDir, 'svc.db') }
        : created.database;
    const drop = async () => {
      await created.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    };
    try {
      const app = await buildApp(testConfig(database));
      await sql`insert into kysely_migration (name, timestamp) values ('9999_from_a_newer_version', '2030-01-01T00:00:00.000Z')`.execute(
        app.database.db,
      );
      await app.close();
      const env: Record<string, string> =
        database.dialect === 'postgres' ? { DATABASE_URL: database.url } : { SVC_DATA_DIR: dataDir };
      await assert.rejects(startServer({ ...env, SVC_DEMO: 'false' }), (error: Error) => {
        assert.match(error.message, /exited with 1/);
        assert.match(error.message, /migrated by a newer version of this server \(it has 9999_from_a_newer_version/);
        return true;
      });
    } finally {
      await drop();
    }
  });

  test('an invalid configuration exits 1 listing the problems', async () => {
    await assert.rejects(startServer({ PORT: 'x', SVC_LOG_LEVEL: 'loud' }), (error: Error) => {
      assert.match(error.message, /exited with 1/);
      assert.match(error.message, /PORT must be an integer/);
      assert.match(error.message, /SVC_LOG_LEVEL must be one of/);
      return true;
    });
  });

  test('two processes started together on one empty PostgreSQL database both come up and seed the demo once', {
    skip: dialect !== 'postgres',
  }, async () => {
    const { database, drop } = await createTestDatabase();
    if (database.dialect !== 'postgres') return;
    try {
      const servers = await startServers(2, { DATABASE_URL: database.url });
      for (const server of servers) {
        assert.equal((await fetch(`${server.baseUrl}/readyz`)).status, 200);
      }
      const printed = servers.filter((s) => /API key:/.test(s.stdout()));
      assert.equal(printed.length, 1);
      for (const server of servers) assert.equal(await server.stop(), 0);
    } finally {
      await drop();
    }
  });
});

after(killRemainingServers);
