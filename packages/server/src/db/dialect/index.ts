import type { DatabaseConfig } from '../../config.js';
import { postgresDatabase } from './postgres.js';
import { sqliteDatabase } from './sqlite.js';
import type { Database } from './types.js';

export type { Change, ChangeFeed, ChangeHandler, Database, ShaRange } from './types.js';

export function openDatabase(config: DatabaseConfig): Database {
  return config.dialect === 'postgres' ? postgresDatabase(config.url) : sqliteDatabase(config.file);
}
