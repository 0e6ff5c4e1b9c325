import { randomBytes } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { columnTypes } from './column-types.js';

/**
 * Doors between tenants. An import creates its workspace and records which export it came from
 * (a digest of the file's header), so that the same file may run again and no other file
 * writes into it. E-mails are stored in one case: an earlier import stored them as the file
 * had them, so that `Admin@Example.com` stood beside `admin@example.com`; each is lowered now,
 * and one whose lowered form another account holds loses its e-mail, as an import does when
 * the e-mail is taken. A single sign-on's e-mail domains become rows of their own, each routing
 * sign-ins only once the workspace has proven it (a DNS record, or the operator): the domains
 * listed before are kept, unproven. The server's own keys (sealed with SVC_SECRET_KEY) get a
 * table: the one that hashes recovery codes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const { timestamp } = columnTypes(db);
  await db.schema.alterTable('workspaces').addColumn('imported_from', 'text').execute();
  const mixed = await db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('email', 'is not', null)
    .where(sql<boolean>`email <> lower(email)`)
    .orderBy('id')
    .execute();
  for (const user of mixed as { id: string; email: string }[]) {
    const lowered = user.email.toLowerCase();
    const holder = await db.selectFrom('users').select('id').where('email', '=', lowered).executeTakeFirst();
    await db
      .updateTable('users')
      .set({ email: holder ? null : lowered })
      .where('id', '=', user.id)
      .execute();
  }

  await db.schema
    .createTable('sso_domains')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('domain', 'text', (c) => c.notNull())
    // The value of the TXT record that proves it (public once published: not a secret).
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('proven_at', timestamp)
    // 'dns' or 'operator'.
    .addColumn('proven_by', 'text')
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .addUniqueConstraint('sso_domains_workspace_domain', ['workspace_id', 'domain'])
    .execute();
  // One workspace on a server routes a domain: the first to prove it.
  await db.schema
    .createIndex('sso_domains_proven')
    .on('sso_domains')
    .column('domain')
    .unique()
    .where(sql.ref('proven_at'), 'is not', null)
    .execute();
  const providers = await db
    .selectFrom('sso_providers')
    .select(['workspace_id', 'allowed_domains', 'updated_at'])
    .execute();
  for (const provider of providers as { workspace_id: string; allowed_domains: string; updated_at: string }[]) {
    for (const domain of JSON.parse(provider.allowed_domains) as string[]) {
      await db
        .insertInto('sso_domains')
        .values({
          id: `dom_${randomBytes(13).toString('hex').toUpperCase()}`,
          workspace_id: provider.workspace_id,
          domain,
          token: randomBytes(18).toString('base64url'),
          proven_at: null,
          proven_by: null,
          created_at: provider.updated_at,
        })
        .execute();
    }
  }
  await db.schema.alterTable('sso_providers').dropColumn('allowed_domains').execute();

  await db.schema
    .createTable('server_keys')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', timestamp, (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('server_keys').execute();
  await db.schema
    .alterTable('sso_providers')
    .addColumn('allowed_domains', 'text', (c) => c.notNull().defaultTo('[]'))
    .execute();
  await db.schema.dropTable('sso_domains').execute();
  await db.schema.alterTable('workspaces').dropColumn('imported_from').execute();
}
