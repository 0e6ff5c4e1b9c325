// Benchmark of GET /api/workspace/insights: a workspace of 1M comments over 100 projects and
// two years, with about 5M timeline events (written, replied, screenshots, fixed by people, API
// keys and agents, Live, verified, rejected and fixed again, archived), on SQLite and
// PostgreSQL. Prints p50/p90 of the insights of the workspace and of one project over 30 and
// 365 days, through the app (Fastify inject), next to the first page of the comment list of the
// same app in the same run (the baseline), and the plan of each query that reads timeline events.
import { CompiledQuery } from 'kysely';
import { onEachDatabase, openApp, percentile, timedGet } from '../lib/harness.mjs';
import { API_KEY, numbers, pad, runSeed, USERS, WS, workspaceStatements } from '../lib/seed.mjs';

const COMMENTS = Number(process.env.BENCH_COMMENTS ?? 1_000_000);
const PROJECTS = 100;
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const SPAN_SECONDS = 2 * 365 * 24 * 3600;
/** Seconds between one comment and the next: the comments fill the two years up to now. */
const STEP = SPAN_SECONDS / COMMENTS;

/**
 * Comment n (k = n % 10) is written at start + n × STEP, then: k 0-1 stay open (those older than
 * 90 days were archived two weeks after); 2-8 are fixed
 * (by a person, an API key or an agent in turn) and go Live, 2-7 are verified, 7 only after a
 * rejection and a second fix; 9 is archived. Every comment has a reply, even ones a screenshot.
 */
function historyStatements(dialect, start) {
  const [withSeq, fromSeq] = numbers(dialect, COMMENTS);
  const hours = (expr) => `((${expr}) * 3600)`;
  const fixAt = hours('(n * 7) % 97 + 1');
  const liveAt = `${fixAt} + ${hours('(n * 11) % 13 + 1')}`;
  const verifiedAt = `${liveAt} + ${hours('(n * 5) % 29 + 1')}`;
  const at = (offset) =>
    dialect === 'sqlite'
      ? `strftime('%Y-%m-%dT%H:%M:%fZ', julianday('${start}') + (n * ${STEP} + ${offset}) / 86400.0)`
      : `timestamptz '${start}' + make_interval(secs => n * ${STEP} + ${offset})`;
  const k = 'n % 10';
  const project = pad(dialect, 'prj', `n % ${PROJECTS}`);
  const author = pad(dialect, 'usr', `n % ${USERS}`);
  const via = `case n % 3 when 0 then 'person' when 1 then 'api_key' else 'mcp' end`;
  // What waits for a fix is recent: older comments of k 0-1 were archived two weeks after.
  const stale = `n < ${Math.floor(COMMENTS * (1 - 90 / 730))}`;
  const status = `case when ${k} < 2 and not (${stale}) then 'open' when ${k} < 2 or ${k} = 9 then 'archived' else 'applied' end`;
  // Each event with the measures the server would give it (comments/measures.ts).
  const event = (index, kind, offset, where, measures = {}) => {
    const {
      via: eventVia = `'person'`,
      span = 'null',
      fixVia = 'null',
      sentBack = '0',
      firstTimeRight = '0',
      wasOpen = '0',
    } = measures;
    return `${withSeq}insert into comment_events (id, workspace_id, project_id, comment_id, kind, actor_id, via, commit_sha, build_sha, note, derived, created_at,
        span_ms, fix_via, sent_back, first_time_right, was_open)
      select ${pad(dialect, 'evt', `n * 16 + ${index}`)}, '${WS}', ${project}, ${pad(dialect, 'cmt', 'n')}, '${kind}', ${author},
      ${eventVia}, null, null, null, 0, ${at(offset)}, ${span}, ${fixVia}, ${sentBack}, ${firstTimeRight}, ${wasOpen} ${fromSeq} where ${where}`;
  };
  const ms = (seconds) => `(${seconds}) * 1000`;
  const fixOfLive = `case when ${k} = 7 then ${fixAt} + 36000 else ${fixAt} end`;
  return [
    `${withSeq}insert into comments (id, workspace_id, project_id, author_id, body, page_url, anchor_selector, anchor_x, anchor_y,
      status, commit_sha, commit_url, applied_by_id, applied_at, verified_at, deployed_at, deployed_build_sha, reply_count, created_at, updated_at)
      select ${pad(dialect, 'cmt', 'n')}, '${WS}', ${project}, ${author}, 'Feedback number ' || n,
      'https://p' || (n % ${PROJECTS}) || '.test/page' || ((n / ${PROJECTS}) % 50), null, null, null, ${status},
      case when ${k} between 2 and 8 then 'abcdef1' else null end, null, null,
      case when ${k} between 2 and 8 then ${at(fixAt)} else null end,
      case when ${k} between 2 and 7 then ${at(`${verifiedAt} + 36000`)} else null end,
      case when ${k} between 2 and 8 then ${at(`${liveAt} + 36000`)} else null end,
      case when ${k} between 2 and 8 then 'abcdef1' else null end, 1, ${at(0)}, ${at(0)} ${fromSeq}`,
    event(0, 'created', 0, 'true'),
    event(1, 'replied', 1800, 'true'),
    event(2, 'screenshot_added', 60, 'n % 2 = 0'),
    event(3, 'repinned', 600, 'n % 10 = 0'),
    event(4, 'applied', fixAt, `${k} between 2 and 8`, {
      via,
      fixVia: via,
      span: ms(fixAt),
      sentBack: `case when ${k} = 7 then 1 else 0 end`,
    }),
    event(5, 'not_fixed', `${fixAt} + 3600`, `${k} = 7`),
    event(6, 'replied', `${fixAt} + 7200`, `${k} = 7`),
    event(7, 'applied', `${fixAt} + 36000`, `${k} = 7`, { via, fixVia: via }),
    event(8, 'live', `${liveAt} + 36000`, `${k} between 2 and 8`, {
      fixVia: via,
      span: ms(`${liveAt} + 36000 - (${fixOfLive})`),
    }),
    event(9, 'verified', `${verifiedAt} + 36000`, `${k} between 2 and 7`, {
      fixVia: via,
      span: ms(`${verifiedAt} - (${liveAt})`),
      firstTimeRight: `case when ${k} = 7 then 0 else 1 end`,
    }),
    event(10, 'archived', 7200, `${k} = 9`, { wasOpen: '1' }),
    event(11, 'archived', 14 * 24 * 3600, `${k} < 2 and ${stale}`, { wasOpen: '1' }),
  ];
}

async function run(label, database) {
  const app = await openApp(database);
  const started = Date.now();
  const start = new Date(Date.now() - SPAN_SECONDS * 1000).toISOString();
  const statements = [
    ...workspaceStatements(database.dialect, PROJECTS),
    ...historyStatements(database.dialect, start),
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
  for (const days of [30, 365]) {
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

  // Each statement of one request (workspace, 30 days), as the app runs it: its time and its plan.
  const { readInsights } = await import(
    new URL('../../packages/server/dist/modules/insights/insights.js', import.meta.url).href
  );
  const captured = [];
  const capture = {
    transformQuery: ({ node, queryId }) => {
      captured.push(app.database.db.getExecutor().compileQuery(node, queryId));
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  const actor = { id: `usr_${'0'.repeat(26)}`, workspaceId: WS, name: 'User 0', role: 'admin', projectId: null };
  await readInsights({ ...app.database, db: app.database.db.withPlugin(capture) }, actor, {
    projectId: null,
    projectKey: null,
    days: 30,
    now: Date.now(),
  });
  const explain = database.dialect === 'sqlite' ? 'explain query plan ' : 'explain ';
  let scans = 0;
  for (const query of captured) {
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      const begin = performance.now();
      await app.database.db.executeQuery(query);
      times.push(performance.now() - begin);
    }
    const what = query.sql.replace(/\s+/g, ' ').slice(0, 90);
    console.log(`  p50 ${percentile(times, 50).toFixed(1).padStart(6)} ms  ${what}…`);
    const plan = await app.database.db.executeQuery(CompiledQuery.raw(explain + query.sql, query.parameters));
    const lines = plan.rows.map((row) => row.detail ?? row['QUERY PLAN']);
    const scan = lines.some((line) =>
      database.dialect === 'sqlite'
        ? /^SCAN (comment_events|comments|e|c)\b(?!.*(USING|COVERING))/.test(line.trim())
        : /Seq Scan on (comment_events|comments)/.test(line),
    );
    if (scan) {
      scans++;
      console.log(`  SCANS a table:\n${lines.map((line) => `    ${line}`).join('\n')}`);
    }
  }
  console.log(
    `${label}: ${captured.length} queries; ${scans === 0 ? 'every one uses an index' : `${scans} scan a table`}`,
  );
  await app.close();
}

console.log(`insights benchmark: ${RUNS} requests per case`);
await onEachDatabase('insights', run);
