import { Migrator } from 'kysely';
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
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    const name = failed ? ` ${failed.migrationName}` : '';
    throw new Error(`Database migration${name} failed: ${error instanceof Error ? error.message : String(error)}`, {
      cause: error,
    });
  }
}
