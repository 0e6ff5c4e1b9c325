import type { Kysely, RawBuilder } from 'kysely';
import type { Db, Tables } from '../schema.js';

/** A change other processes must hear of to keep their caches exact. */
export interface Change {
  kind: 'credential' | 'unread' | 'origins' | 'comments';
  /** A credential's hash, a user id, a workspace and project (comments: `ws_…/prj_…`), or nothing (origins: re-read them all). */
  key: string;
}

export interface ShaRange {
  lo: string;
  hi: string;
  sha: string;
}

export type ChangeHandler = (change: Change | 'reset') => void;

/**
 * How every server process hears of the changes that keep its caches exact: a change is
 * published inside the transaction that makes it and delivered, to this process and the
 * others, once that transaction commits. On PostgreSQL this is LISTEN/NOTIFY.
 */
export interface ChangeFeed {
  publish(db: Db, change: Change): Promise<void>;
  /** Receives changes; 'reset' when some may have been missed (the listener reconnected). */
  subscribe(handler: ChangeHandler): void;
  /** True while every change made by another process is sure to be heard here. */
  heard(): boolean;
}

/** Rows `lockRows` locks: a workspace's own, some of its people's or labels', or every comment of one of its projects. */
export type LockedRows =
  | { table: 'workspaces'; workspaceId: string }
  | { table: 'users' | 'labels'; workspaceId: string; ids: readonly string[] }
  | { table: 'comments'; workspaceId: string; projectId: string };

/** The database the server runs on: its connection, its change feed, and what differs between SQLite and PostgreSQL. */
export interface Database {
  name: 'sqlite' | 'postgres';
  db: Kysely<Tables>;
  /**
   * Where long reads run (a year of insights, a search), so that they never hold other
   * requests: on SQLite a thread of its own with a read-only connection (WAL lets it read
   * beside the writer; a database in memory has none, and reads on `db`); on PostgreSQL a
   * connection of their own, so that one of them at a time takes a core of the database. Reads only, no transactions. (Exports have threads of their own.)
   */
  reads: Kysely<Tables>;
  changes: ChangeFeed;
  /** Runs start-up work (migrations, demo seed) so that only one process does it at once. */
  withStartupLock<T>(fn: () => Promise<T>): Promise<T>;
  isUniqueViolation(error: unknown): boolean;
  /** Whether a write failed because a row it refers to is gone: deleted meanwhile, by a change that committed first. */
  isForeignKeyViolation(error: unknown): boolean;
  /** The schema migrations book-keeping lives in (PostgreSQL's current schema); undefined on SQLite. */
  currentSchema(): Promise<string | undefined>;
  /**
   * A condition on `comments.id`: the comment's body or one of its replies holds `word` (a
   * whole word, any case), looked up in the full-text index.
   */
  commentHasWord(word: string): RawBuilder<boolean>;
  /**
   * Locks a comment's row until `trx` ends, so that concurrent changes of one comment run one
   * after the other. PostgreSQL: `select … for update`. SQLite needs nothing: its one
   * connection runs one transaction at a time.
   */
  lockComment(trx: Db, workspaceId: string, id: string): Promise<void>;
  /**
   * Locks rows of the workspace (its own row, or some of its people or labels, by id) until
   * `trx` ends, so that what a change checks of them holds until it commits: a cap counted
   * under the workspace's lock, a person or label read under theirs. `share`: others may check
   * them too meanwhile, none may change them; `update`: one change of them at a time, and no
   * check of them meanwhile; `delete`: about to be deleted, so that nothing may refer to them
   * meanwhile either. Locks are taken workspace first, then people and labels, then comments,
   * then a project's row (which a write in one of its comments refers to), so that two changes
   * never wait for each other. PostgreSQL: `select … for share`, `for no key update` (which
   * rows that only refer to them do not wait for) or `for update`. SQLite needs nothing: its
   * one connection runs one transaction at a time.
   */
  lockRows(trx: Db, rows: LockedRows, mode: 'share' | 'update' | 'delete'): Promise<void>;
  /** An aggregate: the values of `column` in rows where `filter` holds, as a JSON array (read it with `parseJsonArray`). */
  jsonArrayOf(column: RawBuilder<unknown>, filter: RawBuilder<unknown>): RawBuilder<unknown>;
  /** What `jsonArrayOf` gave, as an array (none when no row held). */
  parseJsonArray(value: unknown): unknown[];
  /** A derived table `(lo, hi, sha)` of SHA ranges, bound as parameters (not one per row). */
  rangesTable(ranges: readonly ShaRange[]): RawBuilder<ShaRange>;
  /**
   * Folds the insight roll-ups' deltas into their compacted rows (see db/rollups.ts); how many
   * rows it wrote. One process at a time; a second one meanwhile does nothing.
   */
  compactInsightRollups(): Promise<number>;
  /**
   * Erases what deletions left behind outside the live pages (SQLite: its write-ahead log,
   * checkpointed and truncated); run every minute while the server serves, and on demand.
   */
  eraseDeleted(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
