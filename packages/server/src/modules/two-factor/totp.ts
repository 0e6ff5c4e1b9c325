// Time-based one-time codes (RFC 6238: SHA-1, 6 digits, 30-second steps, as every
// authenticator app reads them) and the recovery codes that stand in for a lost phone.
import { createHmac, randomInt } from 'node:crypto';
import { Secret, TOTP } from 'otpauth';
import { renderSVG } from 'uqr';
import { hashToken } from '../auth/tokens.js';

const STEP_MS = 30_000;
/** A code of the step before or after is accepted too: a phone's clock may be off by that much. */
const WINDOW = 1;
export const RECOVERY_CODES = 10;
const ISSUER = 'Feedback comments';

/** A new seed, base32 (160 random bits, as RFC 4226 recommends). */
export const newSeed = () => new Secret({ size: 20 }).base32;

const totpOf = (seed: string, label = '') =>
  new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: 6, period: STEP_MS / 1000, secret: seed });

/** What an app needs to enrol: the seed typed, or the QR code of its otpauth:// address scanned. */
export function enrolmentOf(seed: string, account: string) {
  const uri = totpOf(seed, account).toString();
  return { secret: seed, uri, qrSvg: renderSVG(uri, { border: 2 }) };
}

/**
 * The step `code` is good for at `now`, if it is one and later than `lastStep` (a code is
 * good once: one seen over someone's shoulder is spent); null otherwise.
 */
export function acceptedStep(seed: string, code: string, lastStep: number | null, now: number): number | null {
  if (!/^\d{6}$/.test(code)) return null;
  const delta = totpOf(seed).validate({ token: code, timestamp: now, window: WINDOW });
  if (delta === null) return null;
  const step = Math.floor(now / STEP_MS) + delta;
  return lastStep !== null && step <= lastStep ? null : step;
}

/** A code of `seed` at `now`, for tests and for the operator's checks. */
export const codeAt = (seed: string, now: number) => totpOf(seed).generate({ timestamp: now });

const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** Ten codes of ten characters (about 49 bits each), written `xxxxx-xxxxx`. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODES }, () => {
    const chars = Array.from({ length: 10 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    return `${chars.slice(0, 5)}-${chars.slice(5)}`;
  });
}

/** A recovery code as compared: as typed, without case, dashes or spaces. */
const normalRecoveryCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

/**
 * How a recovery code is stored: an HMAC under a key of the server's (sealed with
 * SVC_SECRET_KEY), so that a stolen database alone does not let anyone try the codes' 49 bits
 * offline, as a plain hash would.
 */
export const hashRecoveryCode = (key: Buffer, code: string) =>
  createHmac('sha256', key).update(normalRecoveryCode(code)).digest('hex');

/** Its plain SHA-256, as releases before stored codes: still spent until renewed. */
export const legacyRecoveryCodeHash = (code: string) => hashToken(normalRecoveryCode(code));

/** Whether `code` is written like a recovery code rather than an app's six digits. */
export const looksLikeRecoveryCode = (code: string) => !/^\d{6}$/.test(code.trim());
