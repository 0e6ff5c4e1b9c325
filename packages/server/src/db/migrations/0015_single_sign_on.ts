import type { Kysely } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Single sign-on through a workspace's OpenID Connect provider: the provider (its client
 * secret sealed), the provider's subject linked to each account it signed in (so a changed
 * e-mail does not make a stranger of someone), and each sign-in under way (state, nonce and
 * PKCE verifier until the provider answers; then a one-time code the console exchanges).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const t = columnTypes(db);
  await db.schema
    .createTable('sso_providers')
    .addColumn('workspace_id', 'text', (c) => c.primaryKey().references('workspaces.id').onDelete('cascade'))
    .addColumn('issuer', 'text', (c) => c.notNull())
    .addColumn('client_id', 'text', (c) => c.notNull())
    .addColumn('client_secret', 'text', (c) => c.notNull())
    .addColumn('display_name', 'text', (c) => c.notNull())
    // A JSON array of lower-case domains.
    .addColumn('allowed_domains', 'text', (c) => c.notNull())
    .addColumn('new_member_role', 'text')
    .addColumn('require_for_members', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('updated_at', t.timestamp, (c) => c.notNull())
    .execute();
  await db.schema.alterTable('users').addColumn('sso_subject', 'text').execute();
  await db.schema
    .createIndex('users_sso_subject_idx')
    .on('users')
    .columns(['workspace_id', 'sso_subject'])
    .unique()
    .execute();
  await db.schema
    .createTable('sso_attempts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('state_hash', 'text', (c) => c.notNull().unique())
    .addColumn('nonce', 'text', (c) => c.notNull())
    .addColumn('code_verifier', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('exchange_hash', 'text', (c) => c.unique())
    // The hash of a secret the browser that started the sign-in keeps: the one-time code is
    // exchanged only with it, so an answer of the provider for someone else's sign-in, opened in
    // this browser, signs nobody in here.
    .addColumn('binding_hash', 'text')
    // The page a widget started the sign-in from: its popup hands the one-time code back there.
    .addColumn('return_origin', 'text')
    .addColumn('created_at', t.timestamp, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('sso_attempts').execute();
  await db.schema.dropIndex('users_sso_subject_idx').execute();
  await db.schema.alterTable('users').dropColumn('sso_subject').execute();
  await db.schema.dropTable('sso_providers').execute();
}
