import type { Kysely } from 'kysely';
import type { DatabaseConfig } from '../../config.js';
import type { Database } from '../schema.js';
import { postgresDialect } from './postgres.js';
import { sqliteDialect } from './sqlite.js';

/** Everything that differs between SQLite and PostgreSQL, behind one interface. */
export interface DialectSupport {
  name: 'sqlite' | 'postgres';
  db: Kysely<Database>;
  /** Runs start-up work (migrations, demo seed) so that only one process does it at once. */
  withStartupLock<T>(fn: () => Promise<T>): Promise<T>;
  isUniqueViolation(error: unknown): boolean;
  /** The schema migrations book-keeping lives in (PostgreSQL's current schema); undefined on SQLite. */
  currentSchema(): Promise<string | undefined>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export function openDatabase(config: DatabaseConfig): DialectSupport {
  return config.dialect === 'postgres' ? postgresDialect(config.url) : sqliteDialect(config.file);
}
