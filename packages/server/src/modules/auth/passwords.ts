import { randomBytes, scrypt, timingSafeEqual } from 'node:crypto';
import { dictionary } from '@zxcvbn-ts/language-common';
import { invalidField } from '../../errors.js';

const N = 16384;
const r = 8;
const p = 1;
const KEY_LENGTH = 64;

function derive(password: string, salt: Buffer, cost: { N: number; r: number; p: number }): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, { ...cost, maxmem: 64 * 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/** `scrypt$N$r$p$salt$hash`: the parameters travel with the hash so they can be raised later. */
const encoded = (salt: Buffer, key: Buffer) =>
  ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');

export async function hashPassword(password: string): Promise<string> {
  const salt = randomBytes(16);
  return encoded(salt, await derive(password, salt, { N, r, p }));
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, rr, pp, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64');
  const key = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(rr), p: Number(pp) });
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/**
 * Checked against when the e-mail is unknown, so a login takes as long either way: a hash of
 * the same cost whose key is random bytes, which no password derives. (It was the hash of a
 * random password, computed while the module loaded: a tenth of a second of every start.)
 */
export const UNKNOWN_USER_HASH = encoded(randomBytes(16), randomBytes(KEY_LENGTH));

/** The ~49,000 most common passwords of public breach lists, as zxcvbn ships them. */
const commonPasswords = new Set(dictionary['passwords-common']);

/**
 * A new password's rule beyond its length (the schema checks that): not one of the
 * commonly used ones, compared without case.
 */
export function requireUncommonPassword(password: string, path: string): void {
  if (commonPasswords.has(password.toLowerCase())) {
    throw invalidField(path, 'is one of the most commonly used passwords; choose another');
  }
}
