import { type Kysely, sql } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Each comment's timeline: one row per change, written in the change's transaction. Comments
 * made before get what their columns and replies still tell (written, replied, applied, Live,
 * verified, not fixed, pin moved, screenshot added, archived), marked `derived`: a reopen or an
 * earlier fix they overwrote is not recoverable.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('comment_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('comment_id', 'text', (c) => c.notNull().references('comments.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    // No foreign key: a timeline outlives the accounts that acted in it (their names are looked up).
    .addColumn('actor_id', 'text')
    .addColumn('via', 'text')
    .addColumn('commit_sha', 'text')
    .addColumn('build_sha', 'text')
    .addColumn('note', 'text')
    .addColumn('derived', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('comment_events_comment_idx')
    .on('comment_events')
    .columns(['comment_id', 'created_at'])
    .execute();
  await db.schema
    .createIndex('comment_events_project_kind_idx')
    .on('comment_events')
    .columns(['project_id', 'kind', 'created_at'])
    .execute();

  const columns = sql`(id, workspace_id, project_id, comment_id, kind, actor_id, via, commit_sha, build_sha, note, derived, created_at)`;
  const fromComments = (kind: string, actor: string, commit: string, build: string, at: string, where: string) =>
    sql`insert into comment_events ${columns}
        select 'evt_' || id || ${sql.lit(`_${kind}`)}, workspace_id, project_id, id, ${sql.lit(kind)}, ${sql.raw(actor)}, null,
               ${sql.raw(commit)}, ${sql.raw(build)}, null, 1, ${sql.raw(at)}
        from comments where ${sql.raw(where)}`.execute(db);
  await fromComments('created', 'author_id', 'null', 'null', 'created_at', 'true');
  await fromComments('applied', 'applied_by_id', 'commit_sha', 'null', 'applied_at', 'applied_at is not null');
  await fromComments('live', 'null', 'null', 'deployed_build_sha', 'deployed_at', 'deployed_at is not null');
  await fromComments('verified', 'null', 'null', 'null', 'verified_at', 'verified_at is not null');
  await fromComments('repinned', 'repinned_by_id', 'null', 'null', 'repinned_at', 'repinned_at is not null');
  await fromComments('archived', 'null', 'null', 'null', 'updated_at', `status = 'archived'`);
  // A rejection was a reply "Not fixed: <note>" by the one who rejected it; other replies by people are replies.
  await sql`insert into comment_events ${columns}
      select 'evt_' || r.id, r.workspace_id, c.project_id, r.comment_id,
             case when r.body like 'Not fixed: %' then 'not_fixed' else 'replied' end,
             r.author_id, null, null, null,
             case when r.body like 'Not fixed: %' then substr(r.body, 12) else substr(r.body, 1, 140) end,
             1, r.created_at
      from replies r join comments c on c.id = r.comment_id
      where r.kind = 'user'`.execute(db);
  await sql`insert into comment_events ${columns}
      select 'evt_' || a.id, a.workspace_id, c.project_id, a.comment_id, 'screenshot_added', c.author_id,
             null, null, null, null, 1, a.created_at
      from attachments a join comments c on c.id = a.comment_id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('comment_events').execute();
}
