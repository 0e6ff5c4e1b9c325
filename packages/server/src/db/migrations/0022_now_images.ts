import { type Kysely, sql } from 'kysely';

/**
 * The picture of now: the element as the comment's author's widget saw it last while a fix
 * waits for their verdict (`kind` now), with the commit of the fix it was taken for
 * (`commit_sha`). A comment holds one at most: a new one replaces it, and the unique index
 * refuses a second that two requests at once would write. Images made before are of no commit.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('images').addColumn('commit_sha', 'text').execute();
  await db.schema
    .createIndex('images_now_idx')
    .on('images')
    .column('comment_id')
    .unique()
    .where(sql.ref('kind'), '=', 'now')
    .execute();
}
