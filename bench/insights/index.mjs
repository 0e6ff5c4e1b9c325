// Benchmark of GET /api/workspace/insights: a workspace of 1M comments over 100 projects and
// two years, with about 5M timeline events (written, replied, screenshots, fixed by people, API
// keys and agents, Live, verified, rejected and fixed again, archived), on SQLite and
// PostgreSQL. Prints p50/p90 of the insights of the workspace and of one project over 30 and
// 365 days, through the app (Fastify inject), next to the first page of the comment list of the
// same app in the same run (the baseline), and the plan of each query that reads timeline events.
import { CompiledQuery } from 'kysely';
import { onEachDatabase, openApp, percentile, timedGet } from '../lib/harness.mjs';
import { API_KEY, historyStatements, runSeed, WS, workspaceStatements } from '../lib/seed.mjs';

const COMMENTS = Number(process.env.BENCH_COMMENTS ?? 1_000_000);
const PROJECTS = 100;
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const SPAN_SECONDS = 2 * 365 * 24 * 3600;

async function run(label, database) {
  const app = await openApp(database);
  const started = Date.now();
  const start = new Date(Date.now() - SPAN_SECONDS * 1000).toISOString();
  const statements = [
    ...workspaceStatements(database.dialect, PROJECTS),
    ...historyStatements(database.dialect, start, { comments: COMMENTS, projects: PROJECTS, seconds: SPAN_SECONDS }),
  ];
  await runSeed(app, statements);
  const { events } = await app.database.db
    .selectFrom('comment_events')
    .select((eb) => eb.fn.countAll().as('events'))
    .executeTakeFirstOrThrow();
  console.log(
    `\n${label}: ${COMMENTS} comments over ${PROJECTS} projects and two years, ${events} timeline events; seeded and indexed in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );

  const get = timedGet(app, API_KEY);
  const measure = async (name, url, baseline) => {
    for (let i = 0; i < 3; i++) await get(url(i));
    const times = [];
    let body;
    for (let i = 0; i < RUNS; i++) {
      const [ms, answer] = await get(url(i));
      times.push(ms);
      body = answer;
    }
    const p50 = percentile(times, 50);
    console.log(
      `${name.padEnd(44)} p50 ${p50.toFixed(1).padStart(7)} ms   p90 ${percentile(times, 90).toFixed(1).padStart(7)} ms` +
        (baseline ? `   ${(p50 / baseline).toFixed(1)}x baseline` : ''),
    );
    return { p50, body };
  };
  const { p50: base } = await measure('GET /api/comments?limit=50 (baseline)', () => '/api/comments?limit=50');
  for (const days of [30, 366]) {
    const { body } = await measure(
      `insights, workspace, ${days} days`,
      () => `/api/workspace/insights?days=${days}`,
      base,
    );
    const everyone = body.rows[0];
    console.log(
      `  open now ${body.backlog.open}, ${everyone.toFix.count} first fixes (median ${(everyone.toFix.median / 3600e3).toFixed(1)} h), ` +
        `${everyone.fixes} fixes (${(everyone.reopenRate * 100).toFixed(1)}% sent back), ${everyone.verified} verified ` +
        `(${(everyone.firstTimeRightRate * 100).toFixed(1)}% first time right), ${body.liveUnverified.count} Live unverified`,
    );
    await measure(
      `insights, one project, ${days} days`,
      (i) => `/api/workspace/insights?days=${days}&project=p${i % PROJECTS}`,
      base,
    );
  }

  // Each statement of a request of the workspace (a month, a year), as the app runs it: its time and its plan.
  for (const days of [30, 366]) await statementsOf(app, database, days);
  await app.close();
}

/** Each statement of one request of the whole workspace over `days`, as the app runs it: its time and its plan. */
async function statementsOf(app, database, days) {
  console.log(`  statements of the workspace's insights over ${days} days:`);
  const { readInsights } = await import(
    new URL('../../packages/server/dist/modules/insights/insights.js', import.meta.url).href
  );
  const captured = [];
  const capture = {
    transformQuery: ({ node, queryId }) => {
      captured.push(app.database.reads.getExecutor().compileQuery(node, queryId));
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  const actor = { id: `usr_${'0'.repeat(26)}`, workspaceId: WS, name: 'User 0', role: 'admin', projectId: null };
  const db = app.database.db.withPlugin(capture);
  await readInsights(
    {
      ...app.database,
      db,
      reads: app.database.reads === app.database.db ? db : app.database.reads.withPlugin(capture),
    },
    actor,
    {
      projectId: null,
      projectKey: null,
      days,
      now: Date.now(),
    },
  );
  const explain = database.dialect === 'sqlite' ? 'explain query plan ' : 'explain ';
  let scans = 0;
  for (const query of captured) {
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      const begin = performance.now();
      await app.database.reads.executeQuery(query);
      times.push(performance.now() - begin);
    }
    const what = query.sql.replace(/\s+/g, ' ').slice(0, 90);
    console.log(`  p50 ${percentile(times, 50).toFixed(1).padStart(6)} ms  ${what}…`);
    const plan = await app.database.reads.executeQuery(CompiledQuery.raw(explain + query.sql, query.parameters));
    const lines = plan.rows.map((row) => row.detail ?? row['QUERY PLAN']);
    const scan = lines.some((line) =>
      database.dialect === 'sqlite'
        ? /^SCAN (comment_events|comments|insight_rollups|e|c)\b(?!.*(USING|COVERING))/.test(line.trim())
        : /Seq Scan on (comment_events|comments|insight_rollups)/.test(line),
    );
    if (scan) {
      scans++;
      console.log(`  SCANS a table:\n${lines.map((line) => `    ${line}`).join('\n')}`);
    }
  }
  console.log(
    `  ${days} days: ${captured.length} queries; ${scans === 0 ? 'every one uses an index' : `${scans} scan a table`}`,
  );
}

console.log(`insights benchmark: ${RUNS} requests per case`);
await onEachDatabase('insights', run);
