import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers.js';

describe('serving the widget', () => {
  let t: TestApp;
  before(async () => {
    t = await createTestApp();
  });
  after(async () => {
    await t.close();
  });

  test('GET /widget.js answers the built bundle with caching headers, and 304 when unchanged', async () => {
    const first = await t.app.inject({ method: 'GET', url: '/widget.js' });
    assert.equal(first.statusCode, 200);
    assert.match(String(first.headers['content-type']), /^application\/javascript/);
    assert.equal(first.headers['cache-control'], 'public, max-age=300');
    const etag = String(first.headers.etag);
    assert.match(etag, /^"[\w-]+"$/);
    assert.ok(first.body.includes('svcWidget'), 'the bundle itself');

    const again = await t.app.inject({ method: 'GET', url: '/widget.js', headers: { 'if-none-match': etag } });
    assert.equal(again.statusCode, 304);
    assert.equal(again.body, '');
  });

  test('GET /demo embeds the widget for the demo project', async () => {
    const demo = await t.app.inject({ method: 'GET', url: '/demo' });
    assert.equal(demo.statusCode, 200);
    assert.match(demo.body, /<script src="\/widget\.js" data-project-key="demo" async><\/script>/);
  });
});
