import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  addClient,
  addMember,
  call,
  createComment,
  createProject,
  createTestApp,
  type Member,
  manualClock,
  signUp,
  type TestApp,
} from '../../../test/helpers.js';
import { cleanPng, noisePng, numberedPng } from '../../../test/images.js';
import { setStorageQuota } from './quota.js';

const MB = 1024 * 1024;

/** Sends `bytes` as a PNG to an upload route: `POST …/images[?query]` or `PUT …/screenshot`. */
const upload = (t: TestApp, who: { token: string }, url: string, bytes: Buffer = cleanPng) =>
  t.app.inject({
    method: url.endsWith('/screenshot') ? 'PUT' : 'POST',
    url,
    headers: { authorization: `Bearer ${who.token}`, 'content-type': 'image/png' },
    payload: bytes,
  });

/** What the workspace stores, counted from the rows themselves (images and screenshots). */
async function storedRows(t: TestApp, workspaceId: string) {
  const { db } = t.app.database;
  const sum = async (table: 'images' | 'attachments') => {
    const row = await db
      .selectFrom(table)
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('size').as('bytes')])
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    return { n: Number(row.n), bytes: Number(row.bytes ?? 0) };
  };
  const [images, shots] = [await sum('images'), await sum('attachments')];
  return { n: images.n + shots.n, bytes: images.bytes + shots.bytes };
}

/** The workspace's use as its admins read it. */
const storageOf = async (t: TestApp, admin: Member) =>
  (await call(t.app, 'GET', '/api/workspace/storage', { token: admin.token })).body;

describe('uploads: a pace per person', () => {
  test('past its uploads a minute, every kind (an image, a screenshot, the picture of now, the verdict’s) is 429 with Retry-After naming the pace; nothing stored; others go on; later, so does the person', async () => {
    const clock = manualClock();
    const t = await createTestApp({ limits: { uploadsPerMinute: 4 } }, { clock });
    try {
      const admin = await signUp(t.app);
      const member = await addMember(t.app, admin);
      const project = await createProject(t.app, admin);
      const { id } = await createComment(t.app, admin, project.key, 'Paced');
      await call(t.app, 'POST', `/api/comments/${id}/apply`, { token: member.token, body: {} });
      for (const url of [`/api/comments/${id}/images`, `/api/comments/${id}/screenshot`]) {
        const answer = await upload(t, admin, url);
        assert.ok(answer.statusCode < 300, `${url}: ${answer.body}`);
      }
      assert.equal((await upload(t, admin, `/api/comments/${id}/images?now=true`)).statusCode, 201);
      await call(t.app, 'POST', `/api/comments/${id}/verify`, { token: admin.token, body: { ok: true } });
      assert.equal((await upload(t, admin, `/api/comments/${id}/images?verdict=true`)).statusCode, 201);
      const before = await storedRows(t, admin.workspaceId);
      for (const url of [`/api/comments/${id}/images`, `/api/comments/${id}/screenshot`]) {
        const refused = await upload(t, admin, url);
        assert.equal(refused.statusCode, 429, `${url}: ${refused.body}`);
        assert.equal(refused.json().code, 'rate_limited');
        assert.match(refused.json().detail, /at most 4 uploads a minute/);
        const retryAfter = Number(refused.headers['retry-after']);
        assert.ok(retryAfter >= 1 && retryAfter <= 120, String(retryAfter));
      }
      assert.deepEqual(await storedRows(t, admin.workspaceId), before, 'nothing stored');
      assert.equal((await upload(t, member, `/api/comments/${id}/images`)).statusCode, 201, 'a pace per person');
      clock.advance(2 * 60_000);
      assert.equal((await upload(t, admin, `/api/comments/${id}/images`)).statusCode, 201, 'the window has passed');
    } finally {
      await t.close();
    }
  });

  test('past its megabytes an hour, 429 naming them; nothing stored; an hour later it goes on', async () => {
    const clock = manualClock();
    const t = await createTestApp({ limits: { uploadMegabytesPerHour: 1 } }, { clock });
    try {
      const admin = await signUp(t.app);
      const project = await createProject(t.app, admin);
      const { id } = await createComment(t.app, admin, project.key, 'Heavy pictures');
      const picture = noisePng(400, 300);
      assert.ok(picture.length > MB / 3 && picture.length < MB / 2, String(picture.length));
      for (let i = 0; i < 2; i++)
        assert.equal((await upload(t, admin, `/api/comments/${id}/images`, picture)).statusCode, 201);
      const before = await storedRows(t, admin.workspaceId);
      const refused = await upload(t, admin, `/api/comments/${id}/images`, picture);
      assert.equal(refused.statusCode, 429, refused.body);
      assert.match(refused.json().detail, /at most 1 MB of uploads an hour/);
      assert.ok(Number(refused.headers['retry-after']) >= 1);
      assert.deepEqual(await storedRows(t, admin.workspaceId), before, 'nothing stored');
      clock.advance(2 * 60 * 60_000);
      assert.equal((await upload(t, admin, `/api/comments/${id}/images`, picture)).statusCode, 201);
    } finally {
      await t.close();
    }
  });

  test('the routes that take an upload are the ones paced and held to the quota here: a new one is added to both', async () => {
    const t = await createTestApp();
    try {
      const uploads = t.app.routeTable.filter((route) => route.bodyTypes).map((r) => `${r.method} ${r.url}`);
      assert.deepEqual(uploads.sort(), [
        'POST /api/comments/:id/images',
        'PUT /api/comments/:id/replay',
        'PUT /api/comments/:id/screenshot',
      ]);
    } finally {
      await t.close();
    }
  });
});

describe('the storage quota of a workspace', () => {
  test('an upload past it is 413 naming the quota and what is left, nothing stored; another workspace goes on; deleting a comment or a project, or replacing a picture, frees its bytes', async () => {
    const t = await createTestApp({ limits: { storageQuotaMegabytes: 1 } });
    try {
      const admin = await signUp(t.app);
      const member = await addMember(t.app, admin);
      const project = await createProject(t.app, admin);
      const picture = noisePng(400, 300);
      const first = await createComment(t.app, admin, project.key, 'Two pictures');
      const second = await createComment(t.app, admin, project.key, 'A screenshot');
      for (let i = 0; i < 2; i++)
        assert.equal((await upload(t, admin, `/api/comments/${first.id}/images`, picture)).statusCode, 201);
      const before = await storedRows(t, admin.workspaceId);
      assert.deepEqual(await storageOf(t, admin), { usedBytes: before.bytes, quotaBytes: MB });
      const full = await upload(t, admin, `/api/comments/${second.id}/screenshot`, picture);
      assert.equal(full.statusCode, 413, full.body);
      assert.equal(full.json().code, 'storage_quota_exceeded');
      assert.equal(full.json().type, 'urn:svc:problem:storage_quota_exceeded');
      assert.match(full.json().detail, /at most 1 MB/);
      assert.match(full.json().detail, /Deleting comments frees/);
      assert.equal((await upload(t, admin, `/api/comments/${first.id}/images`, picture)).statusCode, 413);
      assert.deepEqual(await storedRows(t, admin.workspaceId), before, 'nothing stored');
      assert.equal((await storageOf(t, admin)).usedBytes, before.bytes);

      const elsewhere = await signUp(t.app, 'Other Admin');
      const theirs = await createComment(t.app, elsewhere, (await createProject(t.app, elsewhere)).key, 'Theirs');
      const other = await upload(t, elsewhere, `/api/comments/${theirs.id}/images`, picture);
      assert.equal(other.statusCode, 201, 'each workspace its own quota');

      assert.equal((await call(t.app, 'DELETE', `/api/comments/${first.id}`, { token: admin.token })).status, 204);
      assert.equal((await storageOf(t, admin)).usedBytes, 0, 'the comment’s images went with it');
      assert.equal((await upload(t, admin, `/api/comments/${second.id}/screenshot`, picture)).statusCode, 200);
      // A picture replaced frees the one before: at the edge, a new one in its place still fits.
      await call(t.app, 'POST', `/api/comments/${second.id}/apply`, { token: member.token, body: {} });
      for (let i = 0; i < 3; i++) {
        const now = await upload(t, admin, `/api/comments/${second.id}/images?now=true`, noisePng(400, 300, i + 2));
        assert.equal(now.statusCode, 201, now.body);
        const shot = await upload(t, admin, `/api/comments/${second.id}/screenshot`, noisePng(400, 300, i + 9));
        assert.equal(shot.statusCode, 200, shot.body);
      }
      const used = await storedRows(t, admin.workspaceId);
      assert.equal(used.n, 2);
      assert.equal((await storageOf(t, admin)).usedBytes, used.bytes);
      assert.equal((await call(t.app, 'DELETE', `/api/projects/${project.key}`, { token: admin.token })).status, 204);
      assert.equal((await storageOf(t, admin)).usedBytes, 0, 'the project’s went with it');
    } finally {
      await t.close();
    }
  });

  test('60 uploads at once, to four comments, against a quota that fits 15 more: 15 stored, the rest 413, and the use counted is the bytes stored', async () => {
    const t = await createTestApp();
    try {
      const admin = await signUp(t.app);
      const project = await createProject(t.app, admin);
      const comments: string[] = [];
      for (let i = 0; i < 4; i++) comments.push((await createComment(t.app, admin, project.key, `Comment ${i}`)).id);
      const size = (await upload(t, admin, `/api/comments/${comments[0]}/images`)).json().bytes as number;
      const quota = 16 * size + size - 1;
      await setStorageQuota(t.app.database.db, admin.workspaceId, quota);
      // Each comment's lock would line up the uploads to it: four comments, so that only the quota's does.
      const answers = await Promise.all(
        Array.from({ length: 60 }, (_, i) => upload(t, admin, `/api/comments/${comments[i % 4]}/images`)),
      );
      const statuses = answers.map((answer) => answer.statusCode);
      assert.equal(statuses.filter((s) => s === 201).length, 15, statuses.join(' '));
      assert.equal(statuses.filter((s) => s === 413).length, 45, statuses.join(' '));
      const stored = await storedRows(t, admin.workspaceId);
      assert.equal(stored.n, 16);
      assert.deepEqual(await storageOf(t, admin), { usedBytes: stored.bytes, quotaBytes: quota });
    } finally {
      await t.close();
    }
  });

  test('50 screenshots of one comment at once: each replaces the one before (none fails), one is stored, its bytes counted once', async () => {
    const t = await createTestApp();
    try {
      const admin = await signUp(t.app);
      const project = await createProject(t.app, admin);
      const { id } = await createComment(t.app, admin, project.key, 'Shot again and again');
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) => upload(t, admin, `/api/comments/${id}/screenshot`, numberedPng(i + 1))),
      );
      assert.deepEqual(new Set(answers.map((answer) => answer.statusCode)), new Set([200]));
      const stored = await storedRows(t, admin.workspaceId);
      assert.equal(stored.n, 1);
      assert.equal((await storageOf(t, admin)).usedBytes, stored.bytes);
    } finally {
      await t.close();
    }
  });

  test('the use is for admins to read; a quota set for one workspace overrides the default, and null restores it', async () => {
    const t = await createTestApp({ limits: { storageQuotaMegabytes: 3 } });
    try {
      const admin = await signUp(t.app);
      const member = await addMember(t.app, admin);
      const client = await addClient(t.app, admin);
      assert.deepEqual(await storageOf(t, admin), { usedBytes: 0, quotaBytes: 3 * MB });
      for (const who of [member, client]) {
        const refused = await call(t.app, 'GET', '/api/workspace/storage', { token: who.token });
        assert.equal(refused.status, 403);
      }
      await setStorageQuota(t.app.database.db, admin.workspaceId, 10 * MB);
      assert.equal((await storageOf(t, admin)).quotaBytes, 10 * MB);
      await setStorageQuota(t.app.database.db, admin.workspaceId, null);
      assert.equal((await storageOf(t, admin)).quotaBytes, 3 * MB);
    } finally {
      await t.close();
    }
  });
});
