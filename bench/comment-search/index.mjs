// Benchmark of GET /api/comments (finding comments across projects): 1M comments over 100
// projects with 200k replies, filtered pages by project and status, by page, by author and by
// words (a rare one, a common one with a project). Prints p50/p99 of each through the app
// (Fastify inject) against GET /healthz of the same app in the same run, and each query's plan,
// flagging any that scans the comments table instead of using an index.
import { CompiledQuery } from 'kysely';
import { onEachDatabase, openApp, percentile, timedGet } from '../lib/harness.mjs';
import { API_KEY, LABELS, runSeed, seedStatements, WS } from '../lib/seed.mjs';

const dist = (p) => new URL(`../../packages/server/dist/${p}`, import.meta.url).href;

const COMMENTS = Number(process.env.BENCH_COMMENTS ?? 1_000_000);
const REPLIES = Math.floor(COMMENTS / 5);
const PROJECTS = 100;
const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const USERS = 20;

/** Captures the SQL of every query the app runs, for the plans. */
class CaptureQueries {
  queries = [];
  constructor(executor) {
    this.executor = executor;
  }
  transformQuery({ node, queryId }) {
    this.queries.push(this.executor.compileQuery(node, queryId));
    return node;
  }
  async transformResult({ result }) {
    return result;
  }
}

const CASES = [
  ['project + status (open)', (i) => `?project=p${(i * 5) % PROJECTS}&status=open`],
  ['status live, all projects', () => '?status=live'],
  ['page URL, all projects', (i) => `?pageUrl=${encodeURIComponent(`https://p${i % PROJECTS}.test/page${i % 50}`)}`],
  ['author', (i) => `?author=usr_${String(i % USERS).padStart(26, '0')}`],
  ['text: a rare word (10 comments)', (i) => `?q=rare${(i * 7919) % (COMMENTS / 10)}`],
  ['text: a common word + project', (i) => `?q=w${(i * 31) % 1000}&project=p${i % PROJECTS}`],
  ['text: two common words', (i) => `?q=w${(i * 7) % 1000}%20w${(i * 13 + 1) % 1000}`],
  ['oldest first, page 2 (cursor)', null],
  // Dividing the work: each next to the unfiltered list of the same run (the goal: within 2x).
  ['the list, no filter (newest first)', () => ''],
  ['assignee me (2.5%)', () => '?assignee=me'],
  ['assignee none (50%)', () => '?assignee=none'],
  ['priority urgent (20%)', () => '?priority=urgent'],
  ['a label (3.3%)', (i) => `?label=lbl_${String(i % LABELS).padStart(26, '0')}`],
  ['a label + priority high (0.7%)', (i) => `?label=lbl_${String(i % LABELS).padStart(26, '0')}&priority=high`],
  ['assignee me + project (0.03%)', (i) => `?assignee=me&project=p${(i * 20) % PROJECTS}`],
];

async function run(label, database) {
  const app = await openApp(database);
  const started = Date.now();
  const statements = seedStatements(database.dialect, { comments: COMMENTS, replies: REPLIES, projects: PROJECTS });
  await runSeed(app, statements);
  console.log(
    `\n${label}: ${COMMENTS} comments over ${PROJECTS} projects, ${REPLIES} replies; seeded and indexed in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );

  const get = timedGet(app, API_KEY);
  for (let i = 0; i < 20; i++) await get('/healthz');
  const baseline = [];
  for (let i = 0; i < RUNS; i++) baseline.push((await get('/healthz'))[0]);
  const base50 = percentile(baseline, 50);
  console.log(
    `${'GET /healthz of the same app (baseline)'.padEnd(40)} p50 ${base50.toFixed(2).padStart(7)} ms   p99 ${percentile(baseline, 99).toFixed(2).padStart(7)} ms`,
  );

  const firstPage = (await get('/api/comments?sort=oldest&limit=20'))[1];
  const { findComments } = await import(dist('modules/comments/service.js'));
  const actor = {
    id: `usr_${'0'.repeat(26)}`,
    workspaceId: WS,
    name: 'User 0',
    role: 'admin',
    projectId: null,
    credential: { kind: 'apiKey' },
  };
  let scans = 0;
  for (const [name, query] of CASES) {
    const url = (i) =>
      query ? `/api/comments${query(i)}` : `/api/comments?sort=oldest&limit=20&cursor=${firstPage.nextCursor}`;
    const times = [];
    let items = 0;
    for (let i = 0; i < RUNS; i++) {
      const [ms, body] = await get(url(i));
      times.push(ms);
      items += body.items.length;
    }
    console.log(
      `${name.padEnd(40)} p50 ${percentile(times, 50).toFixed(2).padStart(7)} ms   p99 ${percentile(times, 99).toFixed(2).padStart(7)} ms   ` +
        `${(percentile(times, 50) / base50).toFixed(1)}x baseline   ${(items / RUNS).toFixed(1)} items/page`,
    );

    // The plan of the list query itself, as the service builds it.
    const capture = new CaptureQueries(app.database.db.getExecutor());
    const params = Object.fromEntries(new URL(url(1), 'http://x').searchParams);
    if (params.limit) params.limit = Number(params.limit);
    // Searches run where long reads run (`database.reads`): the plugin goes on both handles.
    const captured = {
      ...app.database,
      db: app.database.db.withPlugin(capture),
      reads: app.database.reads.withPlugin(capture),
    };
    await findComments({ db: captured.db, database: captured, clock: app.ctx.clock }, actor, params);
    const listQuery = capture.queries.find((q) => q.sql.includes('from "comments"'));
    const explain = database.dialect === 'sqlite' ? 'explain query plan ' : 'explain ';
    const plan = await app.database.db.executeQuery(CompiledQuery.raw(explain + listQuery.sql, listQuery.parameters));
    const lines = plan.rows.map((row) => row.detail ?? row['QUERY PLAN']);
    const scan = lines.some((line) =>
      database.dialect === 'sqlite'
        ? /^SCAN (comments|c)\b(?!.*USING)/.test(line) || /^SCAN comments$/.test(line)
        : /Seq Scan on comments/.test(line),
    );
    if (scan) scans++;
    // The lines about comments and replies: how each is reached (joins of the small tables left out).
    const relevant = lines.filter((line) => /comments|replies|_fts|Limit|Sort|Merge|Hash/i.test(line));
    console.log(`  plan${scan ? ' (SCANS comments)' : ''}:\n${relevant.map((line) => `    ${line}`).join('\n')}`);
  }
  console.log(
    `${label}: ${scans === 0 ? 'every filtered page uses an index' : `${scans} queries scan the comments table`}`,
  );
  await app.close();
}

console.log(`comment-search benchmark: ${RUNS} requests per case`);
await onEachDatabase('search', run);
