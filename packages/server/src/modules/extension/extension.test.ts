// The extension's page and downloads: each browser's build, zipped with this server's address
// written in (the code the build's, byte for byte), and a page that says how to build it when
// the server has none.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { LOCALES, messageArguments, translator } from '@svc/contract/i18n';
import { createTestApp, type TestApp } from '../../../test/helpers.js';
import { unzip } from '../../../test/zip.js';
import { BROWSERS, readExtensionBuilds, zipName } from './builds.js';
import { extensionPage } from './page.js';
import { english, translations } from './page-words.js';

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
    assert.match(page.body, /<html lang="en" dir="ltr">/);
  });

  test('the page speaks the language asked: the browser’s first of ours, else the address’s ?locale= (the console’s), right to left in Arabic', async () => {
    const asked = (url: string, acceptLanguage: string) =>
      api.app.inject({ method: 'GET', url, headers: { 'accept-language': acceptLanguage } });
    const german = await asked('/extension', 'sv;q=1, de-AT;q=0.9, en;q=0.8');
    assert.equal(german.statusCode, 200);
    assert.match(String(german.headers.vary), /accept-language/i);
    assert.match(german.body, /<html lang="de" dir="ltr">/);
    assert.match(german.body, /<h1>Jede Website prüfen: die Browsererweiterung<\/h1>/);
    assert.match(german.body, /Entpackte Erweiterung laden/);
    assert.ok(german.body.includes(`<code id="server">${server}</code>`), 'the server named');
    for (const browser of BROWSERS) assert.ok(german.body.includes(`href="/extension/${zipName(browser)}"`));
    const japanese = await asked('/extension?locale=ja', 'de');
    assert.match(japanese.body, /<html lang="ja" dir="ltr">/);
    assert.match(japanese.body, /ブラウザー拡張機能/);
    const arabic = await asked('/extension', 'ar-EG');
    assert.match(arabic.body, /<html lang="ar" dir="rtl">/);
    assert.match(arabic.body, /إضافة المتصفح/);
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
  const page = extensionPage({
    server: 'https://feedback.example.com',
    version: null,
    words: translator('en', english),
  });
  assert.match(page, /Not built on this server/);
  assert.match(page, /npm run build/);
  assert.ok(!page.includes('.zip'));
});

test('the page’s words in every language: each message, with the placeholders and the markup of its English', () => {
  const tags = (message: string) => (message.match(/<\/?[a-z]+/g) ?? []).sort();
  for (const locale of LOCALES.filter((l) => l !== 'en')) {
    const messages = translations[locale as Exclude<typeof locale, 'en'>];
    for (const [id, message] of Object.entries(english)) {
      const translated = messages[id as keyof typeof english];
      assert.ok((translated && translated !== message) || id === 'firefoxTitle', `${locale} ${id} translated`);
      assert.deepEqual(messageArguments(translated).sort(), messageArguments(message).sort(), `${locale} ${id}`);
      assert.deepEqual(tags(translated), tags(message), `${locale} ${id}: its markup`);
    }
  }
});
