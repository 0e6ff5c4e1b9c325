import type { Kysely } from 'kysely';

/**
 * The language each person reads the widget and the console in (null: as their page or browser
 * says), and the workspace's default for those whose browser speaks none of the catalogues'.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('users').addColumn('locale', 'text').execute();
  await db.schema.alterTable('workspaces').addColumn('default_locale', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('workspaces').dropColumn('default_locale').execute();
  await db.schema.alterTable('users').dropColumn('locale').execute();
}
