import { randomFillSync } from 'node:crypto';
import { monotonicFactory } from 'ulid';
import type { Clock } from './clock.js';

export type IdPrefix =
  | 'ws'
  | 'usr'
  | 'prj'
  | 'lbl'
  | 'cmt'
  | 'rpl'
  | 'ntf'
  | 'bld'
  | 'key'
  | 'ses'
  | 'inv'
  | 'rst'
  | 'att'
  | 'img'
  | 'evt'
  | 'aud'
  | 'rec'
  | 'chl'
  | 'sso'
  | 'dom';

/** Random bytes drawn a few kilobytes at a time: the default asks the system for each character of an id. */
const pool = Buffer.alloc(4096);
let drawn = pool.length;
/** A fraction in [0, 1) from one random byte, as ulid's own generator gives (256 is a multiple of its 32 characters). */
function randomFraction(): number {
  if (drawn === pool.length) {
    randomFillSync(pool);
    drawn = 0;
  }
  return (pool[drawn++] as number) / 256;
}

const ulid = monotonicFactory(randomFraction);

/** A time-sortable opaque id such as `cmt_01JD…`: ordering by id is ordering by creation. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${ulid()}`;
}

export const ID_BODY_PATTERN = /^[a-z]{2,3}_[0-9A-HJKMNP-TV-Z]{26}$/;

/** The clock's time as stored: an ISO 8601 timestamp in UTC. */
export function nowIso(clock: Clock): string {
  return new Date(clock.now()).toISOString();
}
