// Benchmark of build reports: 1M comments of which 100k are pending deploy, reports of 200
// SHAs mixing full and abbreviated ones. Prints the median and p99 latency of the report
// through HTTP (against a bare Fastify POST in the same run) and of the matching statement
// alone, on SQLite and (when available) PostgreSQL.
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findPostgresBin, startThrowawayPostgres } from '../../scripts/postgres.mjs';
import { openApp, startProcess } from '../lib/harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const work = path.join(root, 'bench/.work');
const dist = (p) => path.join(root, 'packages/server/dist', p);

const COMMENTS = Number(process.env.BENCH_COMMENTS ?? 1_000_000);
const PENDING = Number(process.env.BENCH_PENDING ?? 100_000);
const REPORTS = Number(process.env.BENCH_REPORTS ?? 60);
const TS = '2026-01-01T00:00:00.000Z';
const API_KEY = `svc_key_${'b'.repeat(43)}`;

const pad = (dialect, prefix, expr) =>
  dialect === 'sqlite' ? `printf('${prefix}_%026d', ${expr})` : `'${prefix}_' || lpad((${expr})::text, 26, '0')`;

function seedStatements(dialect) {
  const ts = dialect === 'sqlite' ? `'${TS}'` : `timestamptz '${TS}'`;
  const seq =
    dialect === 'sqlite'
      ? `with recursive seq(n) as (select 0 union all select n + 1 from seq where n < ${COMMENTS - 1}) `
      : '';
  const from = dialect === 'sqlite' ? 'from seq' : `from generate_series(0, ${COMMENTS - 1}) as seq(n)`;
  const hex40 =
    dialect === 'sqlite' ? 'lower(hex(randomblob(20)))' : 'substr(md5(random()::text) || md5(random()::text), 1, 40)';
  // Every fifth pending comment stored an abbreviated SHA (7 to 12 characters).
  const sha =
    dialect === 'sqlite'
      ? `case when n % 5 = 0 then substr(${hex40}, 1, 7 + n % 6) else ${hex40} end`
      : `case when n % 5 = 0 then substr(${hex40}, 1, 7 + n % 6) else ${hex40} end`;
  const pending = `n < ${PENDING}`;
  return [
    `insert into workspaces (id, name, created_at) values ('ws_${'0'.repeat(26)}', 'W', ${ts})`,
    `insert into projects (id, workspace_id, key, name, repo_url, allowed_origins, created_at)
      values ('prj_${'0'.repeat(26)}', 'ws_${'0'.repeat(26)}', 'site', 'Site', null, '[]', ${ts})`,
    `insert into users (id, workspace_id, email, name, role, password_hash, access_token_hash, project_id, created_at)
      values ('usr_${'0'.repeat(26)}', 'ws_${'0'.repeat(26)}', 'dev@bench.test', 'Dev', 'member', null, null, null, ${ts})`,
    `insert into api_keys (id, workspace_id, user_id, name, key_hash, last_four, created_at, last_used_at)
      values ('key_${'0'.repeat(26)}', 'ws_${'0'.repeat(26)}', 'usr_${'0'.repeat(26)}', 'bench',
      '${createHash('sha256').update(API_KEY).digest('hex')}', 'bbbb', ${ts}, null)`,
    `${seq}insert into comments (id, workspace_id, project_id, author_id, body, page_url, anchor_selector, anchor_x, anchor_y,
      status, commit_sha, commit_url, applied_by_id, applied_at, verified_at, deployed_at, deployed_build_sha, reply_count, created_at, updated_at)
      select ${pad(dialect, 'cmt', 'n')}, 'ws_${'0'.repeat(26)}', 'prj_${'0'.repeat(26)}', 'usr_${'0'.repeat(26)}', 'Comment', 'https://a.test/',
      null, null, null, case when n % 3 = 0 and not (${pending}) then 'open' else 'applied' end,
      case when n % 3 = 0 and not (${pending}) then null else ${sha} end, null, 'usr_${'0'.repeat(26)}', ${ts}, null,
      case when ${pending} or n % 3 = 0 then null else ${ts} end, case when ${pending} or n % 3 = 0 then null else 'deadbee' end,
      0, ${ts}, ${ts} ${from}`,
  ];
}

/** 200 SHAs: half name pending commits (a stored abbreviation reported in full, a full one reported abbreviated or in full), half miss. */
function makeReports(pendingShas) {
  const reports = [];
  let cursor = 0;
  const randomHex = (length) => randomBytes(20).toString('hex').slice(0, length);
  for (let r = 0; r < REPORTS; r++) {
    const shas = [];
    for (let i = 0; i < 100; i++) {
      const stored = pendingShas[cursor++ % pendingShas.length];
      if (stored.length < 40) shas.push(stored + randomHex(40 - stored.length));
      else shas.push(i % 2 ? stored.slice(0, 7 + (i % 10)) : stored);
    }
    for (let i = 0; i < 100; i++) shas.push(randomHex(i % 3 ? 40 : 8));
    reports.push({ sha: randomHex(40), containsCommitShas: shas });
  }
  return reports;
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
const fmt = (label, values) =>
  console.log(
    `${label.padEnd(52)} median ${percentile(values, 50).toFixed(2).padStart(7)} ms   p99 ${percentile(values, 99).toFixed(2).padStart(7)} ms`,
  );

async function run(label, database, env) {
  const app = await openApp(database);
  const started = Date.now();
  if (database.dialect === 'sqlite') {
    await app.database.db.transaction().execute(async (trx) => {
      for (const statement of seedStatements('sqlite')) await (await import('kysely')).sql.raw(statement).execute(trx);
    });
  } else {
    for (const statement of seedStatements('postgres'))
      await (await import('kysely')).sql.raw(statement).execute(app.database.db);
  }
  await (await import('kysely')).sql.raw('analyze').execute(app.database.db);
  console.log(
    `\n${label}: ${COMMENTS} comments, ${PENDING} pending; seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  const pendingShas = (
    await app.database.db
      .selectFrom('comments')
      .select('commit_sha')
      .where('status', '=', 'applied')
      .where('deployed_at', 'is', null)
      .where('commit_sha', 'is not', null)
      .execute()
  ).map((row) => row.commit_sha);

  // The matching statement alone, inside a transaction rolled back each time.
  const { stampDeployedComments } = await import(dist('modules/builds/repo.js'));
  const statementTimes = [];
  let matched = 0;
  for (const report of makeReports(pendingShas)) {
    const begin = performance.now();
    await app.database.db
      .transaction()
      .execute(async (trx) => {
        const ids = await stampDeployedComments(
          trx,
          app.database,
          { workspaceId: `ws_${'0'.repeat(26)}`, projectId: `prj_${'0'.repeat(26)}`, buildSha: report.sha, at: TS },
          [report.sha, ...report.containsCommitShas],
        );
        matched += ids.length;
        statementTimes.push(performance.now() - begin);
        throw new Error('rollback');
      })
      .catch(() => {});
  }
  await app.close();

  const bare = await startProcess(0, path.join(root, 'bench/lib/bare-post-server.mjs'));
  const server = await startProcess(0, dist('server.js'), {
    ...env,
    PORT: '0',
    SVC_DEMO: 'false',
    SVC_BUILD_RATE_LIMIT: '1000000',
  });
  const post = async (url, body) => {
    const begin = performance.now();
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${API_KEY}` },
      body: JSON.stringify(body),
    });
    const json = await response.json();
    if (response.status >= 300) throw new Error(`${response.status} ${JSON.stringify(json)}`);
    return [performance.now() - begin, json];
  };
  const reports = makeReports(pendingShas);
  const bareTimes = [];
  const httpTimes = [];
  let deployed = 0;
  for (const report of reports.slice(0, 5)) await post(bare.url, report);
  for (const report of reports) {
    bareTimes.push((await post(bare.url, report))[0]);
    const [ms, json] = await post(`${server.url}/api/projects/site/builds`, report);
    httpTimes.push(ms);
    deployed += json.deployedCommentIds.length;
  }
  await bare.stop();
  await server.stop();

  fmt('bare Fastify POST of the same body (baseline)', bareTimes);
  fmt('POST /builds through HTTP (200 SHAs)', httpTimes);
  fmt('matching statement alone (UPDATE … RETURNING)', statementTimes);
  console.log(
    `HTTP / baseline (medians): ${(percentile(httpTimes, 50) / percentile(bareTimes, 50)).toFixed(1)}x; ` +
      `comments matched per report: ${(matched / reports.length).toFixed(0)} (statement), ${(deployed / reports.length).toFixed(0)} (HTTP)`,
  );
}

console.log(`build-report benchmark: ${REPORTS} reports of 200 SHAs (100 pending commits, 100 misses)`);
fs.mkdirSync(work, { recursive: true });
const dataDir = path.join(work, `build-sqlite-${process.pid}`);
try {
  await run('SQLite', { dialect: 'sqlite', file: path.join(dataDir, 'svc.db') }, { SVC_DATA_DIR: dataDir });
} finally {
  fs.rmSync(dataDir, { recursive: true, force: true });
}
if (findPostgresBin()) {
  const cluster = await startThrowawayPostgres({ settings: { shared_buffers: '512MB', max_wal_size: '4GB' } });
  try {
    await run('PostgreSQL', { dialect: 'postgres', url: cluster.url }, { DATABASE_URL: cluster.url });
  } finally {
    cluster.stop();
  }
} else {
  console.log('\nPostgreSQL: skipped (no server binaries; apt-get install -y postgresql)');
}
