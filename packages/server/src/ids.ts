import { monotonicFactory } from 'ulid';

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

export function nowIso(): string {
  return new Date().toISOString();
}
