import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import {
  call,
  createComment,
  createProject,
  createTestDatabase,
  dialect,
  type Member,
  signUp,
  testConfig,
} from '../../test/helpers.js';
import { cleanPng, pngChunk } from '../../test/images.js';
import { buildApp } from '../app.js';
import type { DatabaseConfig } from '../config.js';

// What is deleted is gone: a deleted comment's pictures cannot be read back from the database
// file, its write-ahead log, or a backup taken afterwards.

const adminEntry = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../dist/admin.js');

/**
 * The clean PNG with one more image data chunk (kept as drawing needs it) holding `marker`
 * amid 60 KB of noise: stored over many overflow pages, as a real picture is.
 */
function pngHolding(marker: Buffer): Buffer {
  const end = cleanPng.length - 12;
  const data = Buffer.concat([randomBytes(30_000), marker, randomBytes(30_000)]);
  return Buffer.concat([cleanPng.subarray(0, end), pngChunk('IDAT', data), cleanPng.subarray(end)]);
}

const holds = (file: string, marker: Buffer) => fs.existsSync(file) && fs.readFileSync(file).includes(marker);

describe('a deleted comment’s pictures are erased, not left behind', () => {
  let database: DatabaseConfig;
  let app: FastifyInstance;
  let admin: Member;
  let project: { key: string };
  let dir = '';
  let drop = async () => {};
  before(async () => {
    if (dialect === 'sqlite') {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-erase-'));
      database = { dialect: 'sqlite', file: path.join(dir, 'svc.db') };
    } else {
      ({ database, drop } = await createTestDatabase());
    }
    app = await buildApp(testConfig(database));
    admin = await signUp(app);
    project = await createProject(app, admin);
  });
  after(async () => {
    await app.close();
    await drop();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** A comment with `marker` in its screenshot and in an attached image. */
  async function commentWithPictures(marker: Buffer): Promise<string> {
    const { id } = await createComment(app, admin, project.key, 'The chart is blank');
    const picture = pngHolding(marker);
    const headers = { authorization: `Bearer ${admin.token}`, 'content-type': 'image/png' };
    const shot = await app.inject({ method: 'PUT', url: `/api/comments/${id}/screenshot`, headers, payload: picture });
    assert.equal(shot.statusCode, 200, shot.body);
    const image = await app.inject({ method: 'POST', url: `/api/comments/${id}/images`, headers, payload: picture });
    assert.equal(image.statusCode, 201, image.body);
    return id;
  }

  const deleteComment = async (id: string) =>
    assert.equal((await call(app, 'DELETE', `/api/comments/${id}`, { token: admin.token })).status, 204);

  /** Whether any live row holds `marker`: all a dump of the database (pg_dump included) can hold. */
  async function liveRowsHold(marker: Buffer): Promise<boolean> {
    const images = await app.database.db.selectFrom('images').select('bytes').execute();
    const shots = await app.database.db.selectFrom('attachments').select('bytes').execute();
    return [...images, ...shots].some((row) => Buffer.from(row.bytes).includes(marker));
  }

  test('no live row holds a deleted comment’s screenshot or images, on either database', async () => {
    const marker = Buffer.from(`svc-marker-${randomBytes(8).toString('hex')}`);
    const id = await commentWithPictures(marker);
    assert.equal(await liveRowsHold(marker), true, 'stored');
    await deleteComment(id);
    assert.equal(await liveRowsHold(marker), false);
  });

  test('SQLite: the database file and its write-ahead log hold none of them once the server erases (every minute)', {
    skip: dialect !== 'sqlite',
  }, async () => {
    const file = (database as { file: string }).file;
    // Checkpointed into the file before the deletion: the pages it frees hold the marker.
    const checkpointed = Buffer.from(`svc-marker-${randomBytes(8).toString('hex')}`);
    const first = await commentWithPictures(checkpointed);
    await app.database.eraseDeleted();
    assert.ok(holds(file, checkpointed), 'the file holds it while it is stored');
    // Still only in the log when deleted.
    const logged = Buffer.from(`svc-marker-${randomBytes(8).toString('hex')}`);
    const second = await commentWithPictures(logged);
    assert.ok(holds(`${file}-wal`, logged), 'the log holds it while it is stored');
    await deleteComment(first);
    await deleteComment(second);
    await app.database.eraseDeleted();
    for (const marker of [checkpointed, logged]) {
      assert.equal(holds(file, marker), false, 'not in the database file');
      assert.equal(holds(`${file}-wal`, marker), false, 'not in the write-ahead log');
    }
  });

  test('SQLite: a deleted comment’s and reply’s words leave the full-text index, the file and its log', {
    skip: dialect !== 'sqlite',
  }, async () => {
    const file = (database as { file: string }).file;
    const secret = `zq${randomBytes(6).toString('hex')}`;
    const inReply = `zr${randomBytes(6).toString('hex')}`;
    const { id } = await createComment(app, admin, project.key, `The invoice of ${secret} shows the wrong total`);
    const reply = await call(app, 'POST', `/api/comments/${id}/replies`, {
      token: admin.token,
      body: { body: `Same for ${inReply}` },
    });
    assert.equal(reply.status, 201);
    const found = await call(app, 'GET', `/api/comments?project=${project.key}&q=${secret}`, { token: admin.token });
    assert.equal(found.body.items.length, 1, 'found by its word');
    await app.database.eraseDeleted();
    assert.ok(holds(file, Buffer.from(secret)), 'the file holds it while it is stored');
    await deleteComment(id);
    await app.database.eraseDeleted();
    for (const word of [secret, inReply]) {
      assert.equal(holds(file, Buffer.from(word)), false, `${word} is not in the database file`);
      assert.equal(holds(`${file}-wal`, Buffer.from(word)), false, `${word} is not in the write-ahead log`);
    }
  });

  test('SQLite: `admin backup` after a deletion holds nothing deleted, even pages freed before deletions were erased', {
    skip: dialect !== 'sqlite',
  }, async () => {
    const file = (database as { file: string }).file;
    const erased = Buffer.from(`svc-marker-${randomBytes(8).toString('hex')}`);
    const kept = Buffer.from(`svc-marker-${randomBytes(8).toString('hex')}`);
    const olderRelease = Buffer.from(`svc-marker-${randomBytes(8).toString('hex')}`);
    const stays = await commentWithPictures(kept);
    const id = await commentWithPictures(olderRelease);
    const deleted = await commentWithPictures(erased);
    // A deletion as a release before this one made it: the freed pages keep their bytes.
    const older = new SQLite(file);
    try {
      older.pragma('busy_timeout = 5000');
      assert.equal(older.pragma('secure_delete', { simple: true }), 0);
      older.prepare('delete from comments where id = ?').run(id);
      older.pragma('wal_checkpoint(truncate)');
    } finally {
      older.close();
    }
    // Deleted last: nothing written after it takes its pages again.
    await deleteComment(deleted);
    assert.ok(holds(file, olderRelease), 'left in free pages by the older release');

    const target = path.join(dir, 'backup.db');
    const run = spawnSync(process.execPath, [adminEntry, 'backup', target], {
      env: { PATH: process.env.PATH ?? '', SVC_DATA_DIR: dir },
      encoding: 'utf8',
    });
    assert.equal(run.status, 0, run.stderr);
    assert.match(run.stdout, /integrity ok/);
    assert.equal(holds(target, erased), false, 'a deletion of this release');
    assert.equal(holds(target, olderRelease), false, 'pages freed by an older release');
    assert.equal(holds(target, kept), true, 'what is not deleted is in the backup');
    assert.equal((await call(app, 'GET', `/api/comments/${stays}`, { token: admin.token })).status, 200);
  });
});
