// The extension's page and downloads: each browser's build, zipped with this server's address
// written in (the code the build's, byte for byte), and a page that says how to build it when
// the server has none.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { unzip } from '../../../test/zip.js';
import { BROWSERS, readExtensionBuilds, zipName } from './builds.js';
import { extensionPage } from './page.js';

const builds = readExtensionBuilds();

describe('the extension’s page and downloads', { skip: !builds && 'the extension is not built' }, () => {
  let api: TestApp;
  const server = 'https://feedback.example.com';
  before(async () => {
    api = await createTestApp({ publicUrl: server });
  });
  after(() => api?.close());

  test('the page links each browser’s zip, gives its steps and names this server', async () => {
    const page = await api.app.inject({ method: 'GET', url: '/extension' });
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    // The pages' policy (its own styles), not the API's, which would leave it unstyled.
    assert.match(String(page.headers['content-security-policy']), /style-src 'self' 'unsafe-inline'/);
    for (const browser of BROWSERS) assert.ok(page.body.includes(`href="/extension/${zipName(browser)}"`));
    for (const step of ['chrome://extensions', 'Load unpacked', 'about:debugging', 'xpinstall.signatures.required']) {
      assert.ok(page.body.includes(step), step);
    }
    assert.ok(page.body.includes(`<code id="server">${server}</code>`));
  });

  for (const browser of BROWSERS) {
    test(`the ${browser} zip: the build’s files, with this server’s address and its one host permission`, async () => {
      const answer = await api.app.inject({ method: 'GET', url: `/extension/${zipName(browser)}` });
      assert.equal(answer.statusCode, 200);
      assert.equal(answer.headers['content-type'], 'application/zip');
      assert.match(String(answer.headers['content-disposition']), new RegExp(`filename="${zipName(browser)}"`));
      const files = await unzip(answer.rawPayload);
      const built = builds?.[browser] ?? new Map<string, Buffer>();
      assert.deepEqual([...files.keys()].sort(), [...built.keys(), 'server.json'].sort());
      for (const [name, data] of built) {
        if (name !== 'manifest.json') assert.ok(files.get(name)?.equals(data), `${name} is the build's`);
      }
      assert.deepEqual(JSON.parse(String(files.get('server.json'))), { server });
      const manifest = JSON.parse(String(files.get('manifest.json')));
      assert.deepEqual(manifest.host_permissions, ['https://feedback.example.com/*']);
      const { host_permissions: _, ...rest } = JSON.parse(String(built.get('manifest.json')));
      const { host_permissions: __, ...served } = manifest;
      assert.deepEqual(served, rest, 'the rest of the manifest is the build’s');
      // The same bytes each time: a download can be compared with another.
      const again = await api.app.inject({ method: 'GET', url: `/extension/${zipName(browser)}` });
      assert.ok(again.rawPayload.equals(answer.rawPayload));
    });
  }

  test('without SVC_PUBLIC_URL, the address the server was reached at', async () => {
    const local = await createTestApp();
    try {
      const answer = await local.app.inject({
        method: 'GET',
        url: '/extension/feedback-extension-firefox.zip',
        headers: { host: 'review.internal:8443' },
      });
      const files = await unzip(answer.rawPayload);
      assert.deepEqual(JSON.parse(String(files.get('server.json'))), { server: 'http://review.internal:8443' });
      assert.deepEqual(JSON.parse(String(files.get('manifest.json'))).host_permissions, ['http://review.internal/*']);
      // What a Host header says is text on the page, never markup.
      const page = await local.app.inject({ method: 'GET', url: '/extension', headers: { host: 'a"b<i>' } });
      assert.ok(!page.body.includes('<i>'));
    } finally {
      await local.close();
    }
  });
});

test('a server without the extension’s build: none found, and a page saying how to build it', () => {
  const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-no-extension-'));
  try {
    assert.equal(readExtensionBuilds(empty), null);
  } finally {
    fs.rmSync(empty, { recursive: true });
  }
  const page = extensionPage({ server: 'https://feedback.example.com', version: null });
  assert.match(page, /Not built on this server/);
  assert.match(page, /npm run build/);
  assert.ok(!page.includes('.zip'));
});
