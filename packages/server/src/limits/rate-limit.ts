import type { Db } from '../db/schema.js';
import { rateLimited } from '../errors.js';

/** A limit: at most `limit` events of one subject in any window of `windowMs`. */
export interface RateRule {
  /** Names the counter (e.g. `signin-address`); the subject (a user id, an address) follows it. */
  name: string;
  limit: number;
  windowMs: number;
  /** The limit in words, for its refusal to name (`at most 60 uploads a minute per person`). */
  says?: string;
}

export const MINUTE_MS = 60_000;

/**
 * Counters live in the database, so every server process shares them. The count is a
 * sliding window estimated from two fixed windows: the current one, plus the previous one
 * weighted by how much of it still overlaps the last `windowMs`. A fixed window alone would
 * let twice the limit through across a boundary.
 */
interface Counts {
  current: number;
  previous: number;
  windowStart: number;
}

const keyOf = (rule: RateRule, subject: string) => `${rule.name}:${subject}`;

function estimate(rule: RateRule, counts: Counts, now: number): number {
  const overlap = (rule.windowMs - (now - counts.windowStart)) / rule.windowMs;
  return counts.current + counts.previous * overlap;
}

/**
 * Seconds until one more event of `amount` fits: until `current + amount + previous * overlap`
 * is within the limit (where `current` counts the refused event too, when it was counted).
 */
function retryAfterSeconds(rule: RateRule, counts: Counts, now: number, amount = 1): number {
  const { current, previous, windowStart } = counts;
  const { limit, windowMs } = rule;
  const freeAt =
    current + amount <= limit && previous > 0
      ? // Later in this window, once the previous window's weight has decayed enough.
        windowStart + windowMs * (1 - (limit - current - amount) / previous)
      : // In the next window, once this window's count, by then the previous one, has decayed enough.
        windowStart + windowMs + windowMs * Math.max(0, 1 - (limit - amount) / Math.max(current, 1));
  return Math.max(1, Math.ceil((freeAt - now) / 1000));
}

const refusal = (rule: RateRule, counts: Counts, now: number, amount = 1) =>
  rateLimited(retryAfterSeconds(rule, counts, now, amount), rule.says);

/** `amount`: what one event counts for (1; a number of kilobytes for a limit on bytes). */
async function readCounts(db: Db, key: string, rule: RateRule, now: number, amount: number): Promise<Counts> {
  const windowStart = Math.floor(now / rule.windowMs) * rule.windowMs;
  const previousStart = windowStart - rule.windowMs;
  if (amount > 0) {
    // One statement counts the event and reads the previous window's count.
    const row = await db
      .insertInto('rate_limits')
      .values({ key, window_start: windowStart, count: amount })
      .onConflict((oc) =>
        oc.columns(['key', 'window_start']).doUpdateSet((eb) => ({ count: eb('rate_limits.count', '+', amount) })),
      )
      .returning((eb) => [
        'count',
        eb
          .selectFrom('rate_limits as earlier')
          .select('earlier.count')
          .where('earlier.key', '=', key)
          .where('earlier.window_start', '=', previousStart)
          .as('previous'),
      ])
      .executeTakeFirstOrThrow();
    if (row.count === amount) {
      // First event of a new window: windows older than the previous one are of no more use.
      await db.deleteFrom('rate_limits').where('key', '=', key).where('window_start', '<', previousStart).execute();
    }
    return { current: row.count, previous: Number(row.previous ?? 0), windowStart };
  }
  const rows = await db
    .selectFrom('rate_limits')
    .select(['window_start', 'count'])
    .where('key', '=', key)
    .where('window_start', 'in', [previousStart, windowStart])
    .execute();
  const countAt = (start: number) => Number(rows.find((r) => Number(r.window_start) === start)?.count ?? 0);
  return { current: countAt(windowStart), previous: countAt(previousStart), windowStart };
}

/**
 * Counts one event of `subject` (worth `amount`: 1, or what it weighs) and refuses it (429 with
 * Retry-After) when it goes over the limit.
 */
export async function consumeRateLimit(
  db: Db,
  rule: RateRule,
  subject: string,
  now: number,
  amount = 1,
): Promise<void> {
  const counts = await readCounts(db, keyOf(rule, subject), rule, now, amount);
  if (estimate(rule, counts, now) > rule.limit) throw refusal(rule, counts, now, amount);
}

/**
 * Refuses (429) when `subject` has already used up its limit, without counting anything:
 * for limits on failures, checked before the work an attacker would like to make us do.
 */
export async function refuseWhenExhausted(db: Db, rule: RateRule, subject: string, now: number): Promise<void> {
  const counts = await readCounts(db, keyOf(rule, subject), rule, now, 0);
  if (estimate(rule, counts, now) + 1 > rule.limit) throw refusal(rule, counts, now);
}

/** Counts one event (a failure) of `subject` without refusing anything. */
export async function countEvent(db: Db, rule: RateRule, subject: string, now: number): Promise<void> {
  await readCounts(db, keyOf(rule, subject), rule, now, 1);
}
