import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
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

const notificationsOf = async (t: TestApp, who: { token: string }) =>
  (await call(t.app, 'GET', '/api/me/notifications', { token: who.token })).body.items as {
    type: string;
    excerpt: string;
    comment: { id: string };
    actor: { name: string } | null;
  }[];

const mention = (who: { id: string }) => `<@${who.id}>`;

describe('mentions: @ someone who can read the comment', () => {
  let t: TestApp;
  let admin: Member;
  let member: Member;
  let project: { key: string; id: string };
  let other: { key: string; id: string };
  let client: Member;
  let elsewhere: Member;
  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app, 'Ada Admin');
    member = await addMember(t.app, admin, 'member', 'Lena Fischer');
    project = await createProject(t.app, admin);
    other = await createProject(t.app, admin);
    client = await addClient(t.app, admin, project.key, 'Cleo Client');
    elsewhere = await addClient(t.app, admin, other.key, 'Otto Other');
  });
  after(() => t.close());

  test('the people a comment may mention: the team and the clients of its project, never a client of another project', async () => {
    const answer = await call(t.app, 'GET', `/api/projects/${project.key}/people`, { token: client.token });
    assert.equal(answer.status, 200);
    assert.deepEqual(
      answer.body.items.map((p: { name: string; role: string }) => [p.name, p.role]),
      [
        ['Ada Admin', 'admin'],
        ['Cleo Client', 'client'],
        ['Lena Fischer', 'member'],
      ],
    );
    const ofOther = await call(t.app, 'GET', `/api/projects/${other.key}/people`, { token: client.token });
    assert.equal(ofOther.status, 404, "a client limited to a project sees no other project's people");
  });

  test('a mention notifies the person, reads as their name, and is found by "mentions me"', async () => {
    const created = await call(t.app, 'POST', `/api/projects/${project.key}/comments`, {
      token: client.token,
      body: { body: `${mention(member)} the logo is blurry`, pageUrl: 'https://app.example.test/' },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.body, '@Lena Fischer the logo is blurry');
    const told = await notificationsOf(t, member);
    assert.equal(told[0]?.type, 'CommentMentioned');
    assert.equal(told[0]?.excerpt, '@Lena Fischer the logo is blurry');
    assert.equal(told[0]?.actor?.name, 'Cleo Client');
    const mine = await call(t.app, 'GET', '/api/comments?mentions=me', { token: member.token });
    assert.deepEqual(
      mine.body.items.map((c: { id: string }) => c.id),
      [created.body.id],
    );
    const notMine = await call(t.app, 'GET', '/api/comments?mentions=me', { token: admin.token });
    assert.deepEqual(notMine.body.items, []);
  });

  test("a reply's mention tells the comment's author once, as a mention; nobody is told of their own", async () => {
    const { id } = await createComment(t.app, admin, project.key, 'The footer overlaps');
    const before = (await notificationsOf(t, admin)).length;
    const reply = await call(t.app, 'POST', `/api/comments/${id}/replies`, {
      token: member.token,
      body: { body: `Fixed locally, ${mention(admin)} can you check? ${mention(member)}` },
    });
    assert.equal(reply.status, 201, JSON.stringify(reply.body));
    assert.equal(reply.body.body, 'Fixed locally, @Ada Admin can you check? @Lena Fischer');
    const told = await notificationsOf(t, admin);
    assert.equal(told.length, before + 1, 'one notification, not a reply and a mention');
    assert.equal(told[0]?.type, 'CommentMentioned');
    assert.ok(
      (await notificationsOf(t, member)).every((n) => n.comment.id !== id),
      'mentioning yourself tells you nothing',
    );
    const read = await call(t.app, 'GET', `/api/comments/${id}`, { token: admin.token });
    assert.equal(read.body.replies[0].body, 'Fixed locally, @Ada Admin can you check? @Lena Fischer');
  });

  test('a mention of someone who cannot read the comment is refused, the same way for any id, and nothing is written', async () => {
    const strangerAdmin = await signUp(t.app, 'Stranger');
    const { id } = await createComment(t.app, admin, project.key, 'The menu jumps');
    for (const who of [elsewhere, strangerAdmin, { id: 'usr_01JD2W6Y1KQ9V8E0P4T3M5R7XA' }]) {
      const refused = await call(t.app, 'POST', `/api/comments/${id}/replies`, {
        token: member.token,
        body: { body: `Look ${mention(who)}` },
      });
      assert.equal(refused.status, 400);
      assert.match(refused.body.detail, /cannot read this comment/);
      assert.doesNotMatch(JSON.stringify(refused.body), /Otto|Stranger|another workspace/);
      const created = await call(t.app, 'POST', `/api/projects/${project.key}/comments`, {
        token: member.token,
        body: { body: `Look ${mention(who)}`, pageUrl: 'https://app.example.test/' },
      });
      assert.equal(created.status, 400);
    }
    const read = await call(t.app, 'GET', `/api/comments/${id}`, { token: admin.token });
    assert.equal(read.body.replyCount, 0);
    assert.deepEqual(await notificationsOf(t, elsewhere), []);
    assert.deepEqual(await notificationsOf(t, strangerAdmin), []);
  });

  test('typed by hand, "@Lena" is text: it notifies nobody', async () => {
    const before = (await notificationsOf(t, member)).length;
    const created = await createComment(t.app, client, project.key, '@Lena Fischer please look');
    assert.equal((await notificationsOf(t, member)).length, before);
    const read = await call(t.app, 'GET', `/api/comments/${created.id}`, { token: member.token });
    assert.equal(read.body.body, '@Lena Fischer please look');
  });

  test('a removed member is shown as a former member where they were mentioned', async () => {
    const leaving = await addMember(t.app, admin, 'member', 'Paul Leaving');
    const { id } = await createComment(t.app, admin, project.key, `Ask ${mention(leaving)} about it`);
    await call(t.app, 'POST', `/api/comments/${id}/replies`, {
      token: admin.token,
      body: { body: `${mention(leaving)} still there?` },
    });
    const removed = await call(t.app, 'DELETE', `/api/workspace/members/${leaving.id}`, { token: admin.token });
    assert.equal(removed.status, 204);
    const read = await call(t.app, 'GET', `/api/comments/${id}`, { token: admin.token });
    assert.doesNotMatch(JSON.stringify(read.body), /Paul Leaving/);
    assert.match(read.body.body, /^Ask @Former member about it$/);
    assert.match(read.body.replies[0].body, /^@Former member still there\?$/);
    const people = await call(t.app, 'GET', `/api/projects/${project.key}/people`, { token: admin.token });
    assert.ok(people.body.items.every((p: { id: string }) => p.id !== leaving.id));
  });
});

describe("mentions in every text: a verdict's note by the rule of comments and replies", () => {
  let t: TestApp;
  let admin: Member;
  let member: Member;
  let project: { key: string; id: string };
  let guest: Member;
  let elsewhere: Member;
  let stranger: Member;
  before(async () => {
    t = await createTestApp({ limits: { commentsPerMinute: 100_000, repliesPerMinute: 100_000 } });
    admin = await signUp(t.app, 'Ada Admin');
    member = await addMember(t.app, admin, 'member', 'Lena Fischer');
    project = await createProject(t.app, admin);
    const other = await createProject(t.app, admin);
    guest = await addClient(t.app, admin, project.key, 'Gus Guest');
    elsewhere = await addClient(t.app, admin, other.key, 'Otto Other');
    stranger = await signUp(t.app, 'Stranger Admin');
  });
  after(() => t.close());

  /**
   * A comment of the guest's, applied by the admin: the guest's to verify. (Not by the member the
   * notes mention: the fixer hears of a note once, as the reopening; see verification.test.ts.)
   */
  const applied = async (text: string) => {
    const { id } = await createComment(t.app, guest, project.key, text);
    const apply = await call(t.app, 'POST', `/api/comments/${id}/apply`, { token: admin.token, body: {} });
    assert.equal(apply.status, 200, JSON.stringify(apply.body));
    return id;
  };
  const notFixed = (id: string, note: string) =>
    call(t.app, 'POST', `/api/comments/${id}/verify`, { token: guest.token, body: { ok: false, note } });

  test('a guest\'s note "Not fixed" on its own comment cannot mention someone who cannot read it, under any name: 400 naming /note, nothing written', async () => {
    const id = await applied('The button is grey');
    const kinds = async () =>
      (await call(t.app, 'GET', `/api/comments/${id}`, { token: admin.token })).body.timeline.map(
        (e: { kind: string }) => e.kind,
      );
    const timeline = await kinds();
    for (const who of [stranger, elsewhere, { id: 'usr_01JD2W6Y1KQ9V8E0P4T3M5R7XA' }]) {
      const refused = await notFixed(id, `Still broken, ask <@${who.id}|Lena Fischer>`);
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.equal(refused.body.errors[0].path, '/note');
      assert.match(refused.body.detail, /cannot read this comment/);
    }
    const read = (await call(t.app, 'GET', `/api/comments/${id}`, { token: admin.token })).body;
    assert.equal(read.status, 'applied', 'still applied');
    assert.deepEqual(read.replies, []);
    assert.deepEqual(await kinds(), timeline);
    for (const who of [stranger, elsewhere]) assert.deepEqual(await notificationsOf(t, who), []);
  });

  test("a note's mention of a reader shows their own name whatever name it gave, tells them, and reads so in the reply and the timeline", async () => {
    const id = await applied('The price wraps');
    const before = (await notificationsOf(t, member)).filter((n) => n.type === 'CommentMentioned').length;
    const verdict = await notFixed(id, `Still wraps, <@${member.id}|The CEO> please look`);
    assert.equal(verdict.status, 200, JSON.stringify(verdict.body));
    const read = (await call(t.app, 'GET', `/api/comments/${id}`, { token: admin.token })).body;
    assert.equal(read.replies[0].body, 'Not fixed: Still wraps, @Lena Fischer please look');
    const event = read.timeline.find((e: { kind: string }) => e.kind === 'not_fixed');
    assert.equal(event.note, 'Still wraps, @Lena Fischer please look');
    const told = (await notificationsOf(t, member)).filter((n) => n.type === 'CommentMentioned');
    assert.equal(told.length, before + 1);
    assert.equal(told[0]?.comment.id, id);
    const mine = await call(t.app, 'GET', '/api/comments?mentions=me', { token: member.token });
    assert.ok(
      mine.body.items.some((c: { id: string }) => c.id === id),
      '"mentions me" finds it',
    );
    // Removed, the person reads as a former member there too.
    const leaving = await addMember(t.app, admin, 'member', 'Paul Leaving');
    const again = await applied('The logo is blurry');
    assert.equal((await notFixed(again, `Ask <@${leaving.id}>`)).status, 200);
    assert.equal(
      (await call(t.app, 'DELETE', `/api/workspace/members/${leaving.id}`, { token: admin.token })).status,
      204,
    );
    const after = (await call(t.app, 'GET', `/api/comments/${again}`, { token: admin.token })).body;
    assert.equal(after.replies[0].body, 'Not fixed: Ask @Former member');
    assert.equal(after.timeline.find((e: { kind: string }) => e.kind === 'not_fixed').note, 'Ask @Former member');
  });

  test('fifty replies mentioning a member while an admin removes them: each is refused, or reads as a former member once they are gone', async () => {
    const { id } = await createComment(t.app, admin, project.key, 'Who knows?');
    const other = await t.twin();
    for (const [round, answered] of RACE_POINTS.entries()) {
      const leaving = await addMember(t.app, admin, 'member', `Leaving Person ${round}`);
      const { answers, meanwhile: removed } = await amid(
        Array.from(
          { length: 50 },
          (_, i) => () =>
            call(t.app, 'POST', `/api/comments/${id}/replies`, {
              token: admin.token,
              body: { body: `Ask <@${leaving.id}> (${i})` },
            }),
        ),
        answered,
        () => call(other, 'DELETE', `/api/workspace/members/${leaving.id}`, { token: admin.token }),
      );
      assert.equal(removed.status, 204);
      for (const answer of answers) assert.ok([201, 400].includes(answer.status), JSON.stringify(answer.body));
      const read = (await call(t.app, 'GET', `/api/comments/${id}`, { token: admin.token })).body;
      const named = read.replies.filter((r: { body: string }) => r.body.includes(`Leaving Person ${round}`));
      assert.deepEqual(named, [], `round ${round}: a removed member's name is still shown`);
    }
  });
});
