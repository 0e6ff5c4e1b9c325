import type { Kysely, RawBuilder } from 'kysely';
import type { Database, Db } from '../schema.js';

/** A change other processes must hear of to keep their caches exact. */
export interface Change {
  kind: 'credential' | 'unread';
  /** A credential's hash, or a user id. */
  key: string;
}

export interface ShaRange {
  lo: string;
  hi: string;
  sha: string;
}

export type ChangeHandler = (change: Change | 'reset') => void;

/** Everything that differs between SQLite and PostgreSQL, behind one interface. */
export interface DialectSupport {
  name: 'sqlite' | 'postgres';
  db: Kysely<Database>;
  /** Runs start-up work (migrations, demo seed) so that only one process does it at once. */
  withStartupLock<T>(fn: () => Promise<T>): Promise<T>;
  isUniqueViolation(error: unknown): boolean;
  /** The schema migrations book-keeping lives in (PostgreSQL's current schema); undefined on SQLite. */
  currentSchema(): Promise<string | undefined>;
  /**
   * Announces a change made in `db`'s transaction to every server process, this one
   * included, once it commits. On PostgreSQL this is NOTIFY, delivered only on commit.
   */
  publishChange(db: Db, change: Change): Promise<void>;
  /** Receives changes; 'reset' when some may have been missed (the listener reconnected). */
  onChange(handler: ChangeHandler): void;
  /** True while every change made by another process is sure to be heard here. */
  changesHeard(): boolean;
  /** A derived table `(lo, hi, sha)` of SHA ranges, bound as parameters (not one per row). */
  rangesTable(ranges: readonly ShaRange[]): RawBuilder<ShaRange>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
