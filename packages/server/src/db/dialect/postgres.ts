import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database } from '../schema.js';
import type { DialectSupport } from './index.js';

// Read timestamptz as ISO 8601 strings, the shape the SQLite side stores and the API speaks.
const TIMESTAMPTZ_OID = 1184;
const INT8_OID = 20;
pg.types.setTypeParser(TIMESTAMPTZ_OID, (value) => new Date(value).toISOString());
// count(*) is bigint; our counts fit comfortably in a JS number.
pg.types.setTypeParser(INT8_OID, (value) => Number(value));

/** Arbitrary constant naming the start-up lock in pg_advisory_lock's key space. */
const STARTUP_LOCK_KEY = 7_240_531_118;

export function postgresDialect(url: string): DialectSupport {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // An idle client that loses its connection must not crash the process.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });

  return {
    name: 'postgres',
    db,
    withStartupLock: (fn) =>
      db.connection().execute(async (conn) => {
        await sql`select pg_advisory_lock(${STARTUP_LOCK_KEY})`.execute(conn);
        try {
          return await fn();
        } finally {
          await sql`select pg_advisory_unlock(${STARTUP_LOCK_KEY})`.execute(conn);
        }
      }),
    isUniqueViolation: (error) =>
      typeof error === 'object' && error !== null && 'code' in error && error.code === '23505',
    currentSchema: async () => {
      const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
      return rows[0]?.schema;
    },
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: () => db.destroy(),
  };
}
