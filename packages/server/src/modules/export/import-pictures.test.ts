import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { IMAGE_SIDE_MAX_PX, SCREENSHOT_MAX_BYTES } from '@svc/contract';
import type { FastifyInstance } from 'fastify';
import {
  addMember,
  call,
  countRows,
  createComment,
  createProject,
  createTestDatabase,
  type Member,
  signUp,
  testConfig,
} from '../../../test/helpers.js';
import { cleanPng, cleanWebp, jpegWithMetadata, noisePng, pngOf, replayOf, SECRETS } from '../../../test/images.js';
import { unzip, zipOf } from '../../../test/zip.js';
import { buildApp } from '../../app.js';
import { issueApiKey } from '../api-keys/service.js';
import { type ImportOptions, importExport } from './import.js';
import { ImportError } from './import-error.js';

// A workspace moves with its pictures: the JSON Lines export and the zip of its screenshots,
// images and replays, imported together into another server, which then serves the same bytes.

const COMMIT = 'a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0';

/** A replay as the widget sends it. */
const replay = replayOf('Choose Team');

describe('an import brings the export’s zip: screenshots, images and replays, with their comments', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-import-pictures-'));
  const cleanups: (() => Promise<void>)[] = [async () => fs.rmSync(dir, { recursive: true, force: true })];
  after(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup();
  });
  const open = async () => {
    const made = await createTestDatabase();
    const app = await buildApp(testConfig(made.database));
    cleanups.push(made.drop, () => app.close());
    return app;
  };
  const fileOf = (name: string, bytes: Buffer | string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, bytes);
    return file;
  };
  const download = async (app: FastifyInstance, who: Member, url: string) => {
    const answer = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${who.token}` } });
    assert.equal(answer.statusCode, 200, `${url}: ${answer.body}`);
    return answer.rawPayload;
  };
  const tables = ['workspaces', 'comments', 'images', 'attachments'] as const;
  const counts = (app: FastifyInstance) => Promise.all(tables.map((table) => countRows(app, table)));
  const storedBytes = async (app: FastifyInstance, workspaceId: string) =>
    Number(
      (
        await app.database.db
          .selectFrom('workspaces')
          .select('stored_bytes')
          .where('id', '=', workspaceId)
          .executeTakeFirstOrThrow()
      ).stored_bytes,
    );

  /** A source workspace whose comment has a screenshot, a reply's image, a picture of now and a replay; its export and zip. */
  async function exportedWorkspace() {
    const source = await open();
    const admin = await signUp(source);
    const dana = await addMember(source, admin, 'member', 'Dana Dev');
    const project = await createProject(source, admin);
    await call(source, 'PATCH', `/api/projects/${project.key}`, { token: admin.token, body: { replay: { on: true } } });
    const { id } = await createComment(source, admin, project.key, 'The price wraps');
    const upload = async (who: Member, method: 'PUT' | 'POST', url: string, bytes: Buffer, type: string) => {
      const answer = await source.inject({
        method,
        url,
        headers: { authorization: `Bearer ${who.token}`, 'content-type': type },
        payload: bytes,
      });
      assert.ok(answer.statusCode < 300, `${url}: ${answer.body}`);
      return answer.json();
    };
    await upload(admin, 'PUT', `/api/comments/${id}/screenshot`, cleanPng, 'image/png');
    await upload(admin, 'PUT', `/api/comments/${id}/replay`, replay, 'application/gzip');
    const reply = await call(source, 'POST', `/api/comments/${id}/replies`, {
      token: dana.token,
      body: { body: 'Here, on my phone' },
    });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    // The reply's image comes with a phone's metadata: stored without it, and so exported.
    await upload(dana, 'POST', `/api/comments/${id}/images?reply=${reply.body.id}`, jpegWithMetadata(), 'image/jpeg');
    await call(source, 'POST', `/api/comments/${id}/apply`, { token: dana.token, body: { commitSha: COMMIT } });
    await upload(admin, 'POST', `/api/comments/${id}/images?now=true`, cleanWebp, 'image/webp');
    const comment = (await call(source, 'GET', `/api/comments/${id}`, { token: admin.token })).body;
    assert.deepEqual(
      comment.images.map((image: { kind: string; replyId: string | null }) => [image.kind, image.replyId]),
      [
        ['attachment', reply.body.id],
        ['now', null],
      ],
    );
    const jsonl = fileOf(`${admin.workspaceId}.jsonl`, await download(source, admin, '/api/workspace/export'));
    const zipBytes = await download(source, admin, '/api/workspace/export/screenshots');
    const served = {
      screenshot: await download(source, admin, `/api/comments/${id}/screenshot`),
      replay: await download(source, admin, `/api/comments/${id}/replay`),
      images: await Promise.all(comment.images.map((image: { url: string }) => download(source, admin, image.url))),
    };
    return {
      admin,
      project,
      id,
      comment,
      jsonl,
      zipBytes,
      served,
      stored: await storedBytes(source, admin.workspaceId),
    };
  }

  /** An admin's key on the server the workspace moved to (people arrive without credentials). */
  async function adminThere(app: FastifyInstance, admin: Member): Promise<Member> {
    const user = { id: admin.id, workspace_id: admin.workspaceId };
    const key = await issueApiKey(app.ctx, user, 'test', {
      workspaceId: admin.workspaceId,
      actor: null,
      address: null,
    });
    return { ...admin, token: key.key };
  }

  test('the API serves the same bytes for the screenshot, the reply’s image, the picture of now and the replay; counted in the quota; twice adds nothing', async () => {
    const source = await exportedWorkspace();
    const target = await open();
    const zip = fileOf('pictures.zip', source.zipBytes);
    const options: ImportOptions = { pictures: { zip, rules: target.ctx.rules } };
    const heard: string[] = [];
    const first = await importExport(
      target.database.db,
      () => fs.createReadStream(source.jsonl),
      (phase, n) => heard.push(`${phase} ${n}`),
      options,
    );
    assert.deepEqual(first.pictures, { added: { screenshots: 1, images: 2, replays: 1 }, present: 0 });
    assert.ok(heard.includes('pictures 4'), heard.join(', '));

    const admin = await adminThere(target, source.admin);
    const comment = (await call(target, 'GET', `/api/comments/${source.id}`, { token: admin.token })).body;
    assert.deepEqual(
      comment.images,
      source.comment.images,
      'each image in its place: its kind, reply, commit, author, date',
    );
    assert.deepEqual(comment.screenshot, source.comment.screenshot);
    assert.deepEqual(comment.replay, source.comment.replay);
    assert.deepEqual(await download(target, admin, `/api/comments/${source.id}/screenshot`), source.served.screenshot);
    assert.deepEqual(await download(target, admin, `/api/comments/${source.id}/replay`), source.served.replay);
    for (const [n, image] of source.comment.images.entries())
      assert.deepEqual(await download(target, admin, image.url), source.served.images[n]);
    const jpeg = source.served.images[0].toString('latin1');
    for (const secret of SECRETS) assert.ok(!jpeg.includes(secret), `no ${secret}`);
    assert.equal(await storedBytes(target, admin.workspaceId), source.stored, 'counted as the uploads were');

    const before = await counts(target);
    const again = await importExport(target.database.db, () => fs.createReadStream(source.jsonl), undefined, options);
    assert.deepEqual(again.pictures, { added: { screenshots: 0, images: 0, replays: 0 }, present: 4 });
    assert.deepEqual(await counts(target), before, 'nothing doubled');
    assert.equal(await storedBytes(target, admin.workspaceId), source.stored);
  });

  test('the file imported alone first, then again with its zip: the pictures arrive', async () => {
    const source = await exportedWorkspace();
    const target = await open();
    const alone = await importExport(target.database.db, () => fs.createReadStream(source.jsonl));
    assert.equal(alone.pictures, undefined);
    assert.equal(await countRows(target, 'images'), 0);
    const zip = fileOf('later.zip', source.zipBytes);
    const later = await importExport(target.database.db, () => fs.createReadStream(source.jsonl), undefined, {
      pictures: { zip, rules: target.ctx.rules },
    });
    assert.deepEqual(later.pictures, { added: { screenshots: 1, images: 2, replays: 1 }, present: 0 });
  });

  test('a zip entry that cannot be imported is refused, naming it, and nothing is written', async () => {
    const source = await exportedWorkspace();
    const target = await open();
    const files = await unzip(source.zipBytes);
    const names = [...files.keys()];
    const named = (pattern: RegExp) => names.find((name) => pattern.test(name)) as string;
    const screenshot = named(/cmt_[^/]+\.png$/);
    const image = named(/\/img_[^/]+\.jpg$/);
    const replayName = named(/\.replay\.json\.gz$/);
    const changed = (name: string, bytes: Buffer | null, renamed = name) => {
      const copy = new Map(files);
      copy.delete(name);
      if (bytes) copy.set(renamed, bytes);
      return copy;
    };
    const cases: [string, Map<string, Buffer>, RegExp, ImportOptions['pictures'] | null][] = [
      [
        'a comment the file does not hold',
        changed(screenshot, cleanPng, `${source.project.key}/cmt_NOTINTHEFILE.png`),
        /cmt_NOTINTHEFILE\.png: the file holds no comment cmt_NOTINTHEFILE/,
        null,
      ],
      [
        'another project than its comment’s',
        changed(screenshot, cleanPng, screenshot.replace(`${source.project.key}/`, 'elsewhere/')),
        /elsewhere\/cmt_\w+\.png: comment cmt_\w+ is of project/,
        null,
      ],
      [
        'an image its comment does not list',
        changed(image, cleanPng, image.replace(/img_\w+\.jpg$/, 'img_UNLISTED.png')),
        /img_UNLISTED\.png: comment cmt_\w+ lists no image img_UNLISTED/,
        null,
      ],
      [
        'not an image of an allowed type',
        changed(image, Buffer.from('GIF89a not allowed')),
        new RegExp(`${image.replaceAll('/', '\\/')}: An image must be a PNG, JPEG or WebP file`),
        null,
      ],
      [
        'bigger than its upload may be',
        changed(screenshot, noisePng(450, 450)),
        new RegExp(`${screenshot.replaceAll('/', '\\/')}: a screenshot may be at most 512 KB`),
        null,
      ],
      [
        'past the dimension limit',
        changed(image, pngOf(IMAGE_SIDE_MAX_PX + 1, 10)),
        /img_\w+\.jpg: An image may be at most 16,384 pixels a side/,
        null,
      ],
      [
        'a replay that is not gzipped rrweb JSON',
        changed(replayName, gzipSync('{"not":"events"}')),
        /\.replay\.json\.gz: A replay is rrweb's events as a JSON array/,
        null,
      ],
      [
        'a file no export holds',
        changed(screenshot, cleanPng, 'notes.txt'),
        /notes\.txt is not a file of an export's zip/,
        null,
      ],
      [
        'past the storage quota',
        files,
        /take [\d.]+ KB, past the storage quota of the workspace \(1 KB\)/,
        { zip: '', rules: { ...target.ctx.rules, storageQuotaBytes: 1024 } },
      ],
    ];
    assert.ok(noisePng(450, 450).length > SCREENSHOT_MAX_BYTES);
    for (const [what, entries, message, pictures] of cases) {
      const zip = fileOf(`refused-${cases.findIndex((c) => c[0] === what)}.zip`, await zipOf(entries));
      const before = await counts(target);
      await assert.rejects(
        importExport(target.database.db, () => fs.createReadStream(source.jsonl), undefined, {
          pictures: { ...(pictures ?? { rules: target.ctx.rules }), zip },
        }),
        (error: Error) => {
          assert.ok(error instanceof ImportError, `${what}: ${error}`);
          assert.match(error.message, message, what);
          return true;
        },
      );
      assert.deepEqual(await counts(target), before, `${what}: nothing written`);
    }
    const notZip = fileOf('not.zip', 'hello');
    await assert.rejects(
      importExport(target.database.db, () => fs.createReadStream(source.jsonl), undefined, {
        pictures: { zip: notZip, rules: target.ctx.rules },
      }),
      /not\.zip is not a zip archive/,
    );
    assert.deepEqual(await counts(target), [0, 0, 0, 0]);
  });
});
