import type { DatabaseConfig } from '../../config.js';
import { postgresDialect } from './postgres.js';
import { sqliteDialect } from './sqlite.js';
import type { DialectSupport } from './types.js';

export type { Change, ChangeHandler, DialectSupport, ShaRange } from './types.js';

export function openDatabase(config: DatabaseConfig): DialectSupport {
  return config.dialect === 'postgres' ? postgresDialect(config.url) : sqliteDialect(config.file);
}
