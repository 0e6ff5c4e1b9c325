import type { Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * A team divides the work. A comment may be assigned to one person of the team or to an agent
 * (since when, too: how long claimed work waits); agents are accounts of their own (`kind`
 * 'agent'), which act through their API keys only, so that two agents are two claimants. A
 * timeline event may name the person it is about (an assignment's assignee). A comment has a
 * priority (0 none … 4 urgent) and the workspace's labels. Comments made before have nobody on
 * them, no priority and no label; every account made before is a person.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const { timestamp } = columnTypes(db);
  await db.schema
    .alterTable('users')
    .addColumn('kind', 'text', (c) => c.notNull().defaultTo('person'))
    .execute();
  await db.schema
    .alterTable('comments')
    .addColumn('assignee_id', 'text', (c) => c.references('users.id'))
    .execute();
  await db.schema.alterTable('comments').addColumn('assigned_at', timestamp).execute();
  await db.schema
    .alterTable('comment_events')
    .addColumn('subject_id', 'text', (c) => c.references('users.id'))
    .execute();
  await db.schema
    .alterTable('comments')
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('labels')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    // The name in one case: two labels of a workspace are never "Bug" and "bug".
    .addColumn('name_key', 'text', (c) => c.notNull())
    .addColumn('color', 'text', (c) => c.notNull())
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addUniqueConstraint('labels_workspace_name', ['workspace_id', 'name_key'])
    .execute();
  await db.schema
    .createTable('comment_labels')
    .addColumn('comment_id', 'text', (c) => c.notNull().references('comments.id').onDelete('cascade'))
    .addColumn('label_id', 'text', (c) => c.notNull().references('labels.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('comment_labels_pk', ['comment_id', 'label_id'])
    .execute();
  await db.schema
    .createIndex('comment_labels_label_idx')
    .on('comment_labels')
    .columns(['label_id', 'comment_id'])
    .execute();
  await db.schema
    .createIndex('comments_priority_idx')
    .on('comments')
    .columns(['workspace_id', 'priority', 'id'])
    .execute();
  // "Assigned to me", "unassigned": the list filtered by assignee reads in its order (newest first).
  await db.schema
    .createIndex('comments_assignee_idx')
    .on('comments')
    .columns(['workspace_id', 'assignee_id', 'id'])
    .execute();
}
