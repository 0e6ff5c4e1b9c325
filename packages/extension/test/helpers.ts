// The extension's tests: the real API server, a site of a project that carries no script of
// ours (another port), and the extension built for that server (as its download page serves
// it), loaded into a browser.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import {
  addMember,
  call,
  createProject,
  createTestApp,
  type Member,
  signUp,
  type TestApp,
} from '../../server/test/helpers.js';
import { unzip } from '../../server/test/zip.js';

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');

export const MEMBER_PASSWORD = 'another good password';

export interface Stack {
  api: TestApp;
  apiBase: string;
  /** The project's site (`http://localhost:<port>`), with no script of ours. */
  siteOrigin: string;
  /** The same pages on an origin no project lists (`http://127.0.0.1:<port>`). */
  elsewhereOrigin: string;
  admin: Member;
  reviewer: Member & { name: string };
  projectKey: string;
  /** Every request the API server answered, in the order it answered them. */
  requests: ServerRequestSeen[];
  close: () => Promise<void>;
}

export interface ServerRequestSeen {
  method: string;
  url: string;
  status: number;
  contentType: string | undefined;
  bytes: number;
}

/**
 * A product page. `?csp=strict`: a Content-Security-Policy allowing only the site's own
 * scripts and styles; `?csp=trusted-types`: Trusted Types enforced besides. Either way the page
 * counts the violations reported (in `<html data-violations>`). `?widget=1`: the page carries
 * the widget's script too, as a developer embeds it.
 */
function sitePage(widget: { apiBase: string; projectKey: string } | null): string {
  return `<!doctype html>
<html lang="en" data-violations="0">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Pricing</title>
<link rel="stylesheet" href="/site.css"><script src="/watch.js"></script></head>
<body>
<h1 id="headline">Simple pricing</h1>
<form class="login"><label>Password <input id="secret" type="password" value="hunter2hunter2"></label></form>
<div id="masked" data-svc-mask>Card 4242 4242</div>
<section class="plans">
  <div class="plan"><h2>Starter</h2><p class="price">$0</p></div>
  <div class="plan"><h2>Team</h2><p class="price">$49</p><button type="button">Choose Team</button></div>
</section>${
    widget
      ? `\n<script src="${widget.apiBase}/widget.js" data-api-base="${widget.apiBase}" data-project-key="${widget.projectKey}" async></script>`
      : ''
  }
</body></html>`;
}

const SITE_CSS = `body { margin: 0; padding: 24px; font: 20px serif; }
.plan { border: 1px solid #ccc; padding: 16px; margin: 12px 0; width: 300px; }
#secret, #masked { display: block; width: 260px; height: 40px; font-size: 24px; color: #000; background: #fc0; border: 0; }`;

const WATCH_JS = `document.addEventListener('securitypolicyviolation', (event) => {
  const html = document.documentElement;
  html.dataset.violations = String(Number(html.dataset.violations) + 1);
  html.dataset.violated = (html.dataset.violated || '') + ' ' + event.violatedDirective + ':' + event.blockedURI;
});`;

const POLICIES: Record<string, string> = {
  strict: "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'",
  'trusted-types':
    "default-src 'self'; script-src 'self'; style-src 'self'; connect-src 'self'; require-trusted-types-for 'script'; trusted-types 'none'",
};

export async function startStack(): Promise<Stack> {
  const api = await createTestApp({ limits: { repliesPerMinute: 100_000, commentsPerMinute: 100_000 } });
  const requests: ServerRequestSeen[] = [];
  // On the HTTP server itself: some answers (the polled unread count) are made before Fastify's hooks.
  api.app.server.prependListener('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    response.on('finish', () =>
      requests.push({
        method: request.method ?? '',
        url: request.url ?? '',
        status: response.statusCode,
        contentType: request.headers['content-type'],
        bytes: Number(request.headers['content-length'] ?? 0),
      }),
    );
  });
  const apiBase = (await api.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  const site = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname === '/site.css') return response.writeHead(200, { 'content-type': 'text/css' }).end(SITE_CSS);
    if (url.pathname === '/watch.js') {
      return response.writeHead(200, { 'content-type': 'text/javascript' }).end(WATCH_JS);
    }
    if (url.pathname === '/favicon.ico') return response.writeHead(404).end();
    const policy = POLICIES[url.searchParams.get('csp') ?? ''];
    response.writeHead(200, {
      'content-type': 'text/html; charset=utf-8',
      ...(policy ? { 'content-security-policy': policy } : {}),
    });
    response.end(sitePage(url.searchParams.has('widget') ? { apiBase, projectKey: project.key } : null));
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const port = (site.address() as AddressInfo).port;
  const siteOrigin = `http://localhost:${port}`;
  const admin = await signUp(api.app);
  const reviewer = { ...(await addMember(api.app, admin, 'member', 'Rita Reviewer')), name: 'Rita Reviewer' };
  const project = await createProject(api.app, admin, { allowedOrigins: [siteOrigin] });
  return {
    api,
    apiBase,
    siteOrigin,
    elsewhereOrigin: `http://127.0.0.1:${port}`,
    admin,
    reviewer,
    projectKey: project.key,
    requests,
    close: async () => {
      await new Promise((resolve) => site.close(resolve));
      await api.close();
    },
  };
}

/** The extension for `browser` as a person downloads it from `apiBase`'s page, unzipped into a folder of its own. */
export async function extensionFor(browser: 'chromium' | 'firefox', apiBase: string): Promise<string> {
  if (!fs.existsSync(path.join(dist, browser, 'manifest.json'))) {
    throw new Error(`No extension build in ${dist}: run npm run build -w @svc/extension first.`);
  }
  const response = await fetch(`${apiBase}/extension/feedback-extension-${browser}.zip`);
  if (!response.ok) throw new Error(`The server's download answered ${response.status}`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `svc-extension-${browser}-`));
  for (const [name, data] of await unzip(Buffer.from(await response.arrayBuffer()))) {
    fs.writeFileSync(path.join(dir, name), data);
  }
  return dir;
}

/** The comment's stored screenshot, as bytes. */
export async function storedScreenshot(stack: Stack, id: string): Promise<Buffer> {
  const stored = await stack.api.app.inject({
    method: 'GET',
    url: `/api/comments/${id}/screenshot`,
    headers: { authorization: `Bearer ${stack.reviewer.token}` },
  });
  return stored.rawPayload;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * How `image` looks inside `box` (CSS pixels of a window at scale 1, its edges left out),
 * decoded by the browser of `page`: its mean colour, and the widest spread of a channel.
 */
export function regionIn(
  page: { evaluate: Page['evaluate'] },
  image: Buffer,
  box: Box,
): Promise<{ mean: number[]; spread: number }> {
  return page.evaluate(
    async ([bytes, area]) => {
      const bitmap = await createImageBitmap(new Blob([new Uint8Array(bytes)]));
      const canvas = document.createElement('canvas');
      canvas.width = bitmap.width;
      canvas.height = bitmap.height;
      const drawing = canvas.getContext('2d') as CanvasRenderingContext2D;
      drawing.drawImage(bitmap, 0, 0);
      const [x, y] = [Math.ceil(area.x) + 3, Math.ceil(area.y) + 3];
      const data = drawing.getImageData(x, y, Math.floor(area.width) - 6, Math.floor(area.height) - 6).data;
      const mean: number[] = [];
      let spread = 0;
      for (let c = 0; c < 3; c++) {
        let [low, high, sum] = [255, 0, 0];
        for (let i = c; i < data.length; i += 4) {
          const value = data[i] ?? 0;
          low = Math.min(low, value);
          high = Math.max(high, value);
          sum += value;
        }
        mean.push(Math.round(sum / (data.length / 4)));
        spread = Math.max(spread, high - low);
      }
      return { mean, spread };
    },
    [[...image], box] as const,
  );
}

/**
 * The masked parts of `image` blank (`boxes`: the password field's and the `data-svc-mask`
 * element's, in CSS pixels): each one colour, nothing written in it, the masked element in the
 * mask's colour (#d1d5db, within what the picture's compression moves).
 */
export async function assertMaskedBlank(
  page: { evaluate: Page['evaluate'] },
  image: Buffer,
  boxes: { password: Box; masked: Box },
): Promise<void> {
  for (const [name, box] of Object.entries(boxes)) {
    const { mean, spread } = await regionIn(page, image, box);
    assert.ok(spread <= 12, `${name} uniform (spread ${spread})`);
    if (name !== 'masked') continue;
    for (const [c, value] of mean.entries()) {
      assert.ok(Math.abs(value - ([209, 213, 219][c] ?? 0)) <= 6, `${name} in the mask's colour: ${mean}`);
    }
  }
}

/** `read`'s first answer that is truthy, read again every 100 ms for up to 30 s. */
export async function until<T>(read: () => Promise<T | undefined | null | false>, what = 'a condition'): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const value = await read();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`waited 30 s for ${what}`);
}

/** Comment `id` as the API gives it to its author (`stack.reviewer`). */
export const readComment = async (stack: Stack, id: string) =>
  (await call(stack.api.app, 'GET', `/api/comments/${id}`, { token: stack.reviewer.token })).body;

/** The commit the tests' fixes are applied in. */
export const FIX_COMMIT = 'a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0';

/**
 * The team answers comment `id` while its author is away: the admin replies, then applies a fix
 * in a commit (as the CLI does). Each one notifies the author: two unread updates.
 */
export async function answeredAndFixed(stack: Stack, id: string): Promise<void> {
  const token = stack.admin.token;
  const reply = await call(stack.api.app, 'POST', `/api/comments/${id}/replies`, {
    token,
    body: { body: 'Which price?' },
  });
  assert.equal(reply.status, 201);
  const applied = await call(stack.api.app, 'POST', `/api/comments/${id}/apply`, {
    token,
    body: { commitSha: FIX_COMMIT, commitUrl: 'https://github.com/acme/site/commit/a1b2c3d' },
  });
  assert.equal(applied.status, 200, JSON.stringify(applied.body));
}

/** The reviewer's reply `body` to comment `id`, once stored: its one reply, under their name. */
export async function assertReplied(stack: Stack, id: string, body: string): Promise<void> {
  const thread = await until(async () => {
    const comment = await readComment(stack, id);
    return comment.replies.length ? comment : null;
  }, 'the reply');
  assert.deepEqual(
    thread.replies.map((reply: { body: string; author: { name: string } }) => [reply.body, reply.author.name]),
    [[body, stack.reviewer.name]],
  );
}

/**
 * The picture of now the author's widget stored for comment `id`'s fix, once it is there: taken
 * for the fix's commit, a picture `page`'s browser decodes.
 */
export async function assertPictureOfNowStored(
  stack: Stack,
  id: string,
  page: { evaluate: Page['evaluate'] },
): Promise<void> {
  const image = await until(
    async () =>
      ((await readComment(stack, id)).images as { kind: string; url: string; commitSha: string | null }[]).find(
        (kept) => kept.kind === 'now',
      ),
    'the picture of now',
  );
  assert.equal(image.commitSha, FIX_COMMIT, 'taken for the fix in its commit');
  const stored = await stack.api.app.inject({
    method: 'GET',
    url: image.url,
    headers: { authorization: `Bearer ${stack.reviewer.token}` },
  });
  assert.equal(stored.statusCode, 200);
  assert.ok(
    (await pictureSize(page, stored.rawPayload)).every((side) => side > 0),
    'a picture',
  );
}

/** The verdict "Verified" on comment `id`, once stored (with its reply). */
export async function assertVerified(stack: Stack, id: string): Promise<void> {
  const verified = await until(async () => {
    const comment = await readComment(stack, id);
    return comment.verifiedAt ? comment : null;
  }, 'the verdict');
  assert.equal(verified.replies.at(-1).body, 'Verified ✓');
}

/** The requests the API server answered while `action` ran (and `settle` ms after it). */
export async function serverRequestsDuring(stack: Stack, action: () => Promise<unknown>, settle = 3000) {
  const from = stack.requests.length;
  await action();
  await new Promise((resolve) => setTimeout(resolve, settle));
  return stack.requests.slice(from).map(({ method, url }) => `${method} ${url}`);
}

/** The width and height of `image`, decoded by the browser of `page`. */
function pictureSize(page: { evaluate: Page['evaluate'] }, image: Buffer): Promise<[number, number]> {
  return page.evaluate(
    async (bytes) => {
      const bitmap = await createImageBitmap(new Blob([new Uint8Array(bytes)]));
      return [bitmap.width, bitmap.height] as [number, number];
    },
    [...image],
  );
}

export { call };
