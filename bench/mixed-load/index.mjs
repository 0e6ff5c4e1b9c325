// Benchmark of writes under polling, on SQLite and (when available) PostgreSQL: 500 readers
// poll unread-count while an API key replies to their comments (each reply notifies the
// comment's author, one of the readers). Load at steady rates from wrk, the server on core 0
// and the load on core 1. Each round measures a bare Fastify route under the same load (the
// floor of the load generator and the machine), writes alone (the baseline), polls alone,
// then both; the medians over the rounds are printed, with the mixed figures' ratio to the
// alone ones. BENCH_PROFILE=1 writes a CPU profile of the server to bench/.work/mixed-profile.
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findPostgresBin, startThrowawayPostgres } from '../../scripts/postgres.mjs';
import {
  busyPercent,
  cores,
  coreTicks,
  hasTaskset,
  hasWrk,
  openApp,
  paced,
  startProcess,
  startServer,
} from '../lib/harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const work = path.join(root, 'bench/.work');
const bareScript = path.join(root, 'bench/lib/bare-server.mjs');

const READERS = Number(process.env.BENCH_READERS ?? 500);
const POLLS = Number(process.env.BENCH_POLLS ?? 5000);
const WRITES = Number(process.env.BENCH_WRITES ?? 100);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/**
 * The polls' connections: one per reader by default, as each reader's browser holds its own
 * (fewer, each polling more often, let the generator slow down with the server and flatter it).
 */
const POLL_CONNECTIONS = Number(process.env.BENCH_POLL_CONNECTIONS ?? READERS);
const PROFILE = process.env.BENCH_PROFILE === '1';
// PostgreSQL's core: 1 beside the load (a database of its own, as on a database host: the
// goal's setting), or 0 beside the server (one core for all, as on a one-core machine).
const DATABASE_CORE = Number(process.env.BENCH_DATABASE_CORE ?? 1);

/** A workspace with a project, an API key, and READERS members each with a session and a comment. */
async function seed(database) {
  const app = await openApp(database, { signup: 'open' });
  try {
    const inject = async (method, url, token, payload) => {
      const answer = await app.inject({
        method,
        url,
        payload,
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });
      if (answer.statusCode >= 300) throw new Error(`${method} ${url}: ${answer.statusCode} ${answer.body}`);
      return answer.json();
    };
    const admin = await inject('POST', '/api/signup', null, {
      workspaceName: 'Bench',
      name: 'Ada Admin',
      email: 'ada@bench.test',
      password: 'a long passphrase',
    });
    await inject('POST', '/api/projects', admin.token, { key: 'site', name: 'Site' });
    const apiKey = (await inject('POST', '/api/me/api-keys', admin.token, { name: 'Agent' })).key;
    const now = new Date().toISOString();
    const workspaceId = admin.workspace.id;
    const readers = [];
    const users = [];
    const sessions = [];
    for (let i = 0; i < READERS; i++) {
      const userId = `usr_bench${String(i).padStart(21, '0')}`;
      const token = `svc_sess_${randomBytes(32).toString('base64url')}`;
      users.push({
        id: userId,
        workspace_id: workspaceId,
        email: `r${i}@bench.test`,
        name: `Reader ${i}`,
        role: 'member',
        password_hash: null,
        access_token_hash: null,
        project_id: null,
        created_at: now,
        removed_at: null,
        last_sign_in_at: null,
      });
      sessions.push({
        id: `ses_bench${String(i).padStart(21, '0')}`,
        workspace_id: workspaceId,
        user_id: userId,
        token_hash: createHash('sha256').update(token).digest('hex'),
        created_at: now,
        last_seen_at: now,
        user_agent: null,
      });
      readers.push(token);
    }
    const db = app.database.db;
    for (let i = 0; i < READERS; i += 100) {
      await db
        .insertInto('users')
        .values(users.slice(i, i + 100))
        .execute();
      await db
        .insertInto('sessions')
        .values(sessions.slice(i, i + 100))
        .execute();
    }
    const comments = [];
    for (const token of readers) {
      const comment = await inject('POST', '/api/projects/site/comments', token, {
        body: 'The price is hard to read',
        pageUrl: 'https://app.bench.test/pricing',
      });
      comments.push(comment.id);
    }
    return { readers, apiKey, comments };
  } finally {
    await app.close();
  }
}

/** Polls and replies at once (either rate may be 0), from core 1. */
async function load(url, seeded, { polls = 0, writes = 0, seconds = SECONDS }) {
  const before = coreTicks(0);
  const [pollResult, writeResult] = await Promise.all([
    polls
      ? paced({
          url,
          seconds,
          rate: polls,
          // Each reader on a connection of its own, polling about every 100 ms at 5,000/s.
          connections: POLL_CONNECTIONS,
          requests: seeded.readers.map((token) => [
            'GET',
            '/api/me/notifications/unread-count',
            { authorization: `Bearer ${token}` },
          ]),
        })
      : null,
    writes
      ? paced({
          url,
          seconds,
          rate: writes,
          // Each waits 300 ms between replies: the rate holds while answers take tens of ms.
          connections: 30,
          requests: seeded.comments.map((id, i) => [
            'POST',
            `/api/comments/${id}/replies`,
            { authorization: `Bearer ${seeded.apiKey}`, 'content-type': 'application/json' },
            JSON.stringify({ body: `Reply ${i}` }),
          ]),
        })
      : null,
  ]);
  // How much of the server's core the stretch used (its database's share too, when it shares the core).
  const busy = busyPercent(before, coreTicks(0));
  for (const result of [pollResult, writeResult]) if (result) result.busy = busy;
  return { polls: pollResult, writes: writeResult };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const row = (label, runs) => {
  const m = (key) => median(runs.map((r) => r[key]));
  const non2xx = runs.reduce((n, r) => n + r.non2xx, 0);
  const errors = runs.find((r) => r.errors)?.errors;
  console.log(
    `${label.padEnd(34)} ${m('rate').toFixed(0).padStart(6)}/s   p50 ${m('p50').toFixed(1).padStart(6)} ms   p99 ${m('p99').toFixed(1).padStart(6)} ms${runs[0].busy == null ? '' : `   core 0 ${m('busy').toFixed(0).padStart(3)}% busy`}${non2xx ? `   non-2xx ${non2xx}` : ''}${errors ? `   ${errors}` : ''}`,
  );
  return { p50: m('p50'), p99: m('p99') };
};

async function measure(label, database, env) {
  console.log(
    `\n${label}: ${READERS} readers; ${POLLS} polls/s and ${WRITES} replies/s; ${ROUNDS} rounds of ${SECONDS} s`,
  );
  const seeded = await seed(database);
  const profileDir = path.join(work, 'mixed-profile');
  const server = await startServer(
    { ...env, SVC_REPLIES_PER_MINUTE: '1000000', SVC_COMMENTS_PER_MINUTE: '1000000' },
    PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [],
  );
  const bare = await startProcess(0, bareScript);
  const bareOrigin = new URL(bare.url).origin;
  try {
    // Warm both up (JIT, caches, pools of connections), unreported.
    await load(bareOrigin, seeded, { polls: POLLS, writes: WRITES, seconds: 3 });
    await load(server.url, seeded, { polls: POLLS, writes: WRITES, seconds: 3 });
    const runs = { bare: [], writesAlone: [], pollsAlone: [], pollsMixed: [], writesMixed: [] };
    for (let round = 0; round < ROUNDS; round++) {
      runs.bare.push((await load(bareOrigin, seeded, { polls: POLLS, writes: WRITES })).polls);
      runs.writesAlone.push((await load(server.url, seeded, { writes: WRITES })).writes);
      // The replies just changed most readers' counts: a moment of polls, unreported, reads
      // them again, so that the baseline is polling as it runs, not its first second.
      await load(server.url, seeded, { polls: POLLS, seconds: 2 });
      runs.pollsAlone.push((await load(server.url, seeded, { polls: POLLS })).polls);
      const mixed = await load(server.url, seeded, { polls: POLLS, writes: WRITES });
      runs.pollsMixed.push(mixed.polls);
      runs.writesMixed.push(mixed.writes);
    }
    row('bare route, same load (the floor)', runs.bare);
    const writesAlone = row('replies alone (baseline)', runs.writesAlone);
    const pollsAlone = row('polls alone', runs.pollsAlone);
    const pollsMixed = row('polls, with the replies', runs.pollsMixed);
    const writesMixed = row('replies, with the polls', runs.writesMixed);
    console.log(
      `p99 with the other load, as a ratio to alone: polls ${(pollsMixed.p99 / pollsAlone.p99).toFixed(1)}, replies ${(writesMixed.p99 / writesAlone.p99).toFixed(1)}`,
    );
    console.log(
      `goal (polls p99 < 50 ms, replies p99 < 100 ms, mixed): ${pollsMixed.p99 < 50 && writesMixed.p99 < 100 ? 'met' : 'NOT met'}`,
    );
  } finally {
    await bare.stop();
    await server.stop();
  }
  if (PROFILE) console.log(`CPU profile written to ${path.relative(root, profileDir)}`);
}

if (!hasWrk) {
  console.log('mixed-load needs wrk for steady request rates: apt-get install -y wrk');
  process.exit(1);
}
console.log(
  `mixed-load benchmark: wrk at steady rates; ${hasTaskset && cores >= 2 ? 'server on core 0, load on core 1' : 'not pinned (needs taskset and 2 cores)'}`,
);
const dialects = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',');
if (dialects.includes('sqlite')) {
  const dataDir = path.join(work, 'mixed-sqlite');
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  await measure('SQLite', { dialect: 'sqlite', file: path.join(dataDir, 'svc.db') }, { SVC_DATA_DIR: dataDir });
}
if (!dialects.includes('postgres')) {
  // Left out on request.
} else if (findPostgresBin()) {
  const cluster = await startThrowawayPostgres({});
  // The database runs on DATABASE_CORE (its backends are forked from the postmaster and
  // inherit it).
  if (hasTaskset && cores >= 2) {
    const port = new URL(cluster.url).port;
    execFileSync('sh', [
      '-c',
      `for pid in $(pgrep -f "port=${port}"); do taskset -a -p -c ${DATABASE_CORE} $pid; for child in $(pgrep -P $pid); do taskset -p -c ${DATABASE_CORE} $child; done; done >/dev/null`,
    ]);
  }
  try {
    await measure(
      `PostgreSQL (on core ${DATABASE_CORE}: ${DATABASE_CORE === 0 ? "the server's" : "the load's"})`,
      { dialect: 'postgres', url: cluster.url },
      { DATABASE_URL: cluster.url },
    );
  } finally {
    cluster.stop();
  }
} else {
  console.log('\nPostgreSQL: skipped (no server binaries; apt-get install -y postgresql)');
}
