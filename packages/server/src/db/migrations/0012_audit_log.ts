import type { Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * The audit log: one row per administrative or security action of a workspace (sign-ins and
 * their failures, sessions, invitations, roles, removals, client links, API keys, projects,
 * password resets), with who, when and from which address. Newest first by id; pruned by age.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('action', 'text', (c) => c.notNull())
    // Who acted, as they were named then: the log outlives accounts (no foreign key) and renames.
    .addColumn('actor_id', 'text')
    .addColumn('actor_name', 'text')
    .addColumn('address', 'text')
    .addColumn('target_kind', 'text')
    .addColumn('target_id', 'text')
    .addColumn('target_label', 'text')
    .addColumn('detail', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('audit_events_workspace_idx')
    .on('audit_events')
    .columns(['workspace_id', 'id'])
    .execute();
  await db.schema.createIndex('audit_events_created_idx').on('audit_events').column('created_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_events').execute();
}
