import type { Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Workspace administration: a project's app URL; members who can be removed (their comments
 * stay) and whose last sign-in is shown; one-time links for invitations and password resets.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.alterTable('projects').addColumn('app_url', 'text').execute();
  await db.schema.alterTable('users').addColumn('removed_at', t.timestamp).execute();
  await db.schema.alterTable('users').addColumn('last_sign_in_at', t.timestamp).execute();
  await db.schema
    .createTable('one_time_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text')
    .addColumn('role', 'text')
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('created_by_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .addColumn('expires_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('one_time_links_workspace_idx')
    .on('one_time_links')
    .columns(['workspace_id', 'purpose', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('one_time_links').execute();
  await db.schema.alterTable('users').dropColumn('last_sign_in_at').execute();
  await db.schema.alterTable('users').dropColumn('removed_at').execute();
  await db.schema.alterTable('projects').dropColumn('app_url').execute();
}
