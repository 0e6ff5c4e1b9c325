import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { gzipSync } from 'node:zlib';
import { REPLAY_SECONDS, REPLAY_UNPACKED_MAX_BYTES } from '@svc/contract';
import {
  addClient,
  addMember,
  call,
  createComment,
  createProject,
  createTestApp,
  type Member,
  signUp,
  type TestApp,
} from '../../../test/helpers.js';
import { replayOf } from '../../../test/images.js';
import { unzip } from '../../../test/zip.js';

describe('replays: a project setting, off by default; kept with a comment like its screenshot', () => {
  let t: TestApp;
  let admin: Member;
  let member: Member;
  let project: { key: string; id: string };
  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app);
    member = await addMember(t.app, admin);
    project = await createProject(t.app, admin);
  });
  after(() => t.close());

  const send = (who: { token: string }, id: string, bytes: Buffer, type = 'application/gzip') =>
    t.app.inject({
      method: 'PUT',
      url: `/api/comments/${id}/replay`,
      headers: { authorization: `Bearer ${who.token}`, 'content-type': type },
      payload: bytes,
    });
  const read = (who: { token: string }, id: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/comments/${id}/replay`,
      headers: { authorization: `Bearer ${who.token}` },
    });
  const setReplay = (body: Record<string, unknown>, who: Member = admin) =>
    call(t.app, 'PATCH', `/api/projects/${project.key}`, { token: who.token, body: { replay: body } });
  const stored = async () =>
    Number(
      (
        await t.app.database.db
          .selectFrom('workspaces')
          .select('stored_bytes')
          .where('id', '=', admin.workspaceId)
          .executeTakeFirstOrThrow()
      ).stored_bytes,
    );

  test('a project keeps no replays until an admin turns them on (60 s, text shown); the widget reads it with the project; a member cannot change it', async () => {
    const read = await call(t.app, 'GET', `/api/projects/${project.key}`, { token: member.token });
    assert.deepEqual(read.body.replay, { on: false, seconds: REPLAY_SECONDS.default, maskAllText: false });
    const { id } = await createComment(t.app, member, project.key, 'Replay off');
    const refused = await send(member, id, replayOf('off'));
    assert.equal(refused.statusCode, 409, refused.body);
    assert.match(refused.json().detail, /keeps no replays/);
    assert.equal((await setReplay({ on: true }, member)).status, 403);
    for (const seconds of [REPLAY_SECONDS.min - 1, REPLAY_SECONDS.max + 1, 45.5]) {
      assert.equal((await setReplay({ seconds })).status, 400, `${seconds} s refused`);
    }
    const on = await setReplay({ on: true, seconds: 90, maskAllText: true });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    assert.deepEqual(on.body.replay, { on: true, seconds: 90, maskAllText: true });
    // What the widget fetches once signed in, no deploy between.
    const now = await call(t.app, 'GET', `/api/projects/${project.key}`, { token: member.token });
    assert.deepEqual(now.body.replay, { on: true, seconds: 90, maskAllText: true });
    assert.deepEqual((await setReplay({ maskAllText: false })).body.replay, {
      on: true,
      seconds: 90,
      maskAllText: false,
    });
  });

  test("its author sends one: stored compressed as sent, read by whoever reads the comment, 404 in another workspace; counted in the workspace's storage and freed with the comment", async () => {
    await setReplay({ on: true });
    const { id } = await createComment(t.app, member, project.key, 'With a replay');
    const before = await stored();
    const bytes = replayOf('Choose Team');
    const sent = await send(member, id, bytes);
    assert.equal(sent.statusCode, 200, sent.body);
    assert.equal(sent.json().replay.url, `/api/comments/${id}/replay`);
    assert.equal(sent.json().replay.bytes, bytes.length);
    assert.equal(await stored(), before + bytes.length, 'counted as stored');
    const got = await read(admin, id);
    assert.equal(got.statusCode, 200);
    assert.equal(got.headers['content-type'], 'application/gzip');
    assert.deepEqual(got.rawPayload, bytes, 'as sent, byte for byte');
    const listed = await call(t.app, 'GET', `/api/comments/${id}`, { token: admin.token });
    assert.equal(listed.body.replay.bytes, bytes.length);
    // Another workspace's admin: no such comment, no such replay.
    const stranger = await signUp(t.app, 'Stranger');
    assert.equal((await read(stranger, id)).statusCode, 404);
    assert.equal((await send(stranger, id, bytes)).statusCode, 404);
    // Someone else of the team may read it, not send it (the author's, as the screenshot).
    assert.equal((await send(admin, id, bytes)).statusCode, 403);
    // A second replaces the first.
    const again = replayOf('Choose Team again');
    assert.equal((await send(member, id, again)).statusCode, 200);
    assert.equal(await stored(), before + again.length, 'the one replaced freed');
    assert.equal((await call(t.app, 'DELETE', `/api/comments/${id}`, { token: admin.token })).status, 204);
    assert.equal(await stored(), before, 'erased with its comment');
    const left = await t.app.database.db.selectFrom('attachments').select('id').where('comment_id', '=', id).execute();
    assert.deepEqual(left, []);
  });

  test('what is no replay is 415; one too large once decompressed is 413 saying what was refused; nothing stored', async () => {
    await setReplay({ on: true });
    const { id } = await createComment(t.app, member, project.key, 'Refused replays');
    const before = await stored();
    for (const [bytes, type] of [
      [Buffer.from('[{"type":4,"timestamp":1}]'), 'application/gzip'],
      [gzipSync('{"not":"events"}'), 'application/gzip'],
      [gzipSync('[{"type":"4"}]'), 'application/gzip'],
      [replayOf('cut').subarray(0, 30), 'application/gzip'],
    ] as const) {
      const answer = await send(member, id, bytes, type);
      assert.equal(answer.statusCode, 415, answer.body);
    }
    const bomb = gzipSync(Buffer.alloc(REPLAY_UNPACKED_MAX_BYTES + 1024, 0x20));
    const answer = await send(member, id, bomb);
    assert.equal(answer.statusCode, 413, answer.body);
    assert.match(answer.json().detail, /at most 48 MB once decompressed; this one holds more\. Nothing was stored\./);
    assert.equal(await stored(), before);
  });

  test('a client of the project sends the replay of their own comment; a client sees the project setting but cannot change it', async () => {
    await setReplay({ on: true });
    const client = await addClient(t.app, admin, project.key);
    const { id } = await createComment(t.app, client, project.key, 'A client replay');
    assert.equal((await send(client, id, replayOf('client'))).statusCode, 200);
    assert.equal((await read(client, id)).statusCode, 200);
    assert.equal((await setReplay({ on: false }, client)).status, 403);
  });

  test('the export carries replays: in the zip beside the screenshots, and the setting in the JSON Lines', async () => {
    await setReplay({ on: true, seconds: 45 });
    const { id } = await createComment(t.app, member, project.key, 'Exported replay');
    const bytes = replayOf('exported');
    assert.equal((await send(member, id, bytes)).statusCode, 200);
    const zip = await t.app.inject({
      method: 'GET',
      url: `/api/workspace/export/screenshots?project=${project.key}`,
      headers: { authorization: `Bearer ${admin.token}` },
    });
    assert.equal(zip.statusCode, 200);
    const files = await unzip(zip.rawPayload);
    assert.deepEqual(files.get(`${project.key}/${id}.replay.json.gz`), bytes);
    const lines = await t.app.inject({
      method: 'GET',
      url: `/api/workspace/export?project=${project.key}`,
      headers: { authorization: `Bearer ${admin.token}` },
    });
    const projectLine = lines.body
      .trimEnd()
      .split('\n')
      .map((text) => JSON.parse(text))
      .find((line) => line.type === 'project');
    assert.equal(projectLine.replay.seconds, 45);
    assert.equal(projectLine.replay.on, true);
  });
});
