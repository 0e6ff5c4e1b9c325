import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
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

type App = TestApp['app'];

/** The caller's unread notifications of new comments, newest first. */
const newCommentsOf = async (app: App, user: Member) =>
  (await call(app, 'GET', '/api/me/notifications?unread=true&limit=100', { token: user.token })).body.items.filter(
    (n: { type: string }) => n.type === 'CommentCreated',
  ) as { id: string; commentCount: number; excerpt: string; comment: { id: string; projectKey: string } }[];

const unread = async (app: App, user: Member) =>
  (await call(app, 'GET', '/api/me/notifications/unread-count', { token: user.token })).body.count as number;

const follow = (app: App, user: Member, projectKey: string, following: boolean) =>
  call(app, 'PUT', `/api/projects/${projectKey}/following`, { token: user.token, body: { following } });

const readAll = (app: App, user: Member) => call(app, 'POST', '/api/me/notifications/read-all', { token: user.token });

describe('new comments reach those who triage the project', () => {
  let t: TestApp;
  let admin: Member;
  let secondAdmin: Member;
  let dev: Member;
  let client: Member;
  let stranger: Member;
  let site: { key: string };
  let shop: { key: string };
  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app);
    secondAdmin = await addMember(t.app, admin, 'admin', 'Second Admin');
    dev = await addMember(t.app, admin, 'member', 'Dee Developer');
    stranger = await signUp(t.app, 'Stranger Admin');
    site = await createProject(t.app, admin);
    shop = await createProject(t.app, admin);
    client = await addClient(t.app, admin, site.key);
  });
  after(() => t.close());

  test("a client's comment tells every admin (they follow every project by default), and not its author, a member on nothing there, nor another workspace", async () => {
    for (const user of [admin, secondAdmin, dev, client, stranger]) await readAll(t.app, user);
    const comment = await createComment(t.app, client, site.key, 'The logo is cut off on the home page');
    for (const who of [admin, secondAdmin]) {
      const [told, ...more] = await newCommentsOf(t.app, who);
      assert.equal(more.length, 0);
      assert.equal(told?.comment.id, comment.id);
      assert.equal(told?.comment.projectKey, site.key);
      assert.equal(told?.excerpt, 'The logo is cut off on the home page');
      assert.equal(told?.commentCount, 1);
      assert.equal(await unread(t.app, who), 1, 'the badge counts it');
    }
    for (const who of [dev, client, stranger]) assert.equal(await unread(t.app, who), 0);
    // The admin's own comment tells the other admin, not them.
    await readAll(t.app, secondAdmin);
    await createComment(t.app, admin, shop.key, 'Our own note');
    assert.equal((await newCommentsOf(t.app, secondAdmin)).length, 1);
    assert.equal((await newCommentsOf(t.app, admin)).length, 1, 'still only the client’s');
  });

  test('a member follows the projects where they are on a comment; anyone of the team follows or leaves a project, and the choice stands', async () => {
    const first = await createComment(t.app, client, site.key);
    assert.deepEqual(await following(dev), { [site.key]: false, [shop.key]: false });
    await call(t.app, 'PUT', `/api/comments/${first.id}/assignee`, {
      token: admin.token,
      body: { assigneeId: dev.id },
    });
    assert.deepEqual(await following(dev), { [site.key]: true, [shop.key]: false });
    await readAll(t.app, dev);
    await createComment(t.app, client, site.key, 'Another one');
    assert.equal((await newCommentsOf(t.app, dev)).length, 1);

    // Leaving: no more new comments of it, whatever the default; following another: its comments.
    assert.deepEqual((await follow(t.app, dev, site.key, false)).body, { projectKey: site.key, following: false });
    assert.deepEqual((await follow(t.app, dev, shop.key, true)).body, { projectKey: shop.key, following: true });
    assert.deepEqual((await follow(t.app, admin, site.key, false)).body, { projectKey: site.key, following: false });
    for (const who of [dev, admin]) await readAll(t.app, who);
    await createComment(t.app, client, site.key, 'Nobody of those who left hears of it');
    await createComment(t.app, secondAdmin, shop.key, 'A shop comment');
    assert.deepEqual(
      (await newCommentsOf(t.app, dev)).map((n) => n.comment.projectKey),
      [shop.key],
    );
    assert.deepEqual(
      (await newCommentsOf(t.app, admin)).map((n) => n.comment.projectKey),
      [shop.key],
    );
    assert.deepEqual(await following(admin), { [site.key]: false, [shop.key]: true });
    // Following again is the same as never having left; the same choice twice changes nothing.
    for (let i = 0; i < 2; i++) assert.equal((await follow(t.app, admin, site.key, true)).status, 200);
    assert.deepEqual(await following(admin), { [site.key]: true, [shop.key]: true });
  });

  test('clients follow nothing; another workspace’s project, or one the caller cannot see, is 404 and writes nothing', async () => {
    const refused = await follow(t.app, client, site.key, true);
    assert.equal(refused.status, 403);
    assert.equal((await call(t.app, 'GET', '/api/me/following', { token: client.token })).status, 403);
    assert.equal((await follow(t.app, stranger, site.key, true)).status, 404);
    assert.equal((await follow(t.app, admin, 'no-such-project', true)).status, 404);
    const rows = await t.app.database.db
      .selectFrom('project_followers')
      .select('user_id')
      .where('user_id', 'in', [client.id, stranger.id])
      .execute();
    assert.deepEqual(rows, []);
    // The stranger's own list names only their projects.
    assert.deepEqual((await call(t.app, 'GET', '/api/me/following', { token: stranger.token })).body, { items: [] });
  });

  test('nobody who cannot read the project hears of it, whatever a row says: a removed member, a client, another workspace', async () => {
    const gone = await addMember(t.app, admin, 'member', 'Gone Member');
    assert.equal((await follow(t.app, gone, site.key, true)).status, 200);
    await call(t.app, 'DELETE', `/api/workspace/members/${gone.id}`, { token: admin.token });
    // Rows no request can write: a client of another project, a client of every project, a stranger.
    const elsewhere = await addClient(t.app, admin, shop.key, 'Shop Client');
    const everywhere = await addClient(t.app, admin, undefined, 'Any Client');
    const { id: siteId } = await t.app.database.db
      .selectFrom('projects')
      .select('id')
      .where('key', '=', site.key)
      .where('workspace_id', '=', admin.workspaceId)
      .executeTakeFirstOrThrow();
    const chosen_at = new Date().toISOString();
    await t.app.database.db
      .insertInto('project_followers')
      .values(
        [elsewhere, everywhere, stranger].map((who) => ({
          project_id: siteId,
          user_id: who.id,
          workspace_id: who.workspaceId,
          following: 1,
          chosen_at,
        })),
      )
      .execute();
    const them = [gone.id, elsewhere.id, everywhere.id, stranger.id];
    const before = await countNewCommentRows(them);
    await createComment(t.app, client, site.key, 'After they left');
    assert.equal(await countNewCommentRows(them), before);
  });

  test('a follower mentioned in the new comment is told once, as a mention', async () => {
    await readAll(t.app, secondAdmin);
    await createComment(t.app, client, site.key, `Look, <@${secondAdmin.id}>`);
    const told = (await call(t.app, 'GET', '/api/me/notifications?unread=true', { token: secondAdmin.token })).body
      .items;
    assert.deepEqual(
      told.map((n: { type: string }) => n.type),
      ['CommentMentioned'],
    );
  });

  async function following(user: Member): Promise<Record<string, boolean>> {
    const answer = await call(t.app, 'GET', '/api/me/following', { token: user.token });
    assert.equal(answer.status, 200);
    return Object.fromEntries(
      answer.body.items.map((item: { projectKey: string; following: boolean }) => [item.projectKey, item.following]),
    );
  }

  async function countNewCommentRows(userIds: string[]) {
    const rows = await t.app.database.db
      .selectFrom('notifications')
      .select('id')
      .where('recipient_id', 'in', userIds)
      .where('type', '=', 'CommentCreated')
      .execute();
    return rows.length;
  }
});

describe('a flood of new comments is one unread item per project', () => {
  let t: TestApp;
  let admin: Member;
  let client: Member;
  let site: { key: string };
  let shop: { key: string };
  before(async () => {
    // A client writes more than the minute's limit of comments here, over the tests.
    t = await createTestApp({ limits: { commentsPerMinute: 1000 } });
    admin = await signUp(t.app);
    site = await createProject(t.app, admin);
    shop = await createProject(t.app, admin);
    client = await addClient(t.app, admin);
  });
  after(() => t.close());

  test('30 comments of a client make one unread item that counts them and opens the newest; once read, the next begins another', async () => {
    await readAll(t.app, admin);
    let last = '';
    for (let i = 0; i < 30; i++) last = (await createComment(t.app, client, site.key, `Flood ${i}`)).id;
    await createComment(t.app, client, shop.key, 'Elsewhere');
    const items = await newCommentsOf(t.app, admin);
    assert.deepEqual(
      items.map((n) => [n.comment.projectKey, n.commentCount]),
      [
        [shop.key, 1],
        [site.key, 30],
      ],
    );
    assert.equal(items[1]?.comment.id, last);
    assert.equal(items[1]?.excerpt, 'Flood 29');
    assert.equal(await unread(t.app, admin), 2);

    await readAll(t.app, admin);
    await createComment(t.app, client, site.key, 'After reading');
    const [next] = await newCommentsOf(t.app, admin);
    assert.equal(next?.commentCount, 1);
    assert.equal(await unread(t.app, admin), 1);
  });

  test('an item shown before a new comment joined it moves up and stays unread through read-all up to what was shown', async () => {
    await readAll(t.app, admin);
    await createComment(t.app, client, site.key, 'First');
    await createComment(t.app, client, shop.key, 'Shop');
    const shown = await newCommentsOf(t.app, admin);
    await createComment(t.app, client, site.key, 'Second, while the list was open');
    const marked = await call(t.app, 'POST', '/api/me/notifications/read-all', {
      token: admin.token,
      body: { upTo: shown[0]?.id },
    });
    assert.equal(marked.body.unreadCount, 1);
    const [left] = await newCommentsOf(t.app, admin);
    assert.equal(left?.excerpt, 'Second, while the list was open');
    assert.equal(left?.commentCount, 2);
  });

  test('deleting the newest comment of an item leaves it on the one before; deleting the only one removes it', async () => {
    await readAll(t.app, admin);
    const older = await createComment(t.app, client, site.key, 'Older');
    const newer = await createComment(t.app, client, site.key, 'Newer');
    assert.equal((await call(t.app, 'DELETE', `/api/comments/${newer.id}`, { token: admin.token })).status, 204);
    const [item] = await newCommentsOf(t.app, admin);
    assert.equal(item?.comment.id, older.id);
    assert.equal(item?.commentCount, 1);
    assert.equal(item?.excerpt, 'Older');
    assert.equal((await call(t.app, 'DELETE', `/api/comments/${older.id}`, { token: admin.token })).status, 204);
    assert.deepEqual(await newCommentsOf(t.app, admin), []);
    assert.equal(await unread(t.app, admin), 0);
  });

  test('50 comments at once make exactly one unread item for each follower, counting all 50', async () => {
    const secondAdmin = await addMember(t.app, admin, 'admin', 'Second Admin');
    await readAll(t.app, admin);
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        call(t.app, 'POST', `/api/projects/${site.key}/comments`, {
          token: client.token,
          body: { body: `At once ${i}`, pageUrl: 'https://app.example.test/pricing' },
        }),
      ),
    );
    assert.deepEqual(
      answers.map((answer) => answer.status),
      answers.map(() => 201),
    );
    // Two followers, whose items each of the 50 writes in the same order.
    for (const who of [admin, secondAdmin]) {
      const items = await newCommentsOf(t.app, who);
      assert.deepEqual(
        items.map((n) => n.commentCount),
        [50],
      );
      assert.equal(await unread(t.app, who), 1);
    }
  });
});

describe('My work: what waits for triage', () => {
  let t: TestApp;
  let admin: Member;
  let dev: Member;
  let client: Member;
  let site: { key: string };
  let shop: { key: string };
  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app);
    dev = await addMember(t.app, admin);
    site = await createProject(t.app, admin);
    shop = await createProject(t.app, admin);
    client = await addClient(t.app, admin);
  });
  after(() => t.close());

  const waiting = async (user: Member) => {
    const answer = await call(t.app, 'GET', '/api/comments?followed=me&assignee=none&status=open', {
      token: user.token,
    });
    assert.equal(answer.status, 200);
    return answer.body.items.map((c: { body: string }) => c.body) as string[];
  };

  test('followed=me lists the comments of the projects the caller follows; with assignee=none and open, what nobody is on yet', async () => {
    await createComment(t.app, client, site.key, 'Site, new');
    await createComment(t.app, client, shop.key, 'Shop, new');
    const taken = await createComment(t.app, client, site.key, 'Site, taken');
    await call(t.app, 'POST', `/api/comments/${taken.id}/claim`, { token: dev.token });
    assert.deepEqual(await waiting(admin), ['Shop, new', 'Site, new']);
    // The member is on a site comment: they follow the site, not the shop.
    assert.deepEqual(await waiting(dev), ['Site, new']);
    await follow(t.app, admin, shop.key, false);
    assert.deepEqual(await waiting(admin), ['Site, new']);
    // A client follows nothing: nothing waits for them.
    assert.deepEqual(await waiting(client), []);
  });
});
