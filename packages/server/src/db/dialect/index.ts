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
  if (!readableFromAnotherThread(config)) return null;
  return config.dialect === 'postgres' ? postgresReadingConnection(config.url) : sqliteReadingConnection(config.file);
}

/** Whether a thread other than the server's can open the database (not a SQLite database in memory). */
export const readableFromAnotherThread = (config: DatabaseConfig) =>
  config.dialect === 'postgres' || config.file !== ':memory:';
