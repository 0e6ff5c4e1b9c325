import { type Kysely, PostgresAdapter } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Images of a comment's thread: attached by someone (to the comment, or to one of its replies:
 * `reply_id`), or the element as its author saw it when giving a verdict (`after`, kept with
 * that timeline event: `event_id`). Stored without their metadata. Comments made before have
 * none.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);
  const blob = db.getExecutor().adapter instanceof PostgresAdapter ? 'bytea' : 'blob';
  await db.schema
    .createTable('images')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('comment_id', 'text', (c) => c.notNull().references('comments.id').onDelete('cascade'))
    .addColumn('reply_id', 'text', (c) => c.references('replies.id').onDelete('cascade'))
    .addColumn('event_id', 'text')
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('author_id', 'text', (c) => c.references('users.id'))
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('bytes', blob, (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('images_comment_idx').on('images').columns(['comment_id', 'id']).execute();
  // The export's zip reads a workspace's images in order.
  await db.schema.createIndex('images_workspace_idx').on('images').columns(['workspace_id', 'id']).execute();
}
