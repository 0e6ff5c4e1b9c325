import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { ADD_TO_COMPACTED, foldedDeltas, ROLLUP_COLUMNS } from '../rollups.js';
import type { Tables } from '../schema.js';
import { afterCommit, inTransaction } from '../transaction.js';
import { sqliteReader } from './sqlite-reader.js';
import type { ChangeHandler, Database, ShaRange } from './types.js';

/** A read-only connection to `file` for a thread's long reads (an export); WAL lets it read beside the writer. */
export function sqliteReadingConnection(file: string): Kysely<Tables> {
  const connection = new SQLite(file, { readonly: true, fileMustExist: true });
  connection.pragma('busy_timeout = 5000');
  return new Kysely<Tables>({ dialect: new SqliteDialect({ database: connection }) });
}

export function sqliteDatabase(file: string): Database {
  if (file !== ':memory:') fs.mkdirSync(path.dirname(file), { recursive: true });
  const connection = new SQLite(file);
  connection.pragma('journal_mode = WAL');
  connection.pragma('synchronous = NORMAL');
  connection.pragma('foreign_keys = ON');
  connection.pragma('busy_timeout = 5000');
  // What is deleted (a comment, an image, an account) is overwritten with zeros in the page it
  // leaves, and a page it frees is zeroed: without it the bytes stay in free space, and an
  // online backup, which copies every page, carries them on. Writes of a few more pages.
  connection.pragma('secure_delete = ON');
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: connection }) });
  const reads = file === ':memory:' ? db : sqliteReader(file);
  const handlers: ChangeHandler[] = [];

  return {
    name: 'sqlite',
    db,
    reads,
    // One process owns a SQLite file; Kysely serialises its single connection.
    withStartupLock: (fn) => fn(),
    isUniqueViolation: (error) =>
      typeof error === 'object' &&
      error !== null &&
      'code' in error &&
      (error.code === 'SQLITE_CONSTRAINT_UNIQUE' || error.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'),
    isForeignKeyViolation: (error) =>
      typeof error === 'object' && error !== null && 'code' in error && error.code === 'SQLITE_CONSTRAINT_FOREIGNKEY',
    currentSchema: async () => undefined,
    // A SQLite file has one server process: every change is made, and heard, here.
    changes: {
      publish: async (trx, change) => {
        afterCommit(trx, () => {
          for (const handler of handlers) handler(change);
        });
      },
      subscribe: (handler) => {
        handlers.push(handler);
      },
      heard: () => true,
    },
    lockComment: async () => {},
    lockRows: async () => {},
    // One connection: no delta can be appended between the fold and the delete.
    compactInsightRollups: () =>
      inTransaction(db, async (trx) => {
        const { rows } = await sql<{
          n: number;
        }>`select count(*) as n from insight_rollups where compacted = 0`.execute(trx);
        if (!rows[0]?.n) return 0;
        await sql`insert into insight_rollups ${ROLLUP_COLUMNS}
          select * from (${foldedDeltas('(select * from insight_rollups where compacted = 0) as deltas')}) where true
          ${ADD_TO_COMPACTED('min', 'max')}`.execute(trx);
        await sql`delete from insight_rollups where compacted = 0`.execute(trx);
        // After a large fold the table's statistics (if any were taken, with the deltas in it)
        // would have the planner think the deltas' index large and scan the table instead.
        if (rows[0].n > 10_000) await sql`analyze insight_rollups`.execute(trx);
        return rows[0].n;
      }),
    commentHasWord: (word) => {
      // Quoted: FTS5 reads it as a plain term, never as query syntax.
      const match = `"${word.replaceAll('"', '""')}"`;
      return sql<boolean>`comments.id in (select id from comments where rowid in (select rowid from comments_fts where comments_fts match ${match})
        union select comment_id from replies where rowid in (select rowid from replies_fts where replies_fts match ${match}))`;
    },
    jsonArrayOf: (column, filter) => sql`json_group_array(${column}) filter (where ${filter})`,
    parseJsonArray: (value) => (typeof value === 'string' ? JSON.parse(value) : []),
    rangesTable: (ranges) =>
      sql<ShaRange>`(select json_extract(value, '$.lo') as lo, json_extract(value, '$.hi') as hi, json_extract(value, '$.sha') as sha from json_each(${JSON.stringify(ranges)}))`,
    // The write-ahead log keeps a page as it was before each change (the deleted image in it)
    // until a checkpoint copies the pages into the file and the log starts again, overwriting
    // only as far as it writes: truncated, the log holds nothing deleted. A reader on an older
    // snapshot (an export) would make it wait; it is not waited for, and tried again next time.
    eraseDeleted: () =>
      db.connection().execute(async (connection) => {
        await sql`pragma busy_timeout = 0`.execute(connection);
        try {
          await sql`pragma wal_checkpoint(truncate)`.execute(connection);
        } finally {
          await sql`pragma busy_timeout = 5000`.execute(connection);
        }
      }),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    close: async () => {
      if (reads !== db) await reads.destroy();
      await db.destroy();
    },
  };
}
