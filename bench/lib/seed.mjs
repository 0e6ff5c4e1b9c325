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

/**
 * Bodies: two words of a 1,000-word vocabulary (each in ~2,000 comments of a million: "common")
 * and a token `rareN` shared by ten comments. Statuses cycle open, applied, applied+deployed,
 * verified, archived; 50 pages per project; 20 authors.
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
      status, commit_sha, commit_url, applied_by_id, applied_at, verified_at, deployed_at, deployed_build_sha, reply_count, created_at, updated_at)
      select ${pad(dialect, 'cmt', 'n')}, '${WS}', ${project}, ${author},
      'Feedback ' || ${word('n * 7')} || ' ' || ${word('n * 13 + 1')} || ' rare' || (n % ${COMMENTS / 10}),
      'https://p' || (n % ${PROJECTS}) || '.test/page' || ((n / ${PROJECTS}) % 50), null, null, null, ${status},
      case when n % 5 in (1, 2, 3) then 'abcdef1' else null end, null, null, null,
      case when n % 5 = 3 then ${ts} else null end, case when n % 5 in (2, 3) then ${ts} else null end,
      case when n % 5 in (2, 3) then 'abcdef1' else null end, 0, ${ts}, ${ts} ${fromComments}`,
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
 * Runs seed statements on an app's database (SQLite: in one transaction), then analyses the
 * tables. PostgreSQL vacuums too, as autovacuum would after a bulk load: it merges the rows
 * waiting in GIN indexes' pending lists and marks pages all-visible for index-only scans.
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
  await sql.raw(name === 'postgres' ? 'vacuum analyze' : 'analyze').execute(db);
}
