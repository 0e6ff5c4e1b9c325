import type { Kysely } from 'kysely';

/** Comments changed since a point, in the order they changed: the watch's keyset. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('comments_workspace_updated_idx')
    .on('comments')
    .columns(['workspace_id', 'updated_at', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('comments_workspace_updated_idx').execute();
}
