import type { Db } from '../db/schema.js';
import { rateLimited } from '../errors.js';

const WINDOW_MS = 60_000;

/**
 * Counts one use of `key` in the current one-minute window and throws 429 past `limit`.
 * The counter lives in the database, so every server process shares it.
 */
export async function consumeRateLimit(db: Db, key: string, limit: number, now = Date.now()): Promise<void> {
  const windowStart = Math.floor(now / WINDOW_MS) * WINDOW_MS;
  const row = await db
    .insertInto('rate_limits')
    .values({ key, window_start: windowStart, count: 1 })
    .onConflict((oc) =>
      oc.columns(['key', 'window_start']).doUpdateSet((eb) => ({ count: eb('rate_limits.count', '+', 1) })),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  if (row.count === 1) {
    // First use in a new window: the key's older windows are of no more use.
    await db.deleteFrom('rate_limits').where('key', '=', key).where('window_start', '<', windowStart).execute();
  }
  if (row.count > limit) throw rateLimited(Math.max(1, Math.ceil((windowStart + WINDOW_MS - now) / 1000)));
}
