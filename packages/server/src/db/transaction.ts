import type { Kysely, Transaction } from 'kysely';
import type { Db, Tables } from './schema.js';

const pending = new WeakMap<object, (() => void)[]>();

/**
 * Runs `fn` in a transaction; callbacks registered with `afterCommit` run once it has
 * committed (and never if it rolls back). In-process caches are refreshed this way, so
 * that no reader can cache a value the transaction is about to change.
 */
export async function inTransaction<T>(db: Kysely<Tables>, fn: (trx: Transaction<Tables>) => Promise<T>): Promise<T> {
  const callbacks: (() => void)[] = [];
  const result = await db.transaction().execute((trx) => {
    pending.set(trx, callbacks);
    return fn(trx);
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
