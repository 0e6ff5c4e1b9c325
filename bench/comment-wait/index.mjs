// Benchmark of the long poll agents wait on (GET /api/comments/changes): how long after a
// comment is written a waiting request answers — in one process (SQLite) and across two
// processes (PostgreSQL, through the change feed) — against a plain request's round trip in
// the same run; and what 1,000 idle waiters cost the server process in memory and CPU.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findPostgresBin, startThrowawayPostgres } from '../../scripts/postgres.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const work = path.join(root, 'bench/.work');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 60);
const WAITERS = Number(process.env.BENCH_WAITERS ?? 1000);

// One keep-alive agent with room for every waiter.
const agent = new http.Agent({ keepAlive: true, maxSockets: WAITERS + 50 });

function request(base, method, url, { token, body } = {}) {
  return new Promise((resolve, reject) => {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(
      `${base}${url}`,
      {
        method,
        agent,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(payload ? { 'content-type': 'application/json' } : {}),
        },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk) => {
          text += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode, body: text ? JSON.parse(text) : undefined }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

function startServer(env) {
  const child = spawn(process.execPath, [path.join(root, 'packages/server/dist/server.js')], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', SVC_DEMO: 'false', SVC_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr.on('data', (chunk) => {
    out += chunk;
  });
  return new Promise((resolve, reject) => {
    const poll = setInterval(() => {
      const match = /ready at (http:\/\/[^\s"]+)/.exec(out);
      if (!match) return;
      clearInterval(poll);
      resolve({
        base: match[1],
        pid: child.pid,
        stop: () =>
          new Promise((done) => {
            child.once('exit', done);
            child.kill('SIGTERM');
          }),
      });
    }, 50);
    child.once('exit', (code) => {
      clearInterval(poll);
      reject(new Error(`server exited with ${code}:\n${out}`));
    });
  });
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const ms = (value) => `${value.toFixed(2).padStart(7)} ms`;

/** Wake-up latency: from the write's answer to the waiter's answer. */
async function measure(label, writer, reader) {
  const signup = await request(writer, 'POST', '/api/signup', {
    body: { workspaceName: 'W', name: 'Agent', email: `agent-${Date.now()}@bench.test`, password: 'long enough pass' },
  });
  const token = signup.body.token;
  await request(writer, 'POST', '/api/projects', { token, body: { key: 'site', name: 'Site' } });
  const baseline = [];
  for (let i = 0; i < ROUNDS; i++) {
    const started = performance.now();
    await request(reader, 'GET', '/api/comments/changes?project=site', { token });
    baseline.push(performance.now() - started);
  }
  const wake = [];
  let { cursor } = (await request(reader, 'GET', '/api/comments/changes?project=site', { token })).body;
  for (let i = 0; i < ROUNDS; i++) {
    const waiting = request(reader, 'GET', `/api/comments/changes?project=site&cursor=${cursor}&wait=30`, {
      token,
    }).then((answer) => ({ answer, at: performance.now() }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    await request(writer, 'POST', '/api/projects/site/comments', {
      token,
      body: { body: `Round ${i}`, pageUrl: 'https://app.bench.test/' },
    });
    const written = performance.now();
    const { answer, at } = await waiting;
    if (answer.body.items.length !== 1) throw new Error(`round ${i}: ${JSON.stringify(answer.body)}`);
    cursor = answer.body.cursor;
    wake.push(at - written);
  }
  console.log(`\n${label}`);
  console.log(
    `  a changes request answering at once (baseline)   p50 ${ms(percentile(baseline, 50))}   p99 ${ms(percentile(baseline, 99))}`,
  );
  console.log(
    `  write answered -> waiter answered                 p50 ${ms(percentile(wake, 50))}   p99 ${ms(percentile(wake, 99))}`,
  );
  console.log(`  wake-up / baseline (p50): ${(percentile(wake, 50) / percentile(baseline, 50)).toFixed(2)}x`);
  return token;
}

/** Resident memory (KB) and CPU time (clock ticks) of a process, from /proc. */
function usage(pid) {
  const rss = Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return { rss, cpu: Number(fields[11]) + Number(fields[12]) };
}

async function idleWaiters(server, token) {
  const { cursor } = (await request(server.base, 'GET', '/api/comments/changes?project=site', { token })).body;
  const before = usage(server.pid);
  const waiting = Array.from({ length: WAITERS }, () =>
    request(server.base, 'GET', `/api/comments/changes?project=site&cursor=${cursor}&wait=60`, { token }),
  );
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const held = usage(server.pid);
  await new Promise((resolve) => setTimeout(resolve, 10_000));
  const after = usage(server.pid);
  const ticks = after.cpu - held.cpu;
  console.log(`\n${WAITERS} idle waiters on one process (SQLite)`);
  console.log(
    `  resident memory: ${(before.rss / 1024).toFixed(1)} MB before, ${(held.rss / 1024).toFixed(1)} MB with them waiting (+${((held.rss - before.rss) / WAITERS).toFixed(1)} KB each)`,
  );
  console.log(
    `  CPU while they wait 10 s: ${ticks} clock ticks (${((ticks / 100 / 10) * 100).toFixed(1)} % of a core)`,
  );
  // One comment answers them all.
  const started = performance.now();
  await request(server.base, 'POST', '/api/projects/site/comments', {
    token,
    body: { body: 'for all', pageUrl: 'https://a.test/' },
  });
  const answers = await Promise.all(waiting);
  console.log(
    `  one comment answered all ${answers.filter((a) => a.body.items.length === 1).length} in ${ms(performance.now() - started)}`,
  );
}

console.log(`comment-wait benchmark: ${ROUNDS} rounds, ${WAITERS} idle waiters`);
fs.mkdirSync(work, { recursive: true });
const dataDir = path.join(work, `wait-sqlite-${process.pid}`);
const sqlite = await startServer({ SVC_DATA_DIR: dataDir, SVC_COMMENTS_PER_MINUTE: '100000' });
try {
  const token = await measure('SQLite, one process', sqlite.base, sqlite.base);
  await idleWaiters(sqlite, token);
} finally {
  await sqlite.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
if (findPostgresBin()) {
  const cluster = await startThrowawayPostgres();
  const [a, b] = [
    await startServer({ DATABASE_URL: cluster.url, SVC_COMMENTS_PER_MINUTE: '100000' }),
    await startServer({ DATABASE_URL: cluster.url, SVC_COMMENTS_PER_MINUTE: '100000' }),
  ];
  try {
    await measure('PostgreSQL, written through one process, waited on the other', a.base, b.base);
  } finally {
    await a.stop();
    await b.stop();
    cluster.stop();
  }
} else {
  console.log('\nPostgreSQL: skipped (no server binaries; apt-get install -y postgresql)');
}
agent.destroy();
