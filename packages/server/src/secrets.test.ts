import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { loadConfig } from './config.js';
import { openSecretBox, secretBox } from './secrets.js';

describe('secrets at rest', () => {
  test('sealed values open with the key that sealed them, after a rotation too; tampering is refused', () => {
    const old = randomBytes(32);
    const fresh = randomBytes(32);
    const sealed = secretBox([old]).seal('JBSWY3DPEHPK3PXP');
    assert.ok(!sealed.includes('JBSWY3DPEHPK3PXP'));
    assert.notEqual(secretBox([old]).seal('JBSWY3DPEHPK3PXP'), sealed, 'a new IV each time');
    const rotated = secretBox([fresh, old]);
    assert.equal(rotated.open(sealed), 'JBSWY3DPEHPK3PXP');
    assert.equal(rotated.isStale(sealed), true);
    assert.equal(rotated.isStale(rotated.seal('x')), false);
    assert.throws(() => secretBox([fresh]).open(sealed), /SVC_SECRET_KEY_PREVIOUS/);
    const parts = sealed.split('.');
    parts[4] = Buffer.from('another secret!!').toString('base64url');
    assert.throws(() => secretBox([old]).open(parts.join('.')));
  });

  test('SVC_SECRET_KEY: 32 bytes in base64 or hex, never echoed when wrong; previous keys need a current one', () => {
    const key = randomBytes(32);
    const base64 = loadConfig({ SVC_SECRET_KEY: key.toString('base64') });
    assert.ok(base64.ok && base64.config.secretKeys[0]?.equals(key));
    const hex = loadConfig({
      SVC_SECRET_KEY: key.toString('hex'),
      SVC_SECRET_KEY_PREVIOUS: randomBytes(32).toString('base64'),
    });
    assert.ok(hex.ok && hex.config.secretKeys.length === 2);
    const short = loadConfig({ SVC_SECRET_KEY: 'too-short-a-secret' });
    assert.ok(!short.ok && short.problems.some((p) => p.includes('32 random bytes') && !p.includes('too-short')));
    const orphan = loadConfig({ SVC_SECRET_KEY_PREVIOUS: key.toString('base64') });
    assert.ok(!orphan.ok);
  });

  test('without SVC_SECRET_KEY, a key is made once in the data directory (owner-only) and the server warns', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-secret-'));
    const keyFile = path.join(dir, 'secret.key');
    const warnings: string[] = [];
    const first = openSecretBox({ secretKeys: [], keyFile }, (m) => warnings.push(m));
    const sealed = first.seal('seed');
    assert.equal(fs.statSync(keyFile).mode & 0o777, 0o600);
    const again = openSecretBox({ secretKeys: [], keyFile }, (m) => warnings.push(m));
    assert.equal(again.open(sealed), 'seed');
    assert.equal(warnings.length, 2);
    assert.match(warnings[0] ?? '', /SVC_SECRET_KEY is not set/);
    fs.rmSync(dir, { recursive: true });
  });
});
