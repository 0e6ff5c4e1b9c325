import type { Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Two-factor sign-in: a user's TOTP seed (encrypted), when they enrolled and the last time
 * step a code was accepted for (a code is good once); their single-use recovery codes
 * (hashed); the step between a right password and a session (a challenge); and what a
 * workspace requires of whom.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema.alterTable('users').addColumn('totp_secret', 'text').execute();
  await db.schema.alterTable('users').addColumn('totp_pending_secret', 'text').execute();
  await db.schema.alterTable('users').addColumn('totp_enabled_at', t.timestamp).execute();
  await db.schema.alterTable('users').addColumn('totp_last_step', 'integer').execute();
  await db.schema
    .alterTable('workspaces')
    .addColumn('two_factor_required', 'text', (c) => c.notNull().defaultTo('none'))
    .execute();
  await db.schema
    .createTable('recovery_codes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('used_at', t.timestamp)
    .execute();
  await db.schema.createIndex('recovery_codes_user_idx').on('recovery_codes').columns(['user_id']).execute();
  await db.schema
    .createTable('sign_in_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    // 'code': the user has a second factor; 'enrol': the workspace requires one they lack.
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('pending_secret', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sign_in_challenges_user_idx').on('sign_in_challenges').columns(['user_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sign_in_challenges').execute();
  await db.schema.dropTable('recovery_codes').execute();
  await db.schema.alterTable('workspaces').dropColumn('two_factor_required').execute();
  for (const column of ['totp_last_step', 'totp_enabled_at', 'totp_pending_secret', 'totp_secret']) {
    await db.schema.alterTable('users').dropColumn(column).execute();
  }
}
