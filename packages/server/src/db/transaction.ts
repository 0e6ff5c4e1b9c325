import type { Kysely, Transaction } from 'kysely';
import type { Db, Tables } from './schema.js';

const pending = new WeakMap<object, (() => void)[]>();
const finishing = new WeakMap<object, ((trx: Transaction<Tables>) => Promise<void>)[]>();

/**
 * Runs `fn` in a transaction; callbacks registered with `afterCommit` run once it has
 * committed (and never if it rolls back). In-process caches are refreshed this way, so
 * that no reader can cache a value the transaction is about to change.
 */
export async function inTransaction<T>(db: Kysely<Tables>, fn: (trx: Transaction<Tables>) => Promise<T>): Promise<T> {
  const callbacks: (() => void)[] = [];
  const result = await db.transaction().execute(async (trx) => {
    pending.set(trx, callbacks);
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
