import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  addClient,
  addMember,
  call,
  countRows,
  createComment,
  createProject,
  createTestApp,
  type Member,
  signUp,
  type TestApp,
} from '../../../test/helpers.js';

describe('author verification', () => {
  let t: TestApp;
  let admin: Member;
  let dev: Member;
  let otherMember: Member;
  let author: Member;
  let otherClient: Member;
  let stranger: Member;
  let project: { key: string };
  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app);
    dev = await addMember(t.app, admin, 'member', 'Dee Dev');
    otherMember = await addMember(t.app, admin);
    project = await createProject(t.app, admin);
    author = await addClient(t.app, admin, undefined, 'Cleo Client');
    otherClient = await addClient(t.app, admin);
    stranger = await signUp(t.app);
  });
  after(() => t.close());

  const applied = async () => {
    const comment = await createComment(t.app, author, project.key);
    await call(t.app, 'POST', `/api/comments/${comment.id}/apply`, {
      token: dev.token,
      body: { commitSha: 'abcdef1' },
    });
    return comment;
  };
  const verify = (user: Member, id: string, body: unknown) =>
    call(t.app, 'POST', `/api/comments/${id}/verify`, { token: user.token, body });
  const show = async (id: string) => (await call(t.app, 'GET', `/api/comments/${id}`, { token: admin.token })).body;
  const notificationsOf = async (user: Member) =>
    (await call(t.app, 'GET', '/api/me/notifications?limit=100', { token: user.token })).body.items as {
      type: string;
      comment: { id: string };
      excerpt: string;
    }[];

  test('the author, a quick-access client, verifies: verifiedAt, status kept, automated reply "Verified ✓", nobody notified', async () => {
    const comment = await applied();
    const before = {
      dev: (await notificationsOf(dev)).length,
      author: (await notificationsOf(author)).length,
      admin: (await notificationsOf(admin)).length,
    };
    const answer = await verify(author, comment.id, { ok: true, note: 'ignored' });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.status, 'applied');
    assert.ok(answer.body.verifiedAt);
    const shown = await show(comment.id);
    assert.equal(shown.replies.length, 1);
    assert.deepEqual(
      { kind: shown.replies[0].kind, body: shown.replies[0].body, author: shown.replies[0].author },
      { kind: 'system', body: 'Verified ✓', author: null },
    );
    assert.equal((await notificationsOf(dev)).length, before.dev);
    assert.equal((await notificationsOf(author)).length, before.author);
    assert.equal((await notificationsOf(admin)).length, before.admin);
  });

  test('verifying again is idempotent: same verifiedAt, no second reply', async () => {
    const comment = await applied();
    const first = await verify(author, comment.id, { ok: true });
    const second = await verify(author, comment.id, { ok: true });
    assert.equal(second.status, 200);
    assert.equal(second.body.verifiedAt, first.body.verifiedAt);
    assert.equal((await show(comment.id)).replies.length, 1);
  });

  test('an admin of the workspace may verify; another client or a member who is not the author is 403', async () => {
    const comment = await applied();
    for (const other of [otherClient, otherMember, dev]) {
      const answer = await verify(other, comment.id, { ok: true });
      assert.equal(answer.status, 403);
      assert.equal(answer.body.code, 'forbidden');
    }
    assert.equal((await show(comment.id)).verifiedAt, null);
    assert.equal((await verify(admin, comment.id, { ok: true })).status, 200);
  });

  test('an admin of another workspace gets 404 and nothing changes', async () => {
    const comment = await applied();
    assert.equal((await verify(stranger, comment.id, { ok: true })).status, 404);
    assert.equal((await verify(stranger, comment.id, { ok: false, note: 'x' })).status, 404);
    // 404 before the note is looked at: a missing or over-long note tells a stranger nothing.
    assert.equal((await verify(stranger, comment.id, { ok: false })).status, 404);
    assert.equal((await verify(stranger, comment.id, { ok: false, note: 'x'.repeat(600) })).status, 404);
    const shown = await show(comment.id);
    assert.equal(shown.status, 'applied');
    assert.equal(shown.replies.length, 0);
  });

  test('only while applied: an open or archived comment is 409 invalid_state', async () => {
    const open = await createComment(t.app, author, project.key);
    const archived = await applied();
    await call(t.app, 'POST', `/api/comments/${archived.id}/archive`, { token: dev.token });
    for (const comment of [open, archived]) {
      for (const body of [{ ok: true }, { ok: false, note: 'still broken' }]) {
        const answer = await verify(author, comment.id, body);
        assert.equal(answer.status, 409);
        assert.equal(answer.body.code, 'invalid_state');
      }
      assert.equal((await show(comment.id)).replies.length, 0);
    }
  });

  test('rejecting reopens, clears verifiedAt, replies "Not fixed: <note>" as the caller, and notifies the applier only', async () => {
    const comment = await applied();
    await verify(author, comment.id, { ok: true });
    const before = { dev: await notificationsOf(dev), admin: await notificationsOf(admin) };
    const answer = await verify(author, comment.id, { ok: false, note: '  Still overlaps on mobile  ' });
    assert.equal(answer.status, 200);
    assert.equal(answer.body.status, 'open');
    assert.equal(answer.body.verifiedAt, null);
    const replies = (await show(comment.id)).replies;
    const last = replies[replies.length - 1];
    assert.equal(last.body, 'Not fixed: Still overlaps on mobile');
    assert.equal(last.kind, 'user');
    assert.equal(last.author.id, author.id);
    const devNow = await notificationsOf(dev);
    assert.equal(devNow.length, before.dev.length + 1);
    assert.equal(devNow[0]?.type, 'CommentReopened');
    assert.equal(devNow[0]?.comment.id, comment.id);
    assert.equal((await notificationsOf(admin)).length, before.admin.length);
  });

  test('a note naming the fixer and another member tells the fixer once, that the fix was sent back, and the other of the mention', async () => {
    const comment = await applied();
    const before = { dev: (await notificationsOf(dev)).length, other: (await notificationsOf(otherMember)).length };
    const note = `<@${dev.id}|Dee> the menu still hides the title; <@${otherMember.id}|Otto> please look`;
    assert.equal((await verify(author, comment.id, { ok: false, note })).status, 200);
    const devNow = (await notificationsOf(dev)).slice(0, -before.dev || undefined);
    assert.deepEqual(
      devNow.map((n) => [n.type, n.comment.id]),
      [['CommentReopened', comment.id]],
      'the fixer: one notification',
    );
    const otherNow = (await notificationsOf(otherMember)).slice(0, -before.other || undefined);
    assert.deepEqual(
      otherNow.map((n) => [n.type, n.comment.id]),
      [['CommentMentioned', comment.id]],
    );
    const mentioning = await call(t.app, 'GET', '/api/comments?mentions=me', { token: dev.token });
    assert.equal(mentioning.status, 200);
    assert.ok(
      (mentioning.body.items as { id: string }[]).some((c) => c.id === comment.id),
      'the comment still mentions the fixer',
    );
  });

  test('the note: required, trimmed, 500 characters accepted and 501 refused, each refusal naming /note and writing nothing', async () => {
    const comment = await applied();
    const replies = await countRows(t.app, 'replies');
    for (const body of [
      { ok: false },
      { ok: false, note: '' },
      { ok: false, note: '    ' },
      { ok: false, note: 'x'.repeat(501) },
      { ok: false, note: 42 },
    ]) {
      const answer = await verify(author, comment.id, body);
      assert.equal(answer.status, 400, JSON.stringify(body).slice(0, 40));
      assert.equal(answer.body.errors[0].path, '/note');
    }
    assert.equal(await countRows(t.app, 'replies'), replies);
    assert.equal((await show(comment.id)).status, 'applied');
    const longest = await verify(author, comment.id, { ok: false, note: ` ${'x'.repeat(500)} ` });
    assert.equal(longest.status, 200);
  });

  test('ok must be a boolean: "true", 1 or a missing ok is 400 and writes nothing', async () => {
    const comment = await applied();
    for (const body of [{ ok: 'true' }, { ok: 1 }, {}, { note: 'x' }]) {
      const answer = await verify(author, comment.id, body);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(answer.body.errors[0].path, '/ok');
    }
    const shown = await show(comment.id);
    assert.equal(shown.verifiedAt, null);
    assert.equal(shown.replies.length, 0);
  });

  test('a new apply clears verifiedAt: the new fix must be verified again', async () => {
    const comment = await applied();
    await verify(author, comment.id, { ok: true });
    const again = await call(t.app, 'POST', `/api/comments/${comment.id}/apply`, {
      token: dev.token,
      body: { commitSha: '1234567' },
    });
    assert.equal(again.body.verifiedAt, null);
    const verified = await verify(author, comment.id, { ok: true });
    assert.ok(verified.body.verifiedAt);
    assert.equal((await show(comment.id)).replies.filter((r: { body: string }) => r.body === 'Verified ✓').length, 2);
  });

  test('an admin rejecting on the author behalf: the reply is the admin, the applier is notified', async () => {
    const comment = await applied();
    const answer = await verify(admin, comment.id, { ok: false, note: 'Client says no' });
    assert.equal(answer.status, 200);
    const last = (await show(comment.id)).replies.at(-1);
    assert.equal(last.author.id, admin.id);
    assert.equal((await notificationsOf(dev))[0]?.comment.id, comment.id);
  });

  test("an admin verifying or rejecting on the author's behalf raises no ReplyAdded to the author", async () => {
    const ofComment = async (id: string) => (await notificationsOf(author)).filter((n) => n.comment.id === id);
    const confirmed = await applied();
    assert.deepEqual(
      (await ofComment(confirmed.id)).map((n) => n.type),
      ['CommentApplied'],
    );
    assert.equal((await verify(admin, confirmed.id, { ok: true })).status, 200);
    assert.deepEqual(
      (await ofComment(confirmed.id)).map((n) => n.type),
      ['CommentApplied'],
      'Verified ✓ notifies nobody',
    );
    const rejected = await applied();
    assert.equal((await verify(admin, rejected.id, { ok: false, note: 'Still broken on Safari' })).status, 200);
    assert.deepEqual(
      (await ofComment(rejected.id)).map((n) => n.type),
      ['CommentApplied'],
      "the rejection's reply is not a ReplyAdded for the author; only the applier hears of it",
    );
    assert.equal(
      (await notificationsOf(dev)).filter((n) => n.comment.id === rejected.id && n.type === 'CommentReopened').length,
      1,
    );
  });
});
