// Secrets the server must read back (two-factor seeds) are encrypted at rest with AES-256-GCM
// under a key from the environment (SVC_SECRET_KEY). Each sealed value names the key that
// sealed it, so a rotation can go on while old values are still read with the previous key
// (SVC_SECRET_KEY_PREVIOUS), and the admin command re-seals them under the new one.
import { createCipheriv, createDecipheriv, hash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config.js';
import type { Db } from './db/schema.js';

const VERSION = 'v1';

/** Seals and opens secrets with the configured keys. */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
  /** Whether a sealed value was sealed with a key other than the current one. */
  isStale(sealed: string): boolean;
}

const keyId = (key: Buffer) => hash('sha256', key, 'hex').slice(0, 8);

/** A box over `keys`, the first sealing, every one opening. */
export function secretBox(keys: readonly Buffer[]): SecretBox {
  const [current] = keys;
  if (!current) throw new Error('A secret box needs a key');
  const byId = new Map(keys.map((key) => [keyId(key), key]));
  const currentId = keyId(current);
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', current, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, currentId, iv, cipher.getAuthTag(), body]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    open(sealed) {
      const [version, id = '', iv = '', tag = '', body = ''] = sealed.split('.');
      const key = byId.get(id);
      if (version !== VERSION || !key) {
        throw new Error(
          `A secret was sealed with a key the server does not have (key ${id}): set it in SVC_SECRET_KEY_PREVIOUS`,
        );
      }
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
    isStale(sealed) {
      return sealed.split('.')[1] !== currentId;
    },
  };
}

/**
 * The box of the configured keys; without SVC_SECRET_KEY, one over a key kept in the data
 * directory (made on first start, readable by the server's user only), which `warn` reports:
 * fine for one server on one machine, not for several processes or a database moved elsewhere.
 */
export function openSecretBox(config: Pick<Config, 'secretKeys' | 'keyFile'>, warn: (message: string) => void) {
  if (config.secretKeys.length) return secretBox(config.secretKeys);
  let key: Buffer;
  try {
    key = Buffer.from(fs.readFileSync(config.keyFile, 'utf8').trim(), 'base64');
  } catch {
    fs.mkdirSync(path.dirname(config.keyFile), { recursive: true });
    key = randomBytes(32);
    // wx: two processes starting at once do not overwrite each other's key.
    try {
      fs.writeFileSync(config.keyFile, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
    } catch {
      key = Buffer.from(fs.readFileSync(config.keyFile, 'utf8').trim(), 'base64');
    }
  }
  if (key.length !== 32) throw new Error(`${config.keyFile} does not hold a 32-byte key in base64`);
  warn(
    `SVC_SECRET_KEY is not set: secrets are encrypted with the key in ${config.keyFile}. Set SVC_SECRET_KEY when the server runs in more than one process or its database moves (README "Secrets at rest").`,
  );
  return secretBox([key]);
}

/** Each box's server keys, read (or made) once per process. */
const serverKeys = new WeakMap<SecretBox, Map<string, Promise<Buffer>>>();

/**
 * A key of the server's own (`name`), 32 random bytes made on first use and kept in the
 * database sealed with the box: what the database alone holds of it is useless without
 * SVC_SECRET_KEY, and a rotation re-seals it (`reseal-secrets`) without changing it. Processes
 * that make one at once keep the first written.
 */
export function serverKey(db: Db, box: SecretBox, name: string): Promise<Buffer> {
  let keys = serverKeys.get(box);
  if (!keys) {
    keys = new Map();
    serverKeys.set(box, keys);
  }
  let key = keys.get(name);
  if (!key) {
    key = (async () => {
      await db
        .insertInto('server_keys')
        .values({ name, sealed: box.seal(randomBytes(32).toString('base64')), created_at: new Date().toISOString() })
        .onConflict((oc) => oc.doNothing())
        .execute();
      const row = await db
        .selectFrom('server_keys')
        .select('sealed')
        .where('name', '=', name)
        .executeTakeFirstOrThrow();
      return Buffer.from(box.open(row.sealed), 'base64');
    })();
    // A failed read is tried again next time rather than kept.
    key.catch(() => keys?.delete(name));
    keys.set(name, key);
  }
  return key;
}
