import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  addClient,
  addMember,
  call,
  createComment,
  createProject,
  createTestApp,
  dialect,
  type Member,
  signUp,
  type TestApp,
} from '../../../test/helpers.js';
import { cleanJpeg, jpegWithMetadata, numberedPng } from '../../../test/images.js';
import { unzip } from '../../../test/zip.js';
import { withoutMetadata } from '../comments/image-metadata.js';
import { csvField } from './export.js';

const COMMIT = 'a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0';
const png = numberedPng;

/** RFC 4180 rows, quotes and line breaks inside quoted fields included. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i++;
    } else field += char;
  }
  return rows;
}

describe(`exporting a workspace's comments (${dialect})`, () => {
  let t: TestApp;
  let admin: Member;
  let dana: Member;
  let site: { key: string };
  let shop: { key: string };
  let tricky: string;

  before(async () => {
    t = await createTestApp({ limits: { commentsPerMinute: 100_000, repliesPerMinute: 100_000 } });
    admin = await signUp(t.app);
    dana = await addMember(t.app, admin, 'member', 'Dana Dev');
    site = await createProject(t.app, admin);
    shop = await createProject(t.app, admin);
    for (let i = 0; i < 7; i++) await createComment(t.app, admin, site.key, `Site comment ${i}`);
    tricky = (await createComment(t.app, admin, shop.key, '=HYPERLINK("http://evil.test"), "quoted",\nsecond line')).id;
    await call(t.app, 'POST', `/api/comments/${tricky}/replies`, { token: dana.token, body: { body: 'On it' } });
    await call(t.app, 'POST', `/api/comments/${tricky}/apply`, { token: dana.token, body: { commitSha: COMMIT } });
    await call(t.app, 'POST', `/api/projects/${shop.key}/builds`, {
      token: admin.token,
      body: { sha: 'ffffeeee00001111222233334444555566667777', containsCommitShas: [COMMIT] },
    });
  });
  after(() => t.close());

  const download = (query: string, token = admin.token) =>
    t.app.inject({
      method: 'GET',
      url: `/api/workspace/export${query}`,
      headers: { authorization: `Bearer ${token}` },
    });

  test('JSON Lines: a header, the projects, the people (no secret), then every comment whole, oldest first', async () => {
    const answer = await download('');
    assert.equal(answer.statusCode, 200, answer.body);
    assert.match(String(answer.headers['content-type']), /^application\/x-ndjson/);
    assert.match(
      String(answer.headers['content-disposition']),
      /^attachment; filename="workspace-comments-\d{4}-\d\d-\d\d\.jsonl"$/,
    );
    const lines = answer.body
      .trimEnd()
      .split('\n')
      .map((text) => JSON.parse(text));
    assert.equal(lines[0].type, 'export');
    assert.equal(lines[0].workspace.id, admin.workspaceId);
    assert.deepEqual(
      lines
        .filter((l) => l.type === 'project')
        .map((l) => l.key)
        .sort(),
      [site.key, shop.key].sort(),
    );
    const people = lines.filter((l) => l.type === 'user');
    assert.deepEqual(people.map((p) => p.name).sort(), ['Ada Admin', 'Dana Dev']);
    assert.doesNotMatch(answer.body, /password|svc_sess_|token_hash|key_hash/);
    const comments = lines.filter((l) => l.type === 'comment');
    assert.equal(comments.length, 8);
    assert.deepEqual(
      comments.map((c) => c.id),
      comments.map((c) => c.id).sort(),
      'oldest first',
    );
    const exported = comments.find((c) => c.id === tricky);
    const { can: _can, ...served } = (await call(t.app, 'GET', `/api/comments/${tricky}`, { token: admin.token })).body;
    // What the exporter may do (the comment's and its replies' `can`) is no part of the thread.
    served.replies = served.replies.map(({ can: _may, ...reply }: { can: unknown }) => reply);
    assert.deepEqual(exported, { type: 'comment', ...served }, 'field by field what the API serves');
    assert.deepEqual(
      exported.timeline.map((e: { kind: string }) => e.kind),
      ['created', 'replied', 'applied', 'live'],
    );
  });

  test('one project; more comments than a page; CSV with quoting, formulas defused and a row per comment', async () => {
    const only = await download(`?project=${shop.key}`);
    const comments = only.body
      .trimEnd()
      .split('\n')
      .map((text) => JSON.parse(text))
      .filter((l) => l.type === 'comment');
    assert.deepEqual(
      comments.map((c) => c.id),
      [tricky],
    );

    for (let i = 0; i < 600; i++) await createComment(t.app, admin, site.key, `Bulk ${i}`);
    const csv = await download('?format=csv');
    assert.equal(csv.statusCode, 200);
    assert.match(String(csv.headers['content-type']), /^text\/csv/);
    assert.ok(csv.body.startsWith('\uFEFFid,project,state,'));
    const rows = parseCsv(csv.body.slice(1));
    assert.equal(rows.length, 1 + 608, 'a header and a row per comment, past the 500 read at a time');
    const header = rows[0] ?? [];
    const row = rows.find((r) => r[0] === tricky) ?? [];
    const cell = (name: string) => row[header.indexOf(name)];
    assert.equal(cell('body'), `'=HYPERLINK("http://evil.test"), "quoted",\nsecond line`);
    assert.equal(cell('state'), 'live');
    assert.equal(cell('commit_sha'), COMMIT);
    assert.equal(cell('applied_by'), 'Dana Dev');
    assert.equal(new Set(rows.slice(1).map((r) => r[0])).size, 608, 'no comment twice');
  });

  test('admins only, their workspace only; each export is in the audit log; bad queries are 400', async () => {
    assert.equal((await download('', dana.token)).statusCode, 403);
    assert.equal((await download('', (await addClient(t.app, admin)).token)).statusCode, 403);
    const stranger = await signUp(t.app, 'Sam Stranger');
    assert.equal((await download(`?project=${site.key}`, stranger.token)).statusCode, 404);
    const theirs = (await download('', stranger.token)).body;
    assert.doesNotMatch(theirs, new RegExp(`${site.key}|Site comment|Dana Dev`));
    assert.equal((await download('?format=xlsx')).statusCode, 400);
    const audit = await call(t.app, 'GET', '/api/workspace/audit?action=exported', { token: admin.token });
    assert.ok(audit.body.items.length >= 3);
    // The latest is the CSV: a refused export is not recorded.
    assert.deepEqual([audit.body.items[0].actor.id, audit.body.items[0].detail], [admin.id, 'CSV']);
  });

  test('screenshots and images: a zip of every project or one, named by project and comment, streamed; admins only, recorded', async () => {
    const first = (await createComment(t.app, admin, site.key, 'With a screenshot')).id;
    for (const [id, fill] of [
      [first, 1],
      [tricky, 2],
    ] as const) {
      const shot = await t.app.inject({
        method: 'PUT',
        url: `/api/comments/${id}/screenshot`,
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'image/png' },
        payload: png(fill),
      });
      assert.equal(shot.statusCode, 200, shot.body);
    }
    // An image of the thread, in a folder of its comment (sent with metadata, kept without).
    const image = await t.app.inject({
      method: 'POST',
      url: `/api/comments/${first}/images`,
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'image/jpeg' },
      payload: jpegWithMetadata(),
    });
    assert.equal(image.statusCode, 201, image.body);
    const imageFile = `${site.key}/${first}/${image.json().id}.jpg`;
    // The picture of now (the fix waits for its verdict) goes like the thread's other images.
    await call(t.app, 'POST', `/api/comments/${first}/apply`, { token: admin.token, body: { commitSha: 'abcdef1' } });
    const now = await t.app.inject({
      method: 'POST',
      url: `/api/comments/${first}/images?now=true`,
      headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'image/jpeg' },
      payload: cleanJpeg,
    });
    assert.equal(now.statusCode, 201, now.body);
    const nowFile = `${site.key}/${first}/${now.json().id}.jpg`;
    const zip = (query: string, token = admin.token) =>
      t.app.inject({
        method: 'GET',
        url: `/api/workspace/export/screenshots${query}`,
        headers: { authorization: `Bearer ${token}` },
      });
    const all = await zip('');
    assert.equal(all.statusCode, 200, all.body);
    assert.equal(all.headers['content-type'], 'application/zip');
    assert.match(
      String(all.headers['content-disposition']),
      /^attachment; filename="workspace-screenshots-\d{4}-\d\d-\d\d\.zip"$/,
    );
    const files = await unzip(all.rawPayload);
    assert.deepEqual(
      [...files.keys()].sort(),
      [`${shop.key}/${tricky}.png`, `${site.key}/${first}.png`, imageFile, nowFile].sort(),
    );
    assert.deepEqual(files.get(nowFile), withoutMetadata(cleanJpeg, 'image/jpeg'));
    const listed = (await download('')).body
      .trimEnd()
      .split('\n')
      .map((text) => JSON.parse(text))
      .find((line) => line.id === first);
    assert.deepEqual(
      listed.images.map((i: { kind: string; commitSha: string | null }) => [i.kind, i.commitSha]),
      [
        ['attachment', null],
        ['now', 'abcdef1'],
      ],
      'the export lists it, with its commit',
    );
    assert.deepEqual(files.get(`${site.key}/${first}.png`), png(1));
    assert.deepEqual(files.get(imageFile), withoutMetadata(cleanJpeg, 'image/jpeg'));
    assert.deepEqual(files.get(`${shop.key}/${tricky}.png`), png(2));

    const one = await unzip((await zip(`?project=${shop.key}`)).rawPayload);
    assert.deepEqual([...one.keys()], [`${shop.key}/${tricky}.png`]);
    assert.equal((await zip('', dana.token)).statusCode, 403);
    const stranger = await signUp(t.app, 'Sam Stranger');
    assert.equal((await zip(`?project=${site.key}`, stranger.token)).statusCode, 404);
    assert.equal((await unzip((await zip('', stranger.token)).rawPayload)).size, 0, 'their workspace has none');
    const audit = await call(t.app, 'GET', '/api/workspace/audit?action=exported', { token: admin.token });
    assert.equal(audit.body.items[0].detail, 'screenshots (zip)');
    assert.equal(audit.body.items[0].target.label, shop.key);
  });

  test('CSV fields', () => {
    assert.equal(csvField('plain'), 'plain');
    assert.equal(csvField('a,b'), '"a,b"');
    assert.equal(csvField('say "hi"'), '"say ""hi"""');
    assert.equal(csvField('+1 vote'), "'+1 vote");
    assert.equal(csvField('-'), "'-");
    assert.equal(csvField(-3), '-3', 'numbers are numbers');
    assert.equal(csvField(null), '');
    assert.equal(csvField(true), 'true');
  });
});
