// Benchmark of one tenant's heavy reads against another tenant's cheap ones: a workspace of
// 300k comments (two years of history, as the insights benchmark seeds it) whose eight members
// loop on a year of insights and on exports, while another workspace's member asks
// GET /api/me at a steady pace. Printed per database and setting: the other tenant's p50 and
// p99 alone (the baseline, same run) and under the heavy reads, and their ratio; the heavy
// reads answered (200) and refused (429) meanwhile. Two settings: the documented per-user
// limits, and no limits at all (what the reading thread and the roll-ups hold by themselves).
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { findPostgresBin, startThrowawayPostgres } from '../../scripts/postgres.mjs';
import { cores, hasTaskset, hasWrk, openApp, paced, pinned, startServer } from '../lib/harness.mjs';
import { historyStatements, runSeed, workspaceStatements } from '../lib/seed.mjs';

const COMMENTS = Number(process.env.BENCH_COMMENTS ?? 300_000);
const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 8);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** The other tenant's requests per second: a busy team's widgets and console. */
const RATE = Number(process.env.BENCH_RATE ?? 50);
/** Where the server writes its CPU profiles (one per thread, `--cpu-prof`), when set. */
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR;
const PROJECTS = 100;
const SPAN_SECONDS = 2 * 365 * 24 * 3600;
const root = path.resolve(import.meta.dirname, '../..');
const work = path.join(root, 'bench', '.work');

/** The heavy workspace's members' keys (as members.mjs makes them), and the other workspace's member's. */
const memberKey = (i) => `svc_key_${'m'.repeat(41)}${String(i).padStart(2, '0')}`;
const OTHER_KEY = `svc_key_${'o'.repeat(43)}`;
const OTHER_WS = `ws_${'9'.repeat(26)}`;
const hash = (key) => createHash('sha256').update(key).digest('hex');

async function seed(database) {
  const app = await openApp(database);
  const started = Date.now();
  const ts = database.dialect === 'sqlite' ? `'2026-01-01T00:00:00.000Z'` : `timestamptz '2026-01-01T00:00:00.000Z'`;
  const start = new Date(Date.now() - SPAN_SECONDS * 1000).toISOString();
  const keys = Array.from(
    { length: MEMBERS },
    (_, i) => `insert into api_keys (id, workspace_id, user_id, name, key_hash, last_four, created_at, last_used_at)
      values ('key_m${String(i).padStart(25, '0')}', 'ws_${'0'.repeat(26)}', 'usr_${String(i).padStart(26, '0')}', 'member ${i}',
      '${hash(memberKey(i))}', '${memberKey(i).slice(-4)}', ${ts}, null)`,
  );
  await runSeed(app, [
    ...workspaceStatements(database.dialect, PROJECTS),
    ...historyStatements(database.dialect, start, { comments: COMMENTS, projects: PROJECTS, seconds: SPAN_SECONDS }),
    ...keys,
    `insert into workspaces (id, name, created_at) values ('${OTHER_WS}', 'Other', ${ts})`,
    `insert into users (id, workspace_id, email, name, role, password_hash, access_token_hash, project_id, created_at)
      values ('usr_${'9'.repeat(26)}', '${OTHER_WS}', 'other@bench.test', 'Other', 'member', null, null, null, ${ts})`,
    `insert into api_keys (id, workspace_id, user_id, name, key_hash, last_four, created_at, last_used_at)
      values ('key_${'9'.repeat(26)}', '${OTHER_WS}', 'usr_${'9'.repeat(26)}', 'other', '${hash(OTHER_KEY)}', 'oooo', ${ts}, null)`,
  ]);
  await app.close();
  console.log(`  seeded ${COMMENTS} comments of two years in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

/**
 * The members looping on a year of insights and on exports (`members.mjs`), in a process of
 * their own on the load's core at the lowest priority, until stopped; then what they were answered.
 */
function heavyReads(url) {
  const members = [process.execPath, path.join(import.meta.dirname, 'members.mjs'), url, String(MEMBERS)];
  const child = spawn(...pinned(1, 'nice', ['-n', '19', ...members]), { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (data) => {
    out += data;
  });
  const exited = new Promise((resolve) => child.on('exit', resolve));
  return {
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      return JSON.parse(out);
    },
  };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function measure(label, env, limits) {
  const server = await startServer(
    {
      ...env,
      ...(limits ? {} : { SVC_INSIGHTS_PER_MINUTE: '1000000', SVC_EXPORTS_PER_HOUR: '1000000' }),
    },
    PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${path.join(PROFILE_DIR, limits ? 'limits' : 'no-limits')}`] : [],
  );
  const origin = new URL(server.url).origin;
  const other = (seconds) =>
    paced({
      url: origin,
      seconds,
      rate: RATE,
      connections: 10,
      requests: [['GET', '/api/me', { authorization: `Bearer ${OTHER_KEY}` }]],
    });
  try {
    await other(2);
    const alone = [];
    const loaded = [];
    const totals = { ok: 0, refused: 0, other: 0 };
    for (let round = 0; round < ROUNDS; round++) {
      alone.push(await other(SECONDS));
      const heavy = heavyReads(origin);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      loaded.push(await other(SECONDS));
      const counts = await heavy.stop();
      for (const key of Object.keys(totals)) totals[key] += counts[key];
    }
    const p = (runs, key) => median(runs.map((run) => run[key]));
    const [aloneP50, aloneP99, loadedP50, loadedP99] = [
      p(alone, 'p50'),
      p(alone, 'p99'),
      p(loaded, 'p50'),
      p(loaded, 'p99'),
    ];
    console.log(
      `  ${label}: other tenant's GET /api/me at ${RATE}/s, p50 ${aloneP50.toFixed(1)} ms alone (baseline) → ${loadedP50.toFixed(1)} ms; ` +
        `p99 ${aloneP99.toFixed(1)} ms → ${loadedP99.toFixed(1)} ms: ${(loadedP99 / aloneP99).toFixed(1)}x (goal ≤ 3x: ${loadedP99 <= 3 * aloneP99 ? 'met' : 'NOT met'})`,
    );
    console.log(
      `    heavy reads meanwhile: ${totals.ok} answered, ${totals.refused} refused (429)${totals.other ? `, ${totals.other} other` : ''}`,
    );
  } finally {
    await server.stop();
  }
}

async function onDatabase(label, database, env) {
  console.log(`\n${label}: ${COMMENTS} comments, ${MEMBERS} members looping on insights (a year) and exports`);
  await seed(database);
  await measure('documented limits', env, true);
  await measure('no limits', env, false);
}

if (!hasWrk) {
  console.log('heavy-reads needs wrk for a steady request rate: apt-get install -y wrk');
  process.exit(1);
}
console.log(
  `heavy-reads benchmark: ${ROUNDS} rounds of ${SECONDS} s; ${hasTaskset && cores >= 2 ? 'server on core 0, load on core 1' : 'not pinned (needs taskset and 2 cores)'}`,
);
const dialects = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',');
if (dialects.includes('sqlite')) {
  const dataDir = path.join(work, 'heavy-reads-sqlite');
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    await onDatabase('SQLite', { dialect: 'sqlite', file: path.join(dataDir, 'svc.db') }, { SVC_DATA_DIR: dataDir });
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
if (dialects.includes('postgres')) {
  if (!findPostgresBin()) {
    console.log('\nPostgreSQL: skipped (no server binaries; apt-get install -y postgresql)');
  } else {
    const cluster = await startThrowawayPostgres({ settings: { shared_buffers: '512MB', max_wal_size: '4GB' } });
    // The database on core 1 beside the load, as a service of its own (see mixed-load).
    if (hasTaskset && cores >= 2) {
      const port = new URL(cluster.url).port;
      execFileSync('sh', ['-c', `for pid in $(pgrep -f "port=${port}"); do taskset -a -p -c 1 $pid; done >/dev/null`]);
    }
    try {
      await onDatabase(
        'PostgreSQL (on core 1)',
        { dialect: 'postgres', url: cluster.url },
        { DATABASE_URL: cluster.url },
      );
    } finally {
      cluster.stop();
    }
  }
}
