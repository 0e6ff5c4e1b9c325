import { type Kysely, PostgresAdapter, sql } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Insights read from roll-ups, so that a year costs about what a month does. Every change of a
 * measured timeline event (insert, the measures rewritten, delete, a cascade included) appends
 * a delta row, by trigger, in the writer's transaction: an append, never an update of a shared
 * row, so writers never wait on one another nor deadlock. A compaction (the server, every few
 * minutes) folds the deltas into rows per day and per month (UTC), per project and for the
 * whole workspace, each kind and whose fix, each wait in a bucket 5 % wide (with the bucket's
 * count, sum, least and greatest wait), plus one row of totals (bucket -2) per day and month.
 * Here the events already written are folded the same way.
 */

/** The kinds insights read. */
const KINDS = "('created', 'applied', 'reapplied', 'live', 'verified', 'not_fixed', 'reopened', 'archived')";

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  await db.schema
    .createTable('insight_rollups')
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    // '' : every project of the workspace.
    .addColumn('project_id', 'text', (c) => c.notNull())
    // 'YYYY-MM-DD' a day, 'YYYY-MM' a month (UTC).
    .addColumn('period', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    // fix_via, '' when the event has none.
    .addColumn('who', 'text', (c) => c.notNull())
    // -1: no wait; -2: the totals of the period, kind and who (compacted rows only); else the wait's bucket.
    .addColumn('bucket', 'integer', (c) => c.notNull())
    // 0: a delta a trigger appended (a day of one project); 1: compacted.
    .addColumn('compacted', 'integer', (c) => c.notNull())
    .addColumn('n', 'integer', (c) => c.notNull())
    .addColumn('flagged', 'integer', (c) => c.notNull())
    .addColumn('wait_sum', t.float, (c) => c.notNull())
    .addColumn('wait_min', t.float)
    .addColumn('wait_max', t.float)
    .execute();
  await db.schema
    .createIndex('insight_rollups_compacted')
    .on('insight_rollups')
    .columns(['workspace_id', 'project_id', 'period', 'kind', 'who', 'bucket'])
    .unique()
    .where(sql.ref('compacted'), '=', 1)
    .execute();
  await db.schema
    .createIndex('insight_rollups_deltas')
    .on('insight_rollups')
    .columns(['workspace_id', 'project_id', 'period'])
    .where(sql.ref('compacted'), '=', 0)
    .execute();

  // What a delta holds of an event row (`row`: NEW or OLD), added (`sign` 1) or taken away (-1).
  const day = (row: string) =>
    postgres ? `to_char(${row}.created_at at time zone 'UTC', 'YYYY-MM-DD')` : `substr(${row}.created_at, 1, 10)`;
  const delta = (row: string, sign: 1 | -1) => `
    insert into insight_rollups
      (workspace_id, project_id, period, kind, who, bucket, compacted, n, flagged, wait_sum, wait_min, wait_max)
    values (${row}.workspace_id, ${row}.project_id, ${day(row)}, ${row}.kind, coalesce(${row}.fix_via, ''),
      case when ${row}.span_ms is null then -1 when ${row}.span_ms < 1000 then 0
        else 1 + cast(floor(ln(${row}.span_ms / 1000.0) / ln(1.05)) as integer) end,
      0, ${sign},
      ${sign} * (case ${row}.kind when 'verified' then ${row}.first_time_right when 'archived' then ${row}.was_open else ${row}.sent_back end),
      ${sign} * coalesce(${row}.span_ms, 0),
      ${sign === 1 ? `${row}.span_ms` : 'null'}, ${sign === 1 ? `${row}.span_ms` : 'null'})`;
  const measured = 'span_ms, fix_via, sent_back, first_time_right, was_open';
  if (postgres) {
    await sql
      .raw(`
      create function insight_rollup_delta() returns trigger language plpgsql as $$
      begin
        if tg_op in ('UPDATE', 'DELETE') then ${delta('old', -1)}; end if;
        if tg_op in ('INSERT', 'UPDATE') then ${delta('new', 1)}; end if;
        return null;
      end $$`)
      .execute(db);
    // One trigger a change, each with its condition: an event of another kind (a reply) calls no function.
    for (const [name, change, row] of [
      ['insert', 'insert', 'new'],
      ['delete', 'delete', 'old'],
      ['update', `update of ${measured}`, 'old'],
    ]) {
      await sql
        .raw(`create trigger comment_events_rollup_${name} after ${change} on comment_events
          for each row when (${row}.kind in ${KINDS}) execute function insight_rollup_delta()`)
        .execute(db);
    }
  } else {
    await sql
      .raw(`create trigger comment_events_rollup_insert after insert on comment_events
        when new.kind in ${KINDS} begin ${delta('new', 1)}; end`)
      .execute(db);
    await sql
      .raw(`create trigger comment_events_rollup_delete after delete on comment_events
        when old.kind in ${KINDS} begin ${delta('old', -1)}; end`)
      .execute(db);
    await sql
      .raw(`create trigger comment_events_rollup_update after update of ${measured} on comment_events
        when old.kind in ${KINDS} begin ${delta('old', -1)}; ${delta('new', 1)}; end`)
      .execute(db);
  }

  // The events written before, folded as the compaction folds deltas.
  await sql
    .raw(`insert into insight_rollups
      (workspace_id, project_id, period, kind, who, bucket, compacted, n, flagged, wait_sum, wait_min, wait_max)
    select workspace_id, project_id, ${day('comment_events')}, kind, coalesce(fix_via, ''),
      case when span_ms is null then -1 when span_ms < 1000 then 0
        else 1 + cast(floor(ln(span_ms / 1000.0) / ln(1.05)) as integer) end,
      0, 1, case kind when 'verified' then first_time_right when 'archived' then was_open else sent_back end,
      coalesce(span_ms, 0), span_ms, span_ms
    from comment_events where kind in ${KINDS}`)
    .execute(db);
  const folded = (project: string, period: string, bucket: string, where: string) => `
    select workspace_id, ${project}, ${period}, kind, who, ${bucket}, 1,
      sum(n), sum(flagged), sum(wait_sum), min(wait_min), max(wait_max)
    from insight_rollups where compacted = 0 and ${where}
    group by ${['workspace_id', project, period, 'kind', 'who', bucket].filter((term) => !/^('.*'|-?\d+)$/.test(term)).join(', ')}`;
  const levels = [];
  for (const project of ['project_id', "''"]) {
    for (const period of ['period', 'substr(period, 1, 7)']) {
      levels.push(folded(project, period, 'bucket', 'bucket >= 0'), folded(project, period, '-2', 'true'));
    }
  }
  await sql
    .raw(`insert into insight_rollups
      (workspace_id, project_id, period, kind, who, bucket, compacted, n, flagged, wait_sum, wait_min, wait_max)
      ${levels.join(' union all ')}`)
    .execute(db);
  await sql`delete from insight_rollups where compacted = 0`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  for (const name of ['insert', 'delete', 'update']) {
    await sql.raw(`drop trigger comment_events_rollup_${name}${postgres ? ' on comment_events' : ''}`).execute(db);
  }
  if (postgres) await sql`drop function insight_rollup_delta()`.execute(db);
  await db.schema.dropTable('insight_rollups').execute();
}
