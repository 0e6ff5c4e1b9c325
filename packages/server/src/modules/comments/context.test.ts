import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  addClient,
  addMember,
  call,
  createProject,
  createTestApp,
  type Member,
  signUp,
  type TestApp,
} from '../../../test/helpers.js';
import { cleanPng, cleanWebp } from '../../../test/images.js';

const PNG = cleanPng;
const WEBP = cleanWebp;
const CHROME_ON_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

const context = {
  viewport: { width: 1280, height: 720 },
  screen: { width: 1920, height: 1080 },
  devicePixelRatio: 2,
  language: 'en-GB',
  timeZone: 'Europe/London',
  colorScheme: 'dark',
  title: 'Pricing',
  url: 'https://app.example.test/pricing?plan=team',
  buildSha: 'abcdef1',
  errors: [
    {
      kind: 'network',
      message: 'GET /api/prices failed',
      at: '2026-11-22T10:00:00.000Z',
      method: 'GET',
      url: 'https://app.example.test/api/prices',
      status: 500,
      durationMs: 120,
    },
    { kind: 'console', message: 'TypeError: x is undefined', at: '2026-11-22T10:00:01.000Z' },
  ],
};

describe('context and screenshots of comments', () => {
  let t: TestApp;
  let admin: Member;
  let author: Member;
  let project: { key: string };
  before(async () => {
    t = await createTestApp();
    admin = await signUp(t.app);
    author = await addMember(t.app, admin, 'member', 'Sam Shooter');
    project = await createProject(t.app, admin);
  });
  after(() => t.close());

  async function commentWithContext(who = author) {
    const answer = await t.app.inject({
      method: 'POST',
      url: `/api/projects/${project.key}/comments`,
      headers: { authorization: `Bearer ${who.token}`, 'user-agent': CHROME_ON_MAC },
      payload: { body: 'Prices fail to load', pageUrl: 'https://app.example.test/pricing', context },
    });
    assert.equal(answer.statusCode, 201, answer.body);
    return answer.json();
  }
  const upload = (id: string, bytes: Buffer, token = author.token, type = 'image/png') =>
    t.app.inject({
      method: 'PUT',
      url: `/api/comments/${id}/screenshot`,
      headers: { authorization: `Bearer ${token}`, 'content-type': type },
      payload: bytes,
    });

  test('the context is stored with the browser and OS parsed from the request, and returned with the comment', async () => {
    const comment = await commentWithContext();
    assert.deepEqual(comment.context.browser, { name: 'Chrome', version: '131.0.0.0' });
    assert.equal(comment.context.os.name, 'Mac OS');
    assert.equal(comment.context.errors.length, 2);
    assert.equal(comment.context.url, context.url);
    assert.equal(comment.screenshot, null);
    const tooMany = await call(t.app, 'POST', `/api/projects/${project.key}/comments`, {
      token: author.token,
      body: {
        body: 'x',
        pageUrl: 'https://a.test/',
        context: { ...context, errors: Array(21).fill(context.errors[1]) },
      },
    });
    assert.equal(tooMany.status, 400);
  });

  test('a screenshot: its author uploads it (type read from the bytes), it is served privately to readers, replaced, and refused otherwise with nothing written', async () => {
    const comment = await commentWithContext();
    const stored = await upload(comment.id, PNG);
    assert.equal(stored.statusCode, 200, stored.body);
    assert.equal(stored.json().screenshot.contentType, 'image/png');
    assert.equal(stored.json().screenshot.url, `/api/comments/${comment.id}/screenshot`);
    const image = await t.app.inject({
      method: 'GET',
      url: `/api/comments/${comment.id}/screenshot`,
      headers: { authorization: `Bearer ${admin.token}` },
    });
    assert.equal(image.statusCode, 200);
    assert.equal(image.headers['content-type'], 'image/png');
    assert.match(String(image.headers['cache-control']), /^private/);
    assert.deepEqual(image.rawPayload, PNG);

    // Labelled as PNG, but WebP bytes: stored as what they are.
    assert.equal((await upload(comment.id, WEBP)).json().screenshot.contentType, 'image/webp');
    const rows = async () => (await t.app.database.db.selectFrom('attachments').select('id').execute()).length;
    const before = await rows();
    const refusals = [
      [
        await upload(comment.id, Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'), author.token, 'image/png'),
        415,
      ],
      [await upload(comment.id, Buffer.from('{"a":1}'), author.token, 'application/json'), 415],
      [await upload(comment.id, Buffer.concat([PNG, Buffer.alloc(600 * 1024)])), 413],
      [await upload(comment.id, PNG, admin.token), 403],
      [await upload('cmt_01JD0000000000000000000000', PNG), 404],
    ] as const;
    for (const [answer, status] of refusals) assert.equal(answer.statusCode, status, answer.body);
    assert.equal(await rows(), before, 'nothing written');
    const served = await t.app.inject({
      method: 'GET',
      url: `/api/comments/${comment.id}/screenshot`,
      headers: { authorization: `Bearer ${author.token}` },
    });
    assert.equal(served.headers['content-type'], 'image/webp');
  });

  test('tenancy: another workspace and a client limited to another project get 404; deleting the comment deletes its screenshot', async () => {
    const comment = await commentWithContext();
    await upload(comment.id, PNG);
    const stranger = await signUp(t.app, 'Stranger');
    const other = await createProject(t.app, admin);
    const limited = await addClient(t.app, admin, other.key);
    for (const who of [stranger, limited]) {
      const answer = await t.app.inject({
        method: 'GET',
        url: `/api/comments/${comment.id}/screenshot`,
        headers: { authorization: `Bearer ${who.token}` },
      });
      assert.equal(answer.statusCode, 404);
    }
    assert.equal(
      (await t.app.inject({ method: 'GET', url: `/api/comments/${comment.id}/screenshot` })).statusCode,
      401,
    );
    assert.equal((await call(t.app, 'DELETE', `/api/comments/${comment.id}`, { token: author.token })).status, 204);
    const left = await t.app.database.db
      .selectFrom('attachments')
      .select('id')
      .where('comment_id', '=', comment.id)
      .execute();
    assert.equal(left.length, 0);
  });
});
