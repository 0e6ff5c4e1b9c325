import { DEFAULT_MIGRATION_TABLE, Migrator, sql } from 'kysely';
import { migrationProvider } from './migrations/index.js';
import type { Db } from './schema.js';

/**
 * Brings the schema up to date; the caller holds the start-up lock. The book-keeping
 * tables are pinned to the connection's schema so that another schema's never count.
 */
export async function migrateToLatest(db: Db, schema: string | undefined): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: migrationProvider,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  await refuseNewerSchema(db, schema);
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const name = failed ? ` ${failed.migrationName}` : '';
    throw new Error(`Database migration${name} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}

/** The server exits with this message rather than run against a schema it does not know. */
export class NewerSchemaError extends Error {}

/**
 * A database migrated by a newer version of the server has migrations this one does not
 * know: running against it would misread or damage data, so starting is refused.
 */
async function refuseNewerSchema(db: Db, schema: string | undefined): Promise<void> {
  const table = schema ? sql.table(`${schema}.${DEFAULT_MIGRATION_TABLE}`) : sql.table(DEFAULT_MIGRATION_TABLE);
  let executed: string[];
  try {
    const { rows } = await sql<{ name: string }>`select name from ${table}`.execute(db);
    executed = rows.map((row) => row.name);
  } catch {
    return; // A new database: no migration has run yet.
  }
  const known = new Set(Object.keys(await migrationProvider.getMigrations()));
  const unknown = executed.filter((name) => !known.has(name)).sort();
  if (unknown.length === 0) return;
  throw new NewerSchemaError(
    `The database was migrated by a newer version of this server (it has ${unknown.join(', ')}, which this version does not know). ` +
      'Run that version or a later one, or restore the backup taken before the upgrade.',
  );
}
