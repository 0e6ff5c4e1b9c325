import type { Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Origins a project's widget was refused on, so that the console can offer to allow them:
 * one row per project and origin, with when it was first and last seen and how often.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('refused_origins')
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('first_seen_at', t.timestamp, (c) => c.notNull())
    .addColumn('last_seen_at', t.timestamp, (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull())
    .addPrimaryKeyConstraint('refused_origins_pk', ['project_id', 'origin'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('refused_origins').execute();
}
