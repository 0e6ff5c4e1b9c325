import type { Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Mentions: who a comment's text or one of its replies mentions, a row per comment and person
 * (the text keeps each mention as the person's id). "Mentions of me" reads it by person,
 * newest comment first; a rename finds there the texts that show the old name. Comments made
 * before mention nobody.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);
  await db.schema
    .createTable('comment_mentions')
    .addColumn('comment_id', 'text', (c) => c.notNull().references('comments.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addPrimaryKeyConstraint('comment_mentions_pk', ['comment_id', 'user_id'])
    .execute();
  await db.schema
    .createIndex('comment_mentions_user_idx')
    .on('comment_mentions')
    .columns(['user_id', 'comment_id'])
    .execute();
}
