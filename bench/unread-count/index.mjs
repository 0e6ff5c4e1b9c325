// Benchmark of the polled hot path, GET /api/me/notifications/unread-count, against a bare
// Fastify route measured in the same run: on SQLite and (when available) PostgreSQL.
// Data: 100 workspaces × 1 000 users (100k), 2M notifications, 20k distinct polling tokens.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findPostgresBin, startThrowawayPostgres } from '../../scripts/postgres.mjs';
import { cores, hasTaskset, hasWrk, load, openApp, printRow, startProcess } from '../lib/harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const work = path.join(root, 'bench/.work');
const serverScript = path.join(root, 'packages/server/dist/server.js');
const bareScript = path.join(root, 'bench/lib/bare-server.mjs');

const USERS = Number(process.env.BENCH_USERS ?? 100_000);
const NOTIFICATIONS = Number(process.env.BENCH_NOTIFICATIONS ?? 2_000_000);
const TOKENS = Number(process.env.BENCH_TOKENS ?? 20_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CONNECTIONS = 50;
const WARM_SECONDS = Number(process.env.BENCH_WARM_SECONDS ?? 15);
const PER_WORKSPACE = 1000;
const TS = '2026-01-01T00:00:00.000Z';

const id = (prefix, n) => `${prefix}_${String(n).padStart(26, '0')}`;

/** Rows with SQL only (recursive CTE / generate_series): seeding 2M rows from JS would dominate the run. */
function seedStatements(dialect) {
  const seq = (count) =>
    dialect === 'sqlite'
      ? `with recursive seq(n) as (select 0 union all select n + 1 from seq where n < ${count - 1}) `
      : '';
  const from = (count) => (dialect === 'sqlite' ? 'from seq' : `from generate_series(0, ${count - 1}) as seq(n)`);
  const pad = (prefix, expr) =>
    dialect === 'sqlite' ? `printf('${prefix}_%026d', ${expr})` : `'${prefix}_' || lpad((${expr})::text, 26, '0')`;
  const div = (a, b) => (dialect === 'sqlite' ? `(${a}) / ${b}` : `(${a}) / ${b}`);
  const workspaces = Math.ceil(USERS / PER_WORKSPACE);
  const unread = dialect === 'sqlite' ? 'abs(random()) % 10 < 3' : 'random() < 0.3';
  const ts = dialect === 'sqlite' ? `'${TS}'` : `timestamptz '${TS}'`;
  return [
    `${seq(workspaces)}insert into workspaces (id, name, created_at) select ${pad('ws', 'n')}, 'W', ${ts} ${from(workspaces)}`,
    `${seq(workspaces)}insert into projects (id, workspace_id, key, name, repo_url, allowed_origins, created_at)
      select ${pad('prj', 'n')}, ${pad('ws', 'n')}, 'site', 'Site', null, '[]', ${ts} ${from(workspaces)}`,
    `${seq(USERS)}insert into users (id, workspace_id, email, name, role, password_hash, access_token_hash, project_id, created_at)
      select ${pad('usr', 'n')}, ${pad('ws', div('n', PER_WORKSPACE))}, 'u' || n || '@bench.test', 'User', 'member', null, null, null, ${ts} ${from(USERS)}`,
    `${seq(USERS)}insert into comments (id, workspace_id, project_id, author_id, body, page_url, anchor_selector, anchor_x, anchor_y,
      status, commit_sha, commit_url, applied_by_id, applied_at, verified_at, deployed_at, deployed_build_sha, reply_count, created_at, updated_at)
      select ${pad('cmt', 'n')}, ${pad('ws', div('n', PER_WORKSPACE))}, ${pad('prj', div('n', PER_WORKSPACE))}, ${pad('usr', 'n')},
      'Comment', 'https://a.test/', null, null, null, 'open', null, null, null, null, null, null, null, 0, ${ts}, ${ts} ${from(USERS)}`,
    `${seq(NOTIFICATIONS)}insert into notifications (id, workspace_id, recipient_id, type, comment_id, actor_id, excerpt, commit_sha, commit_url, read_at, created_at)
      select ${pad('ntf', 'n')}, ${pad('ws', div(`n % ${USERS}`, PER_WORKSPACE))}, ${pad('usr', `n % ${USERS}`)}, 'ReplyAdded',
      ${pad('cmt', `n % ${USERS}`)}, null, 'A reply', null, null, case when ${unread} then null else ${ts} end, ${ts} ${from(NOTIFICATIONS)}`,
  ];
}

/** Creates 20k sessions spread over the users, and writes "token etag" lines for the load generator. */
async function seedTokens(exec, query, tokensFile) {
  const lines = [];
  const step = Math.max(1, Math.floor(USERS / TOKENS));
  const rows = [];
  for (let i = 0; i < TOKENS; i++) {
    const user = (i * step) % USERS;
    const token = `svc_sess_${randomBytes(32).toString('base64url')}`;
    const hash = createHash('sha256').update(token).digest('hex');
    rows.push(
      `('${id('ses', i)}', '${id('ws', Math.floor(user / PER_WORKSPACE))}', '${id('usr', user)}', '${hash}', '${TS}')`,
    );
    lines.push([token, id('usr', user)]);
  }
  for (let i = 0; i < rows.length; i += 1000) {
    await exec(
      `insert into sessions (id, workspace_id, user_id, token_hash, created_at) values ${rows.slice(i, i + 1000).join(',')}`,
    );
  }
  const counts = new Map(
    (
      await query(
        `select s.user_id as user_id, count(n.id) as count from sessions s
         left join notifications n on n.recipient_id = s.user_id and n.read_at is null group by s.user_id`,
      )
    ).map((row) => [row.user_id, Number(row.count)]),
  );
  fs.writeFileSync(tokensFile, `${lines.map(([token, user]) => `${token} "${counts.get(user) ?? 0}"`).join('\n')}\n`);
}

/** Opening the app migrates the database. */
async function migrate(database) {
  await (await openApp(database)).close();
}

async function prepareSqlite() {
  fs.mkdirSync(work, { recursive: true });
  const dataDir = path.join(work, 'unread-sqlite');
  const tokensFile = path.join(dataDir, 'tokens.txt');
  const marker = path.join(dataDir, `seeded-${USERS}-${NOTIFICATIONS}-${TOKENS}`);
  if (!fs.existsSync(marker)) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.mkdirSync(dataDir, { recursive: true });
    const file = path.join(dataDir, 'svc.db');
    await migrate({ dialect: 'sqlite', file });
    const { default: SQLite } = await import('better-sqlite3');
    const db = new SQLite(file);
    db.pragma('journal_mode = WAL');
    const started = Date.now();
    db.transaction(() => {
      for (const statement of seedStatements('sqlite')) db.exec(statement);
    })();
    await seedTokens(
      async (sql) => db.exec(sql),
      async (sql) => db.prepare(sql).all(),
      tokensFile,
    );
    db.exec('analyze');
    db.close();
    fs.writeFileSync(marker, '');
    console.log(`seeded SQLite in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  } else {
    console.log('reusing the seeded SQLite database in bench/.work');
  }
  return { env: { SVC_DATA_DIR: dataDir }, tokensFile, cleanup: () => {} };
}

async function preparePostgres() {
  const cluster = await startThrowawayPostgres({ settings: { shared_buffers: '512MB', max_wal_size: '4GB' } });
  try {
    await migrate({ dialect: 'postgres', url: cluster.url });
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    const started = Date.now();
    for (const statement of seedStatements('postgres')) await client.query(statement);
    const tokensFile = path.join(work, 'unread-postgres-tokens.txt');
    fs.mkdirSync(work, { recursive: true });
    await seedTokens(
      (sql) => client.query(sql),
      async (sql) => (await client.query(sql)).rows,
      tokensFile,
    );
    await client.query('analyze');
    await client.end();
    console.log(`seeded PostgreSQL in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return { env: { DATABASE_URL: cluster.url }, tokensFile, cleanup: () => cluster.stop() };
  } catch (error) {
    cluster.stop();
    throw error;
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * Both servers run at once on the same core (each idle while the other is loaded), and
 * short runs alternate between them: this machine's noise then hits both alike, and the
 * median of the per-round ratios is the figure that holds.
 */
async function measure(label, prepared) {
  console.log(`\n${label}: ${USERS} users, ${NOTIFICATIONS} notifications, ${TOKENS} polling tokens`);
  const bare = await startProcess(0, bareScript);
  const server = await startProcess(0, serverScript, {
    ...prepared.env,
    PORT: '0',
    SVC_DEMO: 'false',
    SVC_LOG_LEVEL: 'info',
  });
  const url = `${server.url}/api/me/notifications/unread-count`;
  const tokensFile = prepared.tokensFile;
  try {
    // Passes over every token fill the caches, as a running server's would be: the cold
    // start costs two queries per token and is reported on its own.
    const cold = await load({ url, seconds: WARM_SECONDS, connections: CONNECTIONS, tokensFile });
    // The baseline gets the same requests (same tokens, same script in the load generator),
    // so that only the server differs between the two figures.
    await load({ url: bare.url, seconds: 2, connections: CONNECTIONS, tokensFile });
    const rounds = { baseline: [], endpoint: [], notModified: [] };
    for (let round = 0; round < ROUNDS; round++) {
      rounds.baseline.push(await load({ url: bare.url, seconds: SECONDS, connections: CONNECTIONS, tokensFile }));
      rounds.endpoint.push(await load({ url, seconds: SECONDS, connections: CONNECTIONS, tokensFile }));
      rounds.notModified.push(
        await load({ url, seconds: SECONDS, connections: CONNECTIONS, tokensFile, withEtag: true }),
      );
    }
    const summary = (runs) => ({
      rps: median(runs.map((r) => r.rps)),
      p99: median(runs.map((r) => r.p99)),
      non2xx: runs.reduce((n, r) => n + r.non2xx, 0),
      errors: runs.map((r) => r.errors).find(Boolean) ?? '',
    });
    const ratio = (runs) => median(runs.map((r, i) => r.rps / rounds.baseline[i].rps));
    const baseline = summary(rounds.baseline);
    printRow('bare Fastify route (baseline)', baseline);
    printRow(`unread-count, first ${WARM_SECONDS} s (cold caches)`, cold, baseline);
    printRow('unread-count, 200', { ...summary(rounds.endpoint), ratio: ratio(rounds.endpoint) }, baseline);
    printRow(
      'unread-count, If-None-Match → 304',
      { ...summary(rounds.notModified), ratio: ratio(rounds.notModified) },
      baseline,
    );
    console.log(
      `per-round ratios, 200: ${rounds.endpoint.map((r, i) => (r.rps / rounds.baseline[i].rps).toFixed(2)).join(' ')}`,
    );
    return ratio(rounds.endpoint);
  } finally {
    await bare.stop();
    await server.stop();
  }
}

console.log(
  `unread-count benchmark: ${hasWrk ? 'wrk' : 'autocannon'} with ${CONNECTIONS} connections, ${ROUNDS} alternating rounds of ${SECONDS} s (medians); ` +
    (hasTaskset && cores >= 2 ? 'server on core 0, load on core 1' : 'not pinned (needs taskset and 2 cores)'),
);
const dialects = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',');
const sqliteRatio = dialects.includes('sqlite') ? await measure('SQLite', await prepareSqlite()) : Number.NaN;
if (!dialects.includes('postgres')) {
  // Left out on request.
} else if (findPostgresBin()) {
  const prepared = await preparePostgres();
  try {
    await measure('PostgreSQL', prepared);
  } finally {
    prepared.cleanup();
  }
} else {
  console.log('\nPostgreSQL: skipped (no server binaries; apt-get install -y postgresql)');
}
const target = 0.8;
console.log(
  `\nSQLite ratio ${sqliteRatio.toFixed(3)} (target ≥ ${target}): ${sqliteRatio >= target ? 'met' : 'NOT met'}`,
);
