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

describe('finding comments across projects', () => {
  let t: TestApp;
  let admin: Member;
  let member: Member;
  let site: { id: string; key: string };
  let shop: { id: string; key: string };
  const ids: Record<string, string> = {};
  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app);
    member = await addMember(t.app, admin);
    site = await createProject(t.app, admin);
    shop = await createProject(t.app, admin);
    ids.header = (await createComment(t.app, admin, site.key, 'The header overlaps the menu')).id;
    ids.footer = (await createComment(t.app, member, site.key, 'Footer links are broken')).id;
    ids.cart = (await createComment(t.app, admin, shop.key, 'Cart total is wrong')).id;
    await call(t.app, 'POST', `/api/comments/${ids.cart}/replies`, {
      token: member.token,
      body: { body: 'Rounding error in the VAT, I think' },
    });
    await call(t.app, 'POST', `/api/comments/${ids.footer}/apply`, {
      token: member.token,
      body: { commitSha: 'abcdef1' },
    });
    await call(t.app, 'POST', `/api/projects/${site.key}/builds`, { token: member.token, body: { sha: 'abcdef1' } });
    await call(t.app, 'POST', `/api/comments/${ids.header}/archive`, { token: member.token });
    // Another workspace says the same words: never found from this one.
    const stranger = await signUp(t.app, 'Stranger');
    const theirs = await createProject(t.app, stranger);
    await createComment(t.app, stranger, theirs.key, 'The header overlaps the menu and the cart total is wrong');
  });
  after(() => t.close());

  const find = async (query: string, token = admin.token) => {
    const answer = await call(t.app, 'GET', `/api/comments${query}`, { token });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return (answer.body.items as { id: string }[]).map((c) => c.id);
  };

  test('without filters: every comment of the workspace, newest first; sort=oldest reverses; pages follow the cursor', async () => {
    assert.deepEqual(await find(''), [ids.cart, ids.footer, ids.header]);
    assert.deepEqual(await find('?sort=oldest'), [ids.header, ids.footer, ids.cart]);
    const first = await call(t.app, 'GET', '/api/comments?sort=oldest&limit=2', { token: admin.token });
    assert.equal(first.body.items.length, 2);
    assert.deepEqual(await find(`?sort=oldest&limit=2&cursor=${first.body.nextCursor}`), [ids.cart]);
  });

  test('filters: project, status (open, applied, live, verified, archived), author, page, updatedSince', async () => {
    assert.deepEqual(await find(`?project=${shop.key}`), [ids.cart]);
    assert.deepEqual(await find('?status=open'), [ids.cart]);
    assert.deepEqual(await find('?status=applied'), [ids.footer]);
    assert.deepEqual(await find('?status=live'), [ids.footer]);
    assert.deepEqual(await find('?status=verified'), []);
    assert.deepEqual(await find('?status=archived'), [ids.header]);
    assert.deepEqual(await find(`?author=${member.id}`), [ids.footer]);
    assert.deepEqual(
      await find(`?pageUrl=${encodeURIComponent('https://app.example.test/pricing')}&project=${site.key}`),
      [ids.footer, ids.header],
    );
    assert.deepEqual(await find(`?updatedSince=${new Date(Date.now() + 60_000).toISOString()}`), []);
    assert.equal((await find(`?updatedSince=${new Date(Date.now() - 60_000).toISOString()}`)).length, 3);
  });

  test('q: whole words of the comment or any reply, any case, all of them; never another workspace', async () => {
    assert.deepEqual(await find('?q=HEADER'), [ids.header]);
    assert.deepEqual(await find('?q=vat'), [ids.cart], 'found through its reply');
    assert.deepEqual(await find('?q=cart%20rounding'), [ids.cart], 'words from the body and a reply');
    assert.deepEqual(await find('?q=cart%20menu'), [], 'every word must appear');
    assert.deepEqual(await find('?q=%22menu%22%20*%20-%20(%5E'), [ids.header], 'query syntax is plain text');
    assert.deepEqual(await find(`?q=total&project=${site.key}`), []);
    const refused = await call(t.app, 'GET', '/api/comments?q=%20%2A%21', { token: admin.token });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.errors[0].path, '/q');
  });

  test('a deleted comment and its replies leave the index', async () => {
    const gone = await createComment(t.app, admin, shop.key, 'Zeppelin banner flickers');
    await call(t.app, 'POST', `/api/comments/${gone.id}/replies`, {
      token: member.token,
      body: { body: 'Quokka reply' },
    });
    assert.deepEqual(await find('?q=zeppelin'), [gone.id]);
    assert.deepEqual(await find('?q=quokka'), [gone.id]);
    assert.equal((await call(t.app, 'DELETE', `/api/comments/${gone.id}`, { token: admin.token })).status, 204);
    assert.deepEqual(await find('?q=zeppelin'), []);
    assert.deepEqual(await find('?q=quokka'), []);
  });

  test('a client limited to one project finds only there; an unknown or foreign project is 404', async () => {
    const limited = await addClient(t.app, admin, shop.key);
    assert.deepEqual(await find('', limited.token), [ids.cart]);
    assert.deepEqual(await find('?q=header', limited.token), []);
    assert.equal((await call(t.app, 'GET', `/api/comments?project=${site.key}`, { token: limited.token })).status, 404);
    assert.equal((await call(t.app, 'GET', '/api/comments?project=nope', { token: admin.token })).status, 404);
    assert.equal((await call(t.app, 'GET', '/api/comments?status=pending', { token: admin.token })).status, 400);
  });

  test('conditional GET: a weak ETag; the same list again with If-None-Match is a 304 without a body, a changed one a 200', async () => {
    const first = await t.app.inject({
      method: 'GET',
      url: '/api/comments',
      headers: { authorization: `Bearer ${admin.token}` },
    });
    const etag = String(first.headers.etag);
    assert.match(etag, /^W\/"/);
    assert.equal(first.headers['cache-control'], 'private, no-cache');
    const again = await t.app.inject({
      method: 'GET',
      url: '/api/comments',
      headers: { authorization: `Bearer ${admin.token}`, 'if-none-match': etag },
    });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
    await createComment(t.app, member, site.key, 'Something new');
    const changed = await t.app.inject({
      method: 'GET',
      url: '/api/comments',
      headers: { authorization: `Bearer ${admin.token}`, 'if-none-match': etag },
    });
    assert.equal(changed.statusCode, 200);
    assert.notEqual(changed.headers.etag, etag);
  });
});
