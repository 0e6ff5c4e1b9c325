import type { Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * A team divides the work. A comment may be assigned to one person of the team or to an agent
 * (since when, too: how long claimed work waits); agents are accounts of their own (`kind`
 * 'agent'), which act through their API keys only, so that two agents are two claimants. A
 * timeline event may name the person it is about (an assignment's assignee). Comments made
 * before have nobody on them; every account made before is a person.
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
  // "Assigned to me", "unassigned": the list filtered by assignee reads in its order (newest first).
  await db.schema
    .createIndex('comments_assignee_idx')
    .on('comments')
    .columns(['workspace_id', 'assignee_id', 'id'])
    .execute();
}
