import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { dialect } from '../test/helpers.js';
import { killRemainingServers, type ServerProcess, startServer } from '../test/server-process.js';

const DEADLINE_MS = 2_000;
/**
 * Time to spare for the exit itself on a loaded machine: a bound that only says the process
 * did not hang, not how fast it was.
 */
const SLACK_MS = 8_000;

function exitOf(server: ServerProcess): Promise<{ code: number | null; afterMs: number }> {
  const sent = Date.now();
  return new Promise((resolve) => {
    if (server.child.exitCode !== null) resolve({ code: server.child.exitCode, afterMs: 0 });
    server.child.once('exit', (code) => resolve({ code, afterMs: Date.now() - sent }));
  });
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = net.createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

/** Enough requests that their log lines overflow a pipe nobody reads (64 KiB plus Node's buffer). */
async function fillTheLog(baseUrl: string): Promise<void> {
  for (let batch = 0; batch < 30; batch++) {
    await Promise.all(Array.from({ length: 20 }, () => fetch(`${baseUrl}/healthz`).then((r) => r.arrayBuffer())));
  }
}

describe('shutdown ends the process, whatever its output is connected to', { skip: dialect !== 'sqlite' }, () => {
  let dataDir: string;
  before(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-shutdown-'));
  });
  after(() => {
    killRemainingServers();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  // One SQLite file per concurrent process: a file belongs to one server.
  const env = (slot = 0) => ({
    SVC_DATA_DIR: path.join(dataDir, String(slot)),
    SVC_DEMO: 'false',
    SVC_SHUTDOWN_TIMEOUT_MS: String(DEADLINE_MS),
  });

  // Exit code 0 is the server's own word that it finished before its deadline (past it, it
  // exits 1): no wall-clock bound here, and a deadline generous enough for a machine at load 9.
  test('SIGTERM while the parent stops reading stdout and stderr: every run exits 0 in time and frees the port', {
    timeout: 600_000,
  }, async () => {
    const runs = 24;
    for (let run = 0; run < runs; run += 2) {
      await Promise.all(
        [run, run + 1].map(async (i) => {
          const server = await startServer({ ...env(i % 2), SVC_SHUTDOWN_TIMEOUT_MS: '15000' });
          const port = Number(new URL(server.baseUrl).port);
          // Half the runs leave the pipes open and full (a reader that stopped reading),
          // half close them (a parent that exited right after the signal).
          if (i % 2 === 0) {
            server.child.stdout?.pause();
            server.child.stderr?.pause();
            await fillTheLog(server.baseUrl);
          } else {
            await fillTheLog(server.baseUrl);
          }
          const exited = exitOf(server);
          server.child.kill('SIGTERM');
          if (i % 2 === 1) {
            server.child.stdout?.destroy();
            server.child.stderr?.destroy();
          }
          const { code } = await exited;
          assert.equal(code, 0, `run ${i}: exit code`);
          assert.ok(await portIsFree(port), `run ${i}: port ${port} is free`);
        }),
      );
    }
  });

  test('a request whose body never finishes does not hold the process past the deadline', {
    timeout: 60_000,
  }, async () => {
    const server = await startServer(env());
    const port = Number(new URL(server.baseUrl).port);
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"email":',
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    let stderr = '';
    server.child.stderr?.on('data', (chunk) => {
      stderr += chunk;
    });
    const exited = exitOf(server);
    server.child.kill('SIGTERM');
    const { code, afterMs } = await exited;
    socket.destroy();
    assert.equal(code, 1, 'a shutdown that had to give up exits 1');
    assert.ok(afterMs >= DEADLINE_MS - 100, `waited for the deadline (${afterMs} ms)`);
    assert.ok(afterMs < DEADLINE_MS + SLACK_MS, `exited after ${afterMs} ms`);
    assert.match(stderr, /Shutdown did not finish within 2000 ms .*still pending: draining in-flight requests/);
    assert.match(stderr, /1 connection\(s\) open/);
    assert.ok(await portIsFree(port));
  });

  test('a second SIGTERM during a stuck shutdown exits at once', { timeout: 60_000 }, async () => {
    const server = await startServer({ ...env(), SVC_SHUTDOWN_TIMEOUT_MS: '60000' });
    const port = Number(new URL(server.baseUrl).port);
    const socket = net.connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 9\r\n\r\n{',
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const exited = exitOf(server);
    server.child.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.equal(server.child.exitCode, null, 'still draining after the first signal');
    server.child.kill('SIGTERM');
    const { code, afterMs } = await exited;
    socket.destroy();
    assert.equal(code, 1);
    assert.ok(afterMs < 300 + SLACK_MS, `exited after ${afterMs} ms`);
  });
});
