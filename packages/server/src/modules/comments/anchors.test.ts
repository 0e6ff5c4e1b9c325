import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Anchor } from '@svc/contract';
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

/** What the widget sends for the “Choose Team” button of a pricing page. */
const described: Anchor = {
  selector: '#plans > article:nth-of-type(2) > button',
  x: 40,
  y: 12,
  tag: 'button',
  role: 'button',
  name: 'Choose Team',
  text: { exact: 'Choose Team', prefix: 'Alerts by e-mail', suffix: 'Business $199' },
  attributes: { type: 'button', testId: 'choose-team' },
  classes: ['btn', 'btn-primary'],
  context: { parent: 'Team $49 /month Choose Team', previous: 'Alerts by e-mail' },
  twins: 2,
  twinsBefore: 1,
  twinsByQuote: 'before',
  twinsByItem: { up: 3, text: 'Team $49 /month Choose Team', holds: 2, before: 1 },
  twinsByShape: { up: 4, shape: '1ism8f6' },
  alikes: 3,
  alikesBefore: 2,
  kin: 4,
  textCount: 1,
  selectors: ['[data-testid="choose-team"]', 'button.btn.btn-primary'],
  position: { left: 420, top: 610, width: 220, height: 40, viewportWidth: 1440, viewportHeight: 900 },
  frames: [{ kind: 'shadow', selector: 'pricing-table' }],
};

describe('anchors, re-pinning and page identity', () => {
  let t: TestApp;
  let admin: Member;
  let member: Member;
  let client: Member;
  let otherClient: Member;
  let project: { id: string; key: string };
  const commentsUrl = () => `/api/projects/${project.key}/comments`;

  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app);
    member = await addMember(t.app, admin);
    client = await addClient(t.app, admin);
    otherClient = await addClient(t.app, admin, undefined, 'Olga Other');
    project = await createProject(t.app, admin);
  });
  after(() => t.close());

  test("a comment keeps the element's whole description, and answers it as sent", async () => {
    const created = await call(t.app, 'POST', commentsUrl(), {
      token: client.token,
      body: { body: 'Make it stand out', pageUrl: 'https://app.example.test/pricing', anchor: described },
    });
    assert.equal(created.status, 201);
    assert.deepEqual(created.body.anchor, described);
    assert.equal(created.body.repinned, null);
    const read = await call(t.app, 'GET', `/api/comments/${created.body.id}`, { token: member.token });
    assert.deepEqual(read.body.anchor, described);
  });

  test('a description out of bounds is a 400 naming the part; parts it does not know are dropped', async () => {
    const refused: [Record<string, unknown>, string][] = [
      [{ name: 'n'.repeat(201) }, '/anchor/name'],
      [{ text: { exact: 'ok', prefix: 'p'.repeat(65) } }, '/anchor/text/prefix'],
      [{ selectors: ['a', 'b', 'c', 'd', 'e'] }, '/anchor/selectors'],
      [{ classes: Array.from({ length: 13 }, (_, i) => `c${i}`) }, '/anchor/classes'],
      [
        { position: { left: 0, top: 0, width: -1, height: 1, viewportWidth: 1, viewportHeight: 1 } },
        '/anchor/position',
      ],
      [{ frames: [{ kind: 'window', selector: 'x' }] }, '/anchor/frames/0/kind'],
      [{ twins: 1.5 }, '/anchor/twins'],
      [{ twinsBefore: -1 }, '/anchor/twinsBefore'],
      [{ twinsByQuote: 'around' }, '/anchor/twinsByQuote'],
      [{ twinsByItem: { up: 9, text: 'Team' } }, '/anchor/twinsByItem/up'],
      [{ twinsByItem: { up: 2, text: 'Team', holds: 1, before: 0 } }, '/anchor/twinsByItem/holds'],
      [{ twinsByShape: { up: 13, shape: '1ism8f6' } }, '/anchor/twinsByShape/up'],
      [{ twinsByShape: { up: 2, shape: 'Not a hash' } }, '/anchor/twinsByShape/shape'],
      [{ alikes: 1001 }, '/anchor/alikes'],
      [{ alikesBefore: 0.5 }, '/anchor/alikesBefore'],
      [{ kin: 0 }, '/anchor/kin'],
      [{ content: `i.icon${'.x'.repeat(100)}` }, '/anchor/content'],
      [{ attributes: { href: `https://a.test/${'x'.repeat(300)}` } }, '/anchor/attributes/href'],
    ];
    for (const [part, path] of refused) {
      const answer = await call(t.app, 'POST', commentsUrl(), {
        token: admin.token,
        body: { body: 'x', pageUrl: 'https://a.test/', anchor: { selector: '#a', x: 0, y: 0, ...part } },
      });
      assert.equal(answer.status, 400, path);
      assert.ok(
        answer.body.errors.some((e: { path: string }) => e.path.startsWith(path)),
        `${path} in ${JSON.stringify(answer.body.errors)}`,
      );
    }
    const extra = await call(t.app, 'POST', commentsUrl(), {
      token: admin.token,
      body: { body: 'x', pageUrl: 'https://a.test/', anchor: { selector: '#a', x: 1, y: 2, colour: 'red' } },
    });
    assert.equal(extra.status, 201);
    assert.deepEqual(extra.body.anchor, { selector: '#a', x: 1, y: 2 });
  });

  test('re-pinning replaces the anchor and says who moved it; status, replies and notifications stay as they were', async () => {
    const comment = await createComment(t.app, member, project.key);
    await call(t.app, 'POST', `/api/comments/${comment.id}/apply`, {
      token: admin.token,
      body: { commitSha: 'abc1234' },
    });
    const unreadBefore = await call(t.app, 'GET', '/api/me/notifications/unread-count', { token: member.token });
    const moved = await call(t.app, 'PUT', `/api/comments/${comment.id}/anchor`, {
      token: admin.token,
      body: { anchor: described },
    });
    assert.equal(moved.status, 200);
    assert.deepEqual(moved.body.anchor, described);
    assert.equal(moved.body.status, 'applied');
    assert.equal(moved.body.commitSha, 'abc1234');
    assert.equal(moved.body.repinned.by.id, admin.id);
    assert.ok(Date.parse(moved.body.repinned.at) > 0);
    const unreadAfter = await call(t.app, 'GET', '/api/me/notifications/unread-count', { token: member.token });
    assert.equal(unreadAfter.body.count, unreadBefore.body.count, 'nobody is notified of a move');
    // Back to a selector alone: the description goes too.
    const plain = await call(t.app, 'PUT', `/api/comments/${comment.id}/anchor`, {
      token: member.token,
      body: { anchor: { selector: 'main > h2', x: 1, y: 1 } },
    });
    assert.deepEqual(plain.body.anchor, { selector: 'main > h2', x: 1, y: 1 });
    assert.equal(plain.body.repinned.by.id, member.id);
  });

  test('re-pinning: the author, a member or an admin; a quick-access account its own comments only; nothing else written', async () => {
    const clients = await createComment(t.app, client, project.key);
    const members = await createComment(t.app, member, project.key);
    const own = await call(t.app, 'PUT', `/api/comments/${clients.id}/anchor`, {
      token: client.token,
      body: { anchor: { selector: '#own', x: 0, y: 0 } },
    });
    assert.equal(own.status, 200);
    const notOwn = await call(t.app, 'PUT', `/api/comments/${members.id}/anchor`, {
      token: client.token,
      body: { anchor: { selector: '#theirs', x: 0, y: 0 } },
    });
    assert.equal(notOwn.status, 403);
    assert.equal(notOwn.body.code, 'forbidden');
    const another = await call(t.app, 'PUT', `/api/comments/${clients.id}/anchor`, {
      token: otherClient.token,
      body: { anchor: { selector: '#other', x: 0, y: 0 } },
    });
    assert.equal(another.status, 403);
    const bad = await call(t.app, 'PUT', `/api/comments/${members.id}/anchor`, {
      token: admin.token,
      body: { anchor: { selector: '', x: 0, y: 0 } },
    });
    assert.equal(bad.status, 400);
    const unchanged = await call(t.app, 'GET', `/api/comments/${members.id}`, { token: admin.token });
    assert.equal(unchanged.body.anchor.selector, 'main > h1');
    assert.equal(unchanged.body.repinned, null);
  });

  test('a trailing slash makes no other page: comments of /app and /app/ are listed together, old ones too', async () => {
    const fresh = await createProject(t.app, admin);
    const post = (pageUrl: string) =>
      call(t.app, 'POST', `/api/projects/${fresh.key}/comments`, {
        token: admin.token,
        body: { body: pageUrl, pageUrl },
      });
    const slashed = await post('https://app.example.test/app/');
    assert.equal(slashed.body.pageUrl, 'https://app.example.test/app', 'stored without the trailing slash');
    // A comment written before the rule, with its slash as it came.
    await t.app.database.db
      .updateTable('comments')
      .set({ page_url: 'https://app.example.test/app/' })
      .where('id', '=', slashed.body.id)
      .execute();
    await post('https://app.example.test/app');
    await post('https://app.example.test/');
    for (const pageUrl of ['https://app.example.test/app', 'https://app.example.test/app/']) {
      const listed = await call(
        t.app,
        'GET',
        `/api/comments?project=${fresh.key}&pageUrl=${encodeURIComponent(pageUrl)}`,
        {
          token: admin.token,
        },
      );
      assert.equal(listed.body.items.length, 2, pageUrl);
    }
    const root = await call(
      t.app,
      'GET',
      `/api/projects/${fresh.key}/comments?pageUrl=${encodeURIComponent('https://app.example.test/')}`,
      {
        token: admin.token,
      },
    );
    assert.equal(root.body.items.length, 1, 'the root is its own page');
  });

  test("a page is its origin, path, route fragment and the project's identifying parameters; the rest of the query is not", async () => {
    const app = await createProject(t.app, admin);
    const post = (pageUrl: string) =>
      call(t.app, 'POST', `/api/projects/${app.key}/comments`, { token: admin.token, body: { body: 'x', pageUrl } });
    assert.equal(
      (await post('https://a.test/todos?utm_source=mail#/active/')).body.pageUrl,
      'https://a.test/todos#/active',
    );
    assert.equal(
      (await post('https://a.test/doc#pricing')).body.pageUrl,
      'https://a.test/doc',
      'an in-page link is no route',
    );
    assert.equal((await post('https://a.test/#!/settings')).body.pageUrl, 'https://a.test/#!/settings');
    // A hash router's root is the page itself: /vue, shown as /vue#/ once the router runs.
    const root = await post('https://a.test/vue#/');
    assert.equal(root.body.pageUrl, 'https://a.test/vue');
    // One stored before the rule, as its root was trimmed then ("#/" → "#"), is listed with it.
    const older = await post('https://a.test/vue');
    await t.app.database.db
      .updateTable('comments')
      .set({ page_url: 'https://a.test/vue#' })
      .where('id', '=', older.body.id)
      .execute();
    for (const pageUrl of ['https://a.test/vue', 'https://a.test/vue#/', 'https://a.test/vue/#!/']) {
      const listed = await call(
        t.app,
        'GET',
        `/api/comments?project=${app.key}&pageUrl=${encodeURIComponent(pageUrl)}`,
        {
          token: admin.token,
        },
      );
      assert.deepEqual(
        listed.body.items.map((c: { id: string }) => c.id).sort(),
        [root.body.id, older.body.id].sort(),
        pageUrl,
      );
    }
    assert.equal((await post('https://a.test/admin?tab=users&x=1')).body.pageUrl, 'https://a.test/admin');
    const set = await call(t.app, 'PATCH', `/api/projects/${app.key}`, {
      token: admin.token,
      body: { pageParams: ['tab', 'id', 'tab'] },
    });
    assert.equal(set.status, 200);
    assert.deepEqual(set.body.pageParams, ['id', 'tab']);
    assert.equal(
      (await post('https://a.test/admin?x=1&tab=users&id=7')).body.pageUrl,
      'https://a.test/admin?id=7&tab=users',
    );
    const listed = await call(
      t.app,
      'GET',
      `/api/comments?project=${app.key}&pageUrl=${encodeURIComponent('https://a.test/admin/?tab=users&id=7&utm=1')}`,
      { token: admin.token },
    );
    assert.equal(listed.body.items.length, 1);
    const refused = await call(t.app, 'PATCH', `/api/projects/${app.key}`, {
      token: admin.token,
      body: { pageParams: ['a b'] },
    });
    assert.equal(refused.status, 400);
    assert.ok(refused.body.errors.some((e: { path: string }) => e.path.startsWith('/pageParams')));
  });
});
