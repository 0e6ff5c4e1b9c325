import { monotonicFactory } from 'ulid';
import type { Clock } from './clock.js';

export type IdPrefix =
  | 'ws'
  | 'usr'
  | 'prj'
  | 'cmt'
  | 'rpl'
  | 'ntf'
  | 'bld'
  | 'key'
  | 'ses'
  | 'inv'
  | 'rst'
  | 'att'
  | 'evt'
  | 'aud'
  | 'rec'
  | 'chl'
  | 'sso';

const ulid = monotonicFactory();

/** A time-sortable opaque id such as `cmt_01JD…`: ordering by id is ordering by creation. */
export function newId(prefix: IdPrefix): string {
  return `${prefix}_${ulid()}`;
}

export const ID_BODY_PATTERN = /^[a-z]{2,3}_[0-9A-HJKMNP-TV-Z]{26}$/;

/** The clock's time as stored: an ISO 8601 timestamp in UTC. */
export function nowIso(clock: Clock): string {
  return new Date(clock.now()).toISOString();
}
