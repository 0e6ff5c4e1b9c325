import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { createTestDatabase, dialect } from '../test/helpers.js';
import { killRemainingServers, startServer, startServers } from '../test/server-process.js';
import { loadConfig } from './config.js';

describe('configuration', () => {
  test('defaults follow the documented table', () => {
    const loaded = loadConfig({});
    assert.ok(loaded.ok);
    assert.equal(loaded.config.port, 8080);
    assert.equal(loaded.config.host, '127.0.0.1');
    assert.deepEqual(loaded.config.database, { dialect: 'sqlite', file: path.resolve('data', 'svc.db') });
    assert.equal(loaded.config.demo, true);
    assert.equal(loaded.config.allowSignup, true);
    assert.equal(loaded.config.buildRateLimit, 120);
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
});

describe('the server process', () => {
  test('on an empty SQLite database it creates the demo once, and SIGTERM exits 0', {
    skip: dialect !== 'sqlite',
  }, async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-start-'));
    try {
      const first = await startServer({ SVC_DATA_DIR: dataDir });
      assert.match(first.stdout(), /Admin: +admin@demo\.local/);
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
      assert.equal(/API key:/.test(second.stdout()), false, 'secrets are printed only once');
      assert.equal(await second.stop(), 0);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
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
