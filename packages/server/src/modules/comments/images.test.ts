import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { IMAGE_MAX_BYTES, IMAGES_PER_PERSON_MAX } from '@svc/contract';
import {
  addClient,
  addMember,
  amid,
  call,
  createComment,
  createProject,
  createTestApp,
  type Member,
  RACE_POINTS,
  signUp,
  type TestApp,
} from '../../../test/helpers.js';
import {
  cleanJpeg,
  cleanPng,
  cleanWebp,
  jpegWithMetadata,
  pngWithMetadata,
  SECRETS,
  webpChunks,
  webpWithMetadata,
} from '../../../test/images.js';
import { withoutMetadata } from './image-metadata.js';

describe('images of a thread: attached without their metadata, read like the screenshot', () => {
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

  const send = (who: { token: string }, commentId: string, bytes: Buffer, type: string, reply?: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/comments/${commentId}/images${reply ? `?reply=${reply}` : ''}`,
      headers: { authorization: `Bearer ${who.token}`, 'content-type': type },
      payload: bytes,
    });
  const read = (who: { token: string }, url: string) =>
    t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${who.token}` } });
  const noSecret = (stored: Buffer) => {
    for (const secret of SECRETS) assert.equal(stored.includes(secret), false, `"${secret}" is gone`);
  };

  test('a JPEG and a PNG with EXIF (a GPS position), XMP, IPTC, comments and text arrive as they were made, without any of it', async () => {
    const { id } = await createComment(t.app, member, project.key, 'The logo is blurry');
    for (const [dirty, clean, type] of [
      [jpegWithMetadata(), cleanJpeg, 'image/jpeg'],
      [pngWithMetadata(), cleanPng, 'image/png'],
    ] as const) {
      for (const secret of SECRETS.slice(0, 2)) assert.ok(dirty.includes(secret), 'the file sent holds it');
      const sent = await send(member, id, dirty, type);
      assert.equal(sent.statusCode, 201, sent.body);
      const image = sent.json();
      assert.equal(image.contentType, type);
      assert.equal(image.kind, 'attachment');
      // The clean file as it is stored: the same but its colour profile, kept as colour data alone.
      const kept = withoutMetadata(clean, type);
      assert.equal(image.bytes, kept.length);
      const stored = await read(admin, image.url);
      assert.equal(stored.statusCode, 200);
      assert.equal(stored.headers['content-type'], type);
      assert.deepEqual(stored.rawPayload, kept, 'the image itself, byte for byte');
      noSecret(stored.rawPayload);
    }
  });

  test('a WebP loses its EXIF and XMP chunks and their flags; its colour profile stays', async () => {
    const { id } = await createComment(t.app, member, project.key, 'The hero image is cut');
    const dirty = webpWithMetadata();
    assert.deepEqual(webpChunks(dirty), ['VP8X', 'ICCP', 'VP8 ', 'EXIF', 'XMP ']);
    const sent = await send(member, id, dirty, 'image/webp');
    assert.equal(sent.statusCode, 201, sent.body);
    const stored = (await read(member, sent.json().url)).rawPayload;
    assert.deepEqual(webpChunks(stored), ['VP8X', 'ICCP', 'VP8 ']);
    assert.equal(stored.readUInt32LE(4) + 8, stored.length, 'the RIFF size is the file’s');
    assert.equal((stored[20] as number) & 0x0c, 0, 'VP8X no longer announces EXIF or XMP');
    assert.deepEqual(stored, withoutMetadata(cleanWebp, 'image/webp'), 'the file as it was made, byte for byte');
    noSecret(stored);
  });

  test('a screenshot sent straight to the API loses its metadata too', async () => {
    const { id } = await createComment(t.app, member, project.key, 'Shot with a phone');
    const put = await t.app.inject({
      method: 'PUT',
      url: `/api/comments/${id}/screenshot`,
      headers: { authorization: `Bearer ${member.token}`, 'content-type': 'image/jpeg' },
      payload: jpegWithMetadata(),
    });
    assert.equal(put.statusCode, 200, put.body);
    const stored = await read(member, `/api/comments/${id}/screenshot`);
    assert.deepEqual(stored.rawPayload, withoutMetadata(cleanJpeg, 'image/jpeg'));
  });

  test('refused, and nothing stored: a text file named .png, a JPEG cut short, one over the size limit, one past the thread’s limit', async () => {
    const { id } = await createComment(t.app, member, project.key, 'Refusals');
    const text = await send(member, id, Buffer.from('just some text, called logo.png'), 'image/png');
    assert.equal(text.statusCode, 415);
    assert.match(text.json().detail, /PNG, JPEG or WebP/);
    const cut = await send(member, id, cleanJpeg.subarray(0, cleanJpeg.length - 40), 'image/jpeg');
    assert.equal(cut.statusCode, 415);
    assert.match(cut.json().detail, /Not a whole JPEG/);
    const huge = Buffer.concat([cleanPng, Buffer.alloc(IMAGE_MAX_BYTES)]);
    assert.equal((await send(member, id, huge, 'image/png')).statusCode, 413);
    const read1 = await call(t.app, 'GET', `/api/comments/${id}`, { token: member.token });
    assert.deepEqual(read1.body.images, []);
    for (let i = 0; i < IMAGES_PER_PERSON_MAX; i++)
      assert.equal((await send(member, id, cleanPng, 'image/png')).statusCode, 201);
    const over = await send(member, id, cleanPng, 'image/png');
    assert.equal(over.statusCode, 409);
    const read2 = await call(t.app, 'GET', `/api/comments/${id}`, { token: member.token });
    assert.equal(read2.body.images.length, IMAGES_PER_PERSON_MAX);
  });

  test('who attaches: the comment’s author and the team to the comment, a reply’s author to the reply; who reads: whoever reads the comment', async () => {
    const other = await createProject(t.app, admin);
    const client = await addClient(t.app, admin, project.key, 'Cleo Client');
    const elsewhere = await addClient(t.app, admin, other.key, 'Otto Other');
    const stranger = await signUp(t.app, 'Stranger');
    const { id } = await createComment(t.app, member, project.key, 'Whose images');
    assert.equal((await send(admin, id, cleanPng, 'image/png')).statusCode, 201, 'the team');
    const byClient = await send(client, id, cleanPng, 'image/png');
    assert.equal(byClient.statusCode, 403, 'a client, to someone else’s comment');
    const reply = await call(t.app, 'POST', `/api/comments/${id}/replies`, {
      token: client.token,
      body: { body: 'Here is what I see' },
    });
    const onReply = await send(client, id, cleanJpeg, 'image/jpeg', reply.body.id);
    assert.equal(onReply.statusCode, 201, 'a client, to its own reply');
    assert.equal(onReply.json().replyId, reply.body.id);
    assert.equal((await send(member, id, cleanPng, 'image/png', reply.body.id)).statusCode, 403, 'another’s reply');
    assert.equal((await send(member, id, cleanPng, 'image/png', 'rpl_nothing')).statusCode, 404);
    const thread = (await call(t.app, 'GET', `/api/comments/${id}`, { token: client.token })).body;
    assert.deepEqual(
      thread.images.map((image: { replyId: string | null; by: { name: string } }) => [image.replyId, image.by.name]),
      [
        [null, 'Ada Admin'],
        [reply.body.id, 'Cleo Client'],
      ],
    );
    const url = onReply.json().url;
    assert.equal((await read(client, url)).statusCode, 200);
    for (const outsider of [elsewhere, stranger]) {
      assert.equal((await read(outsider, url)).statusCode, 404, 'not its comment to read');
      assert.equal((await send(outsider, id, cleanPng, 'image/png')).statusCode, 404);
    }
    const anotherComment = await createComment(t.app, member, project.key, 'Another');
    const wrongPair = await read(admin, `/api/comments/${anotherComment.id}/images/${onReply.json().id}`);
    assert.equal(wrongPair.statusCode, 404, 'an image is read through its own comment only');
  });

  test("the picture of after: the verdict's giver sends it once, kept with that timeline event; nobody else, and not before a verdict", async () => {
    const author = await addMember(t.app, admin, 'member', 'Vera Verdict');
    const { id } = await createComment(t.app, author, project.key, 'The button is cut off');
    const after = (who: { token: string }) =>
      t.app.inject({
        method: 'POST',
        url: `/api/comments/${id}/images?verdict=true`,
        headers: { authorization: `Bearer ${who.token}`, 'content-type': 'image/png' },
        payload: cleanPng,
      });
    const early = await after(author);
    assert.equal(early.statusCode, 409, 'no verdict yet');
    assert.match(early.json().detail, /give it first/);
    await call(t.app, 'POST', `/api/comments/${id}/apply`, { token: member.token, body: {} });
    const verdict = await call(t.app, 'POST', `/api/comments/${id}/verify`, {
      token: author.token,
      body: { ok: false, note: 'Still cut off' },
    });
    assert.equal(verdict.status, 200, JSON.stringify(verdict.body));
    assert.equal((await after(member)).statusCode, 409, 'not the verdict of the one who sends it');
    const sent = await after(author);
    assert.equal(sent.statusCode, 201, sent.body);
    assert.equal((await after(author)).statusCode, 409, 'once per verdict');
    const thread = (await call(t.app, 'GET', `/api/comments/${id}`, { token: admin.token })).body;
    const notFixed = thread.timeline.find((event: { kind: string }) => event.kind === 'not_fixed');
    assert.deepEqual(
      thread.images.map((image: { kind: string; eventId: string | null }) => [image.kind, image.eventId]),
      [['after', notFixed.id]],
    );
    // The next fix and verdict take a picture of their own.
    await call(t.app, 'POST', `/api/comments/${id}/apply`, { token: member.token, body: {} });
    await call(t.app, 'POST', `/api/comments/${id}/verify`, { token: author.token, body: { ok: true } });
    assert.equal((await after(author)).statusCode, 201);
  });

  test('each person has a share of a thread of their own: a guest who fills theirs on its replies leaves the team theirs', async () => {
    const guest = await addClient(t.app, admin, project.key, 'Gus Guest');
    const { id } = await createComment(t.app, member, project.key, 'The team’s comment');
    const reply = await call(t.app, 'POST', `/api/comments/${id}/replies`, {
      token: guest.token,
      body: { body: 'Many pictures of it' },
    });
    for (let i = 0; i < IMAGES_PER_PERSON_MAX; i++)
      assert.equal((await send(guest, id, cleanPng, 'image/png', reply.body.id)).statusCode, 201);
    const past = await send(guest, id, cleanPng, 'image/png', reply.body.id);
    assert.equal(past.statusCode, 409, 'the guest, past its own share');
    assert.equal(past.json().code, 'invalid_state');
    assert.match(past.json().detail, new RegExp(`at most ${IMAGES_PER_PERSON_MAX} images to a comment's thread`));
    const team = await send(member, id, cleanPng, 'image/png');
    assert.equal(team.statusCode, 201, `the member attaches to the comment: ${team.body}`);
    assert.equal((await send(admin, id, cleanPng, 'image/png')).statusCode, 201, 'and the admin');
    const images = (await call(t.app, 'GET', `/api/comments/${id}`, { token: member.token })).body.images;
    assert.equal(images.length, IMAGES_PER_PERSON_MAX + 2);
  });

  test('caps hold under 60 requests at once: one person’s share keeps 20, a verdict one picture, a comment one picture of now', async () => {
    const author = await addMember(t.app, admin, 'member', 'Rita Race');
    const { id } = await createComment(t.app, author, project.key, 'Sent all at once');
    const attached = await Promise.all(Array.from({ length: 60 }, () => send(author, id, cleanPng, 'image/png')));
    const statuses = attached.map((answer) => answer.statusCode);
    assert.equal(statuses.filter((s) => s === 201).length, IMAGES_PER_PERSON_MAX, statuses.join(' '));
    assert.equal(statuses.filter((s) => s === 409).length, 60 - IMAGES_PER_PERSON_MAX, statuses.join(' '));
    await call(t.app, 'POST', `/api/comments/${id}/apply`, { token: member.token, body: {} });
    const picture = (query: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/comments/${id}/images?${query}`,
        headers: { authorization: `Bearer ${author.token}`, 'content-type': 'image/png' },
        payload: cleanPng,
      });
    const nows = await Promise.all(Array.from({ length: 50 }, () => picture('now=true')));
    assert.ok(
      nows.every((answer) => answer.statusCode === 201),
      nows.map((answer) => answer.statusCode).join(' '),
    );
    await call(t.app, 'POST', `/api/comments/${id}/verify`, { token: author.token, body: { ok: true } });
    const afters = await Promise.all(Array.from({ length: 50 }, () => picture('verdict=true')));
    const afterStatuses = afters.map((answer) => answer.statusCode);
    assert.equal(afterStatuses.filter((s) => s === 201).length, 1, afterStatuses.join(' '));
    const kinds = (await call(t.app, 'GET', `/api/comments/${id}`, { token: admin.token })).body.images.map(
      (image: { kind: string }) => image.kind,
    );
    assert.deepEqual(
      [kinds.filter((k: string) => k === 'attachment').length, kinds.filter((k: string) => k === 'now').length],
      [IMAGES_PER_PERSON_MAX, 1],
    );
    assert.equal(kinds.filter((k: string) => k === 'after').length, 1);
  });

  describe('the picture of now, while a fix waits for its verdict', () => {
    const sendNow = (who: { token: string }, commentId: string, query = 'now=true') =>
      t.app.inject({
        method: 'POST',
        url: `/api/comments/${commentId}/images?${query}`,
        headers: { authorization: `Bearer ${who.token}`, 'content-type': 'image/png' },
        payload: cleanPng,
      });
    const thread = async (id: string) => (await call(t.app, 'GET', `/api/comments/${id}`, { token: admin.token })).body;
    const nowRows = (id: string) =>
      t.app.database.db
        .selectFrom('images')
        .select('id')
        .where('comment_id', '=', id)
        .where('kind', '=', 'now')
        .execute();

    test('taken while applied and while Live, by those who may verify it; the latest replaces the one before, with the commit it was taken for', async () => {
      const client = await addClient(t.app, admin, project.key, 'Nora Now');
      const { id } = await createComment(t.app, client, project.key, 'The price wraps');
      const early = await sendNow(client, id);
      assert.equal(early.statusCode, 409, 'open: no fix waits');
      assert.match(early.json().detail, /waits for its verdict; this comment is open/);
      await call(t.app, 'POST', `/api/comments/${id}/apply`, { token: member.token, body: { commitSha: 'ABCDEF1' } });
      const first = await sendNow(client, id);
      assert.equal(first.statusCode, 201, first.body);
      assert.equal(first.json().kind, 'now');
      assert.equal(first.json().commitSha, 'abcdef1', 'the fix’s commit, as stored');
      assert.equal(first.json().by.name, 'Nora Now');
      assert.equal((await sendNow(member, id)).statusCode, 403, 'a member does not verify it');
      assert.equal((await sendNow(client, id, 'now=true&verdict=true')).statusCode, 400, 'now goes alone');
      await call(t.app, 'POST', `/api/projects/${project.key}/builds`, {
        token: member.token,
        body: { sha: 'abcdef1' },
      });
      assert.ok((await thread(id)).deployedAt, 'Live');
      const second = await sendNow(client, id);
      assert.equal(second.statusCode, 201, 'Live, still waiting for the verdict');
      const byAdmin = await sendNow(admin, id);
      assert.equal(byAdmin.statusCode, 201, 'an admin may verify it');
      const images = (await thread(id)).images;
      assert.deepEqual(
        images.map((image: { id: string; kind: string; by: { name: string } }) => [
          image.id,
          image.kind,
          image.by.name,
        ]),
        [[byAdmin.json().id, 'now', 'Ada Admin']],
        'one picture of now: the latest',
      );
      assert.equal((await nowRows(id)).length, 1, 'the ones before deleted, bytes and all');
      assert.equal((await read(admin, first.json().url)).statusCode, 404);
      const latest = await read(client, byAdmin.json().url);
      assert.equal(latest.statusCode, 200, 'read by whoever reads the comment');
      assert.deepEqual(latest.rawPayload, cleanPng);
    });

    test('refused once the fix has its verdict (Verified, or Not fixed), which keeps the last picture of now as it was', async () => {
      const author = await addMember(t.app, admin, 'member', 'Vic Verdict');
      const verified = await createComment(t.app, author, project.key, 'Verified soon');
      const rejected = await createComment(t.app, author, project.key, 'Rejected soon');
      for (const { id } of [verified, rejected]) {
        await call(t.app, 'POST', `/api/comments/${id}/apply`, { token: member.token, body: {} });
        assert.equal((await sendNow(author, id)).statusCode, 201);
      }
      await call(t.app, 'POST', `/api/comments/${verified.id}/verify`, { token: author.token, body: { ok: true } });
      await call(t.app, 'POST', `/api/comments/${rejected.id}/verify`, {
        token: author.token,
        body: { ok: false, note: 'Still wraps' },
      });
      const late = await sendNow(author, verified.id);
      assert.equal(late.statusCode, 409);
      assert.match(late.json().detail, /verified/);
      assert.equal((await sendNow(author, rejected.id)).statusCode, 409, 'reopened: no fix waits');
      for (const { id } of [verified, rejected]) {
        const kinds = (await thread(id)).images.map((image: { kind: string }) => image.kind);
        assert.deepEqual(kinds, ['now'], 'kept through the verdict');
      }
      // The next fix's picture replaces it.
      await call(t.app, 'POST', `/api/comments/${rejected.id}/apply`, { token: member.token, body: {} });
      assert.equal((await sendNow(author, rejected.id)).statusCode, 201);
      assert.equal((await nowRows(rejected.id)).length, 1);
    });

    test('several at once leave one; none takes the place of an attachment; another workspace gets 404 and writes nothing', async () => {
      const { id } = await createComment(t.app, admin, project.key, 'Sent twice at once');
      await call(t.app, 'POST', `/api/comments/${id}/apply`, { token: member.token, body: {} });
      const answers = await Promise.all([1, 2, 3, 4].map(() => sendNow(admin, id)));
      assert.deepEqual(
        answers.map((answer) => answer.statusCode),
        [201, 201, 201, 201],
      );
      assert.equal((await nowRows(id)).length, 1);
      for (let i = 0; i < IMAGES_PER_PERSON_MAX; i++)
        assert.equal((await send(admin, id, cleanPng, 'image/png')).statusCode, 201);
      const stranger = await signUp(t.app, 'Stranger Now');
      const before = await t.app.database.db.selectFrom('images').select('id').execute();
      assert.equal((await sendNow(stranger, id)).statusCode, 404);
      const [now] = await nowRows(id);
      assert.equal((await read(stranger, `/api/comments/${id}/images/${now?.id}`)).statusCode, 404);
      assert.equal((await t.app.database.db.selectFrom('images').select('id').execute()).length, before.length);
    });
  });
});

describe('images while what they belong to is deleted', () => {
  let t: TestApp;
  let admin: Member;
  before(async () => {
    t = await createTestApp({
      limits: { uploadsPerMinute: 100_000, uploadMegabytesPerHour: 100_000, commentsPerMinute: 100_000 },
    });
    admin = await signUp(t.app);
  });
  after(() => t.close());

  test('fifty uploads at once while the project is deleted: each stored before (and gone with it) or told the comment is gone, the deletion 204, none a 500', async () => {
    const other = await t.twin();
    for (const [round, answered] of RACE_POINTS.entries()) {
      const project = await createProject(t.app, admin);
      const comments = await Promise.all(
        [0, 1, 2, 3, 4].map((i) => createComment(t.app, admin, project.key, `Doomed ${i}`)),
      );
      const { answers, meanwhile: deleted } = await amid(
        Array.from(
          { length: 50 },
          (_, i) => () =>
            // Images of the thread and screenshots (the comments' author's), each a write that counts its bytes.
            t.app.inject({
              method: i % 2 ? 'POST' : 'PUT',
              url: `/api/comments/${comments[i % comments.length]?.id}/${i % 2 ? 'images' : 'screenshot'}`,
              headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'image/png' },
              payload: cleanPng,
            }),
        ),
        answered,
        () => call(other, 'DELETE', `/api/projects/${project.key}`, { token: admin.token }),
      );
      assert.equal(deleted.status, 204, JSON.stringify(deleted.body));
      for (const answer of answers) assert.ok([200, 201, 404].includes(answer.statusCode), answer.body);
      const left = await t.app.database.db
        .selectFrom('images')
        .select('id')
        .where(
          'comment_id',
          'in',
          comments.map((comment) => comment.id),
        )
        .execute();
      assert.deepEqual(left, [], `round ${round}`);
      const screenshots = await t.app.database.db
        .selectFrom('attachments')
        .select('id')
        .where('workspace_id', '=', admin.workspaceId)
        .execute();
      assert.deepEqual(screenshots, [], 'nor a screenshot');
      const stored = await t.app.database.db
        .selectFrom('workspaces')
        .select('stored_bytes')
        .where('id', '=', admin.workspaceId)
        .executeTakeFirstOrThrow();
      assert.equal(Number(stored.stored_bytes), 0, 'the count of what the workspace stores went with them');
    }
  });
  test('fifty uploads at once to comments a member is on, while an admin removes the member: each stored, the removal 204, none a 500', async () => {
    const other = await t.twin();
    const project = await createProject(t.app, admin);
    const comments = await Promise.all(
      Array.from({ length: 50 }, (_, i) => createComment(t.app, admin, project.key, `Assigned ${i}`)),
    );
    for (const [round, answered] of RACE_POINTS.entries()) {
      const leaving = await addMember(t.app, admin, 'member', `Leaving ${round}`);
      for (const { id } of comments)
        await call(t.app, 'PUT', `/api/comments/${id}/assignee`, {
          token: admin.token,
          body: { assigneeId: leaving.id },
        });
      const { answers, meanwhile: removed } = await amid(
        comments.map(
          ({ id }) =>
            () =>
              t.app.inject({
                method: 'PUT',
                url: `/api/comments/${id}/screenshot`,
                headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'image/png' },
                payload: cleanPng,
              }),
        ),
        answered,
        () => call(other, 'DELETE', `/api/workspace/members/${leaving.id}`, { token: admin.token }),
      );
      assert.equal(removed.status, 204, `round ${round}: ${JSON.stringify(removed.body)}`);
      for (const answer of answers) assert.equal(answer.statusCode, 200, answer.body);
    }
  });
});
