import { type Kysely, PostgresAdapter, sql } from 'kysely';

/**
 * Column types that differ by dialect, for migrations only. Kept beside them (not
 * imported from the app) so that a released migration never changes under it.
 */
export function columnTypes(db: Kysely<unknown>) {
  const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
  return {
    timestamp: postgres ? sql`timestamptz` : sql`text`,
    float: postgres ? sql`double precision` : sql`real`,
  };
}
