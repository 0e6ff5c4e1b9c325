import { type Kysely, sql } from 'kysely';

/**
 * The day a comment should be fixed by: a calendar date as written (`YYYY-MM-DD`, text in both
 * dialects, so that no time zone moves it), or null. Comments of before have none. An index over
 * the comments that have one serves "overdue" and the lists sorted by it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('comments').addColumn('due_on', 'text').execute();
  await db.schema
    .createIndex('comments_due_on_idx')
    .on('comments')
    .columns(['workspace_id', 'due_on'])
    .where(sql<boolean>`due_on is not null`)
    .execute();
}
