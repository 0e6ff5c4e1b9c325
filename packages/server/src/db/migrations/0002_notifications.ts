import { type Kysely, sql } from 'kysely';
import { columnTypes } from './column-types.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('notifications')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('recipient_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('comment_id', 'text', (c) => c.notNull().references('comments.id').onDelete('cascade'))
    .addColumn('actor_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('excerpt', 'text', (c) => c.notNull())
    .addColumn('commit_sha', 'text')
    .addColumn('commit_url', 'text')
    .addColumn('read_at', t.timestamp)
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  // The recipient's list, newest first.
  await db.schema
    .createIndex('notifications_recipient_idx')
    .on('notifications')
    .columns(['recipient_id', 'id'])
    .execute();
  // The unread count and read-all touch only unread rows.
  await db.schema
    .createIndex('notifications_unread_idx')
    .on('notifications')
    .columns(['recipient_id', 'id'])
    .where(sql<boolean>`read_at is null`)
    .execute();
  // Deleting a comment deletes its notifications.
  await db.schema.createIndex('notifications_comment_idx').on('notifications').column('comment_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('notifications').execute();
}
