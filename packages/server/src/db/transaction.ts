import type { CompiledQuery, Kysely, KyselyPlugin, Transaction } from 'kysely';
import type { Db, Tables } from './schema.js';

/** A step run with the last statement: on the transaction, or on the database after `readThenWrite`'s reads. */
type LastStep = (db: Db) => Promise<void>;

const pending = new WeakMap<object, (() => void)[]>();
const finishing = new WeakMap<object, LastStep[]>();

/** Takes a write of the transaction `trx` to send with its last statement; false when it cannot. */
export type LateWriter = (trx: Db, write: CompiledQuery) => boolean;
/** By database: how it sends a transaction's late writes (a database without one writes at once). */
const lateWriters = new WeakMap<object, LateWriter>();
/** By transaction begun by `inTransaction` (or `readThenWrite`): its database's late writer. */
const lateWriterOf = new WeakMap<object, LateWriter>();

/** True while `writeBeforeCommit` compiles a write to hold (compiling is synchronous). */
let holding = false;

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
  if (!writer) return void (await query.execute());
  let compiled: CompiledQuery;
  holding = true;
  try {
    compiled = query.compile();
  } finally {
    holding = false;
  }
  if (!writer(db, compiled)) await query.execute();
}

/**
 * Runs `fn` in a transaction; callbacks registered with `afterCommit` run once it has
 * committed (and never if it rolls back). In-process caches are refreshed this way, so
 * that no reader can cache a value the transaction is about to change.
 */
export async function inTransaction<T>(db: Kysely<Tables>, fn: (trx: Transaction<Tables>) => Promise<T>): Promise<T> {
  let callbacks: (() => void)[] = [];
  const result = await db.transaction().execute(async (trx) => {
    const change = track(db, trx);
    callbacks = change.callbacks;
    const value = await fn(trx);
    for (const step of change.last) await step(trx);
    return value;
  });
  for (const callback of callbacks) callback();
  return result;
}

/**
 * Registers `change` (a transaction, or `readThenWrite`'s instance) as one change of `db`:
 * what is deferred to its commit, the steps of its last statement, and the late writer of
 * its database, which `afterCommit`, `beforeCommit` and `writeBeforeCommit` then find.
 */
function track(db: Kysely<Tables>, change: Db) {
  const callbacks: (() => void)[] = [];
  const last: LastStep[] = [];
  pending.set(change, callbacks);
  finishing.set(change, last);
  const writer = lateWriters.get(db);
  if (writer) lateWriterOf.set(change, writer);
  return { callbacks, last };
}

/** Refuses every statement but a query's and a held write's: what `readThenWrite`'s reads may run. */
const readsOnly: KyselyPlugin = {
  transformQuery({ node }) {
    if (!holding && node.kind !== 'SelectQueryNode')
      throw new Error(`readThenWrite: a ${node.kind} outside writeBeforeCommit`);
    return node;
  },
  transformResult: async ({ result }) => result,
};

/**
 * Runs `fn`, which reads and then writes only through `writeBeforeCommit` and announced
 * changes, as one atomic change. On a database that holds late writes (PostgreSQL) there is
 * no transaction: the reads run as they come, each seeing what is committed when it starts
 * (as each statement of a read-committed transaction does, locking nothing), and the writes
 * go in one statement, atomic on its own: two round trips fewer than `begin` … `commit`. Any
 * other statement is refused there (an error, before it runs). Elsewhere, a transaction.
 */
export async function readThenWrite<T>(db: Kysely<Tables>, fn: (db: Db) => Promise<T>): Promise<T> {
  const writer = lateWriters.get(db);
  if (!writer) return inTransaction(db, fn);
  // An instance of its own: what `fn` holds and defers is kept by it, as by a transaction.
  const reader = db.withPlugin(readsOnly);
  const { callbacks, last } = track(db, reader);
  const value = await fn(reader);
  // One step at most (the dialect's last statement): two would be two statements, not one change.
  if (last.length > 1) throw new Error('readThenWrite: more than one last statement');
  for (const step of last) await step(db);
  for (const callback of callbacks) callback();
  return value;
}

/** Defers `callback` until the transaction of `db` commits; runs it at once outside one. */
export function afterCommit(db: Db, callback: () => void): void {
  const callbacks = pending.get(db);
  if (callbacks) callbacks.push(callback);
  else callback();
}

/**
 * Has the transaction of `db` run `step` as its last statements before it commits; false
 * outside a transaction begun by `inTransaction` or a `readThenWrite` (the caller then acts
 * at once). What several
 * parts of a change would each send (notifications of changes) goes in one round trip this way.
 */
export function beforeCommit(db: Db, step: LastStep): boolean {
  const steps = finishing.get(db);
  steps?.push(step);
  return steps !== undefined;
}

/**
 * Runs `change`; a write of it refused because a row it refers to was deleted meanwhile, by a
 * change that committed first (the comment replied to, the project written in), throws `gone()`
 * instead: the answer it would have had a moment later.
 */
export async function unlessGone<T>(
  database: { isForeignKeyViolation(error: unknown): boolean },
  change: () => Promise<T>,
  gone: () => Error,
): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (database.isForeignKeyViolation(error)) throw gone();
    throw error;
  }
}
