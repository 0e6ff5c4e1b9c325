import type { CompiledQuery, Kysely, Transaction } from 'kysely';
import type { Db, Tables } from './schema.js';

const pending = new WeakMap<object, (() => void)[]>();
const finishing = new WeakMap<object, ((trx: Transaction<Tables>) => Promise<void>)[]>();

/** Takes a write of the transaction `trx` to send with its last statement; false when it cannot. */
export type LateWriter = (trx: Transaction<Tables>, write: CompiledQuery) => boolean;
/** By database: how it sends a transaction's late writes (a database without one writes at once). */
const lateWriters = new WeakMap<object, LateWriter>();
/** By transaction begun by `inTransaction`: its database's late writer. */
const lateWriterOf = new WeakMap<object, LateWriter>();

/**
 * Lets `db`'s transactions hold the writes given to `writeBeforeCommit` for their last
 * statement. Set by a dialect for which each statement is a round trip (PostgreSQL).
 */
export function holdLateWrites(db: Kysely<Tables>, writer: LateWriter): void {
  lateWriters.set(db, writer);
}

/**
 * Writes `query` now, or, in a transaction of a database that holds late writes, with the
 * transaction's last statement. Only for writes that nothing in the transaction reads back:
 * until then the rows are not there. A failing one fails the commit, as it would have failed
 * the transaction.
 */
export async function writeBeforeCommit(db: Db, query: { compile(): CompiledQuery; execute(): Promise<unknown> }) {
  const writer = lateWriterOf.get(db);
  if (!writer?.(db as Transaction<Tables>, query.compile())) await query.execute();
}

/**
 * Runs `fn` in a transaction; callbacks registered with `afterCommit` run once it has
 * committed (and never if it rolls back). In-process caches are refreshed this way, so
 * that no reader can cache a value the transaction is about to change.
 */
export async function inTransaction<T>(db: Kysely<Tables>, fn: (trx: Transaction<Tables>) => Promise<T>): Promise<T> {
  const callbacks: (() => void)[] = [];
  const result = await db.transaction().execute(async (trx) => {
    pending.set(trx, callbacks);
    const writer = lateWriters.get(db);
    if (writer) lateWriterOf.set(trx, writer);
    const last: ((trx: Transaction<Tables>) => Promise<void>)[] = [];
    finishing.set(trx, last);
    const value = await fn(trx);
    for (const step of last) await step(trx);
    return value;
  });
  for (const callback of callbacks) callback();
  return result;
}

/** Defers `callback` until the transaction of `db` commits; runs it at once outside one. */
export function afterCommit(db: Db, callback: () => void): void {
  const callbacks = pending.get(db);
  if (callbacks) callbacks.push(callback);
  else callback();
}

/**
 * Has the transaction of `db` run `step` as its last statements before it commits; false
 * outside a transaction begun by `inTransaction` (the caller then acts at once). What several
 * parts of a change would each send (notifications of changes) goes in one round trip this way.
 */
export function beforeCommit(db: Db, step: (trx: Transaction<Tables>) => Promise<void>): boolean {
  const steps = finishing.get(db);
  steps?.push(step);
  return steps !== undefined;
}
