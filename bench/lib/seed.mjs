// The workspace the benchmarks seed in SQL, on SQLite or PostgreSQL: one workspace, 20 admins
// (the first with an API key), projects, comments of every state, replies and, when asked, a
// timeline event per comment. Set-based statements: a million comments seed in seconds.
import { createHash } from 'node:crypto';
import { sql } from 'kysely';

const TS = '2026-01-01T00:00:00.000Z';
export const API_KEY = `svc_key_${'c'.repeat(43)}`;
export const WS = `ws_${'0'.repeat(26)}`;
export const USERS = 20;

export const pad = (dialect, prefix, expr) =>
  dialect === 'sqlite' ? `printf('${prefix}_%026d', ${expr})` : `'${prefix}_' || lpad((${expr})::text, 26, '0')`;

const timestamp = (dialect) => (dialect === 'sqlite' ? `'${TS}'` : `timestamptz '${TS}'`);

/** `[with, from]` clauses that make rows `n` = 0 … count - 1 for an insert … select. */
export const numbers = (dialect, count) =>
  dialect === 'sqlite'
    ? [`with recursive seq(n) as (select 0 union all select n + 1 from seq where n < ${count - 1}) `, 'from seq']
    : ['', `from generate_series(0, ${count - 1}) as seq(n)`];

/** The workspace, its 20 admins (the first with the API key `API_KEY`) and `projects` projects `p0`, `p1`, … */
export function workspaceStatements(dialect, projects) {
  const ts = timestamp(dialect);
  return [
    `insert into workspaces (id, name, created_at) values ('${WS}', 'W', ${ts})`,
    ...Array.from({ length: USERS }, (_, i) => {
      const id = `usr_${String(i).padStart(26, '0')}`;
      return `insert into users (id, workspace_id, email, name, role, password_hash, access_token_hash, project_id, created_at)
        values ('${id}', '${WS}', 'u${i}@bench.test', 'User ${i}', 'admin', null, null, null, ${ts})`;
    }),
    `insert into api_keys (id, workspace_id, user_id, name, key_hash, last_four, created_at, last_used_at)
      values ('key_${'0'.repeat(26)}', '${WS}', 'usr_${'0'.repeat(26)}', 'bench',
      '${createHash('sha256').update(API_KEY).digest('hex')}', 'cccc', ${ts}, null)`,
    ...Array.from(
      { length: projects },
      (_, i) => `insert into projects (id, workspace_id, key, name, repo_url, app_url, allowed_origins, created_at)
        values ('prj_${String(i).padStart(26, '0')}', '${WS}', 'p${i}', 'Project ${i}', null, null, '[]', ${ts})`,
    ),
  ];
}

/** The labels `seedStatements` puts on comments: `lbl_…0` to `lbl_…9`. */
export const LABELS = 10;

/**
 * Bodies: two words of a 1,000-word vocabulary (each in ~2,000 comments of a million: "common")
 * and a token `rareN` shared by ten comments. Statuses cycle open, applied, applied+deployed,
 * verified, archived; 50 pages per project; 20 authors. Half the comments have someone on them
 * (n % 4 < 2: user n % 20, each 2.5% of all); priorities cycle none to urgent every ten
 * comments (20% each, apart from the labels); a third have a label (n % 3 = 0: label n % 10,
 * each 3.3%).
 */
export function seedStatements(dialect, { comments: COMMENTS, replies: REPLIES, projects: PROJECTS, events = false }) {
  const ts = timestamp(dialect);
  const [withComments, fromComments] = numbers(dialect, COMMENTS);
  const [withReplies, fromReplies] = numbers(dialect, REPLIES);
  const project = pad(dialect, 'prj', `n % ${PROJECTS}`);
  const author = pad(dialect, 'usr', `n % ${USERS}`);
  const status = `case n % 5 when 0 then 'open' when 4 then 'archived' else 'applied' end`;
  const word = (expr) => `'w' || ((${expr}) % 1000)`;
  return [
    ...workspaceStatements(dialect, PROJECTS),
    `${withComments}insert into comments (id, workspace_id, project_id, author_id, body, page_url, anchor_selector, anchor_x, anchor_y,
      status, commit_sha, commit_url, applied_by_id, applied_at, verified_at, deployed_at, deployed_build_sha, reply_count, created_at, updated_at,
      assignee_id, priority)
      select ${pad(dialect, 'cmt', 'n')}, '${WS}', ${project}, ${author},
      'Feedback ' || ${word('n * 7')} || ' ' || ${word('n * 13 + 1')} || ' rare' || (n % ${COMMENTS / 10}),
      'https://p' || (n % ${PROJECTS}) || '.test/page' || ((n / ${PROJECTS}) % 50), null, null, null, ${status},
      case when n % 5 in (1, 2, 3) then 'abcdef1' else null end, null, null, null,
      case when n % 5 = 3 then ${ts} else null end, case when n % 5 in (2, 3) then ${ts} else null end,
      case when n % 5 in (2, 3) then 'abcdef1' else null end, 0, ${ts}, ${ts},
      case when n % 4 < 2 then ${author} else null end, (n / 10) % 5 ${fromComments}`,
    ...Array.from(
      { length: LABELS },
      (_, i) => `insert into labels (id, workspace_id, name, name_key, color, created_at)
        values ('lbl_${String(i).padStart(26, '0')}', '${WS}', 'Label ${i}', 'label ${i}', 'blue', ${ts})`,
    ),
    `${withComments}insert into comment_labels (comment_id, label_id, workspace_id)
      select ${pad(dialect, 'cmt', 'n')}, ${pad(dialect, 'lbl', `n % ${LABELS}`)}, '${WS}' ${fromComments} where n % 3 = 0`,
    `${withReplies}insert into replies (id, workspace_id, comment_id, author_id, kind, body, created_at)
      select ${pad(dialect, 'rpl', 'n')}, '${WS}', ${pad(dialect, 'cmt', 'n * 5 + 1')}, 'usr_${'0'.repeat(26)}', 'user',
      'Reply about ' || ${word('n * 17 + 3')}, ${ts} ${fromReplies}`,
    ...(events
      ? [
          `${withComments}insert into comment_events (id, workspace_id, project_id, comment_id, kind, actor_id, via, commit_sha, build_sha, note, derived, created_at)
            select ${pad(dialect, 'evt', 'n')}, '${WS}', ${project}, ${pad(dialect, 'cmt', 'n')}, 'created', ${author}, 'person',
            null, null, null, 0, ${ts} ${fromComments}`,
        ]
      : []),
  ];
}

/**
 * Runs seed statements on an app's database (SQLite: in one transaction), folds the insight
 * roll-ups' deltas the events appended (as the server's first fold would), then analyses the
 * tables. PostgreSQL vacuums too, as autovacuum would after a bulk load: it merges the rows
 * waiting in GIN indexes' pending lists, clears the deltas the fold deleted and marks pages
 * all-visible for index-only scans.
 */
export async function runSeed(app, statements) {
  const { db, name } = app.database;
  if (name === 'sqlite') {
    await db.transaction().execute(async (trx) => {
      for (const statement of statements) await sql.raw(statement).execute(trx);
    });
  } else {
    for (const statement of statements) await sql.raw(statement).execute(db);
  }
  await app.database.compactInsightRollups();
  await sql.raw(name === 'postgres' ? 'vacuum analyze' : 'analyze').execute(db);
}

/**
 * A workspace's history over `seconds` up to `start` + `seconds` (insights and heavy-reads
 * benchmarks). Comment n (k = n % 10) is written at start + n × STEP, then: k 0-1 stay open (those older than
 * 90 days were archived two weeks after); 2-8 are fixed
 * (by a person, an API key or an agent in turn) and go Live, 2-7 are verified, 7 only after a
 * rejection and a second fix; 9 is archived. Every comment has a reply, even ones a screenshot.
 */
export function historyStatements(dialect, start, { comments: COMMENTS, projects: PROJECTS, seconds }) {
  /** Seconds between one comment and the next: the comments fill the span up to now. */
  const STEP = seconds / COMMENTS;
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
