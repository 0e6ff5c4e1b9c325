import { type Kysely, PostgresAdapter, type RawBuilder, sql } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Insights: each timeline event keeps what insights read off it (the wait it ends, whose fix it
 * is, whether a fix was sent back, a verdict came the first time, an archive took a waiting
 * comment), computed here for the events written before, as the server computes them since
 * (`comments/measures.ts`); indexes of the events by workspace or project, kind, fix and time that
 * hold those measures, and one of the comments Live that nobody has verified (partial: few of
 * the applied are); and one of a workspace's screenshots, which an export reads in order.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema.alterTable('comment_events').addColumn('span_ms', t.float).execute();
  await db.schema.alterTable('comment_events').addColumn('fix_via', 'text').execute();
  for (const flag of ['sent_back', 'first_time_right', 'was_open']) {
    await db.schema
      .alterTable('comment_events')
      .addColumn(flag, 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }

  // `e` is the event being measured (the updated row); `p` the others of its comment.
  const e = sql.raw('comment_events');
  const ms = (from: RawBuilder<unknown>, to: RawBuilder<unknown>) =>
    postgres
      ? sql`(extract(epoch from (${to} - ${from})) * 1000)`
      : sql`round((julianday(${to}) - julianday(${from})) * 86400000)`;
  const before = (a: string, b: RawBuilder<unknown> | string) => {
    const right = typeof b === 'string' ? sql.raw(b) : b;
    return sql`(${sql.raw(a)}.created_at < ${right}.created_at or (${sql.raw(a)}.created_at = ${right}.created_at and ${sql.raw(a)}.id < ${right}.id))`;
  };
  const latest = (column: string, where: RawBuilder<unknown>) =>
    sql`(select p.${sql.raw(column)} from comment_events p where p.comment_id = ${e}.comment_id and ${where} and ${before('p', e)}
         order by p.created_at desc, p.id desc limit 1)`;
  const isFix = sql`p.kind in ('applied', 'reapplied') and p.fix_via is not null`;

  // Fixes: every apply, and a re-apply that names a new commit (one naming the same only changes its link).
  await sql`update comment_events set fix_via = coalesce(via, 'unknown')
    where kind = 'applied'
       or (kind = 'reapplied' and commit_sha is distinct from ${latest('commit_sha', sql`p.kind in ('applied', 'reapplied')`)})`.execute(
    db,
  );
  // The wait to the first fix, from when the comment was written.
  await sql`update comment_events set span_ms = ${ms(
    sql`(select min(p.created_at) from comment_events p where p.comment_id = ${e}.comment_id and p.kind = 'created')`,
    sql`${e}.created_at`,
  )}
    where kind = 'applied'
      and not exists (select 1 from comment_events p where p.comment_id = ${e}.comment_id and p.kind = 'applied' and ${before('p', e)})`.execute(
    db,
  );
  // A rejection or reopen sends back the latest fix before it.
  await sql`update comment_events set sent_back = 1 where id in (
      select (select p.id from comment_events p where p.comment_id = r.comment_id and ${isFix} and ${before('p', 'r')}
              order by p.created_at desc, p.id desc limit 1)
      from comment_events r where r.kind in ('not_fixed', 'reopened'))`.execute(db);
  // Live: whose fix, and how long after it.
  await sql`update comment_events set fix_via = coalesce(${latest('fix_via', isFix)}, 'unknown'),
      span_ms = ${ms(latest('created_at', isFix), sql`${e}.created_at`)}
    where kind = 'live'`.execute(db);
  // Verified: whose fix, how long after its Live (one with no fix since), and whether anything was sent back before.
  const liveOfTheFix = sql`p.kind = 'live' and not exists (select 1 from comment_events f where f.comment_id = p.comment_id
      and f.kind in ('applied', 'reapplied') and f.fix_via is not null and ${before('p', 'f')} and ${before('f', e)})`;
  await sql`update comment_events set fix_via = coalesce(${latest('fix_via', isFix)}, 'unknown'),
      span_ms = ${ms(latest('created_at', liveOfTheFix), sql`${e}.created_at`)},
      first_time_right = case when exists (select 1 from comment_events p where p.comment_id = ${e}.comment_id
        and p.kind in ('not_fixed', 'reopened') and ${before('p', e)}) then 0 else 1 end
    where kind = 'verified'`.execute(db);
  // Archived while waiting for a fix: its latest change before left it open.
  await sql`update comment_events set was_open = case when coalesce(${latest(
    'kind',
    sql`(p.kind in ('created', 'not_fixed', 'reopened') or (${isFix}))`,
  )}, 'created') in ('created', 'not_fixed', 'reopened') then 1 else 0 end
    where kind = 'archived'`.execute(db);

  // By workspace or project, kind, whose fix and time, holding the measures: a period's figures
  // per kind and whose fix are ranges of the index, read in its order and nothing else.
  await db.schema.dropIndex('comment_events_project_kind_idx').execute();
  for (const scope of ['workspace', 'project']) {
    await db.schema
      .createIndex(`comment_events_${scope}_insights_idx`)
      .on('comment_events')
      .columns([`${scope}_id`, 'kind', 'fix_via', 'created_at', 'span_ms', 'sent_back', 'first_time_right', 'was_open'])
      .execute();
  }
  for (const scope of ['workspace', 'project']) {
    await sql`create index ${sql.raw(`comments_${scope}_live_unverified_idx`)}
      on comments (${sql.raw(`${scope}_id`)}, deployed_at)
      where status = 'applied' and deployed_at is not null and verified_at is null`.execute(db);
  }
  // The screenshots export reads a workspace's in id order.
  await db.schema.createIndex('attachments_workspace_idx').on('attachments').columns(['workspace_id', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('attachments_workspace_idx').execute();
  await db.schema.dropIndex('comment_events_workspace_insights_idx').execute();
  await db.schema.dropIndex('comment_events_project_insights_idx').execute();
  await db.schema
    .createIndex('comment_events_project_kind_idx')
    .on('comment_events')
    .columns(['project_id', 'kind', 'created_at'])
    .execute();
  await db.schema.dropIndex('comments_workspace_live_unverified_idx').execute();
  await db.schema.dropIndex('comments_project_live_unverified_idx').execute();
  for (const column of ['span_ms', 'fix_via', 'sent_back', 'first_time_right', 'was_open']) {
    await db.schema.alterTable('comment_events').dropColumn(column).execute();
  }
}
