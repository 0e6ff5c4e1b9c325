import type { Kysely } from 'kysely';
import type { DatabaseConfig } from '../../config.js';
import type { Tables } from '../schema.js';
import { postgresDatabase, postgresReadingConnection } from './postgres.js';
import { sqliteDatabase, sqliteReadingConnection } from './sqlite.js';
import type { Database } from './types.js';

export type { Change, ChangeFeed, ChangeHandler, Database, ShaRange } from './types.js';

export function openDatabase(config: DatabaseConfig): Database {
  return config.dialect === 'postgres' ? postgresDatabase(config.url) : sqliteDatabase(config.file);
}

/**
 * A read-only connection of its own, for a thread other than the server's (an export's), or
 * null where no other thread can reach the data (a SQLite database in memory).
 */
export function openReadingConnection(config: DatabaseConfig): Kysely<Tables> | null {
  if (config.dialect === 'postgres') return postgresReadingConnection(config.url);
  return config.file === ':memory:' ? null : sqliteReadingConnection(config.file);
}
