// Marking up the screenshot (bench/README.md, "markup"): the markup chunk's size, and the time
// from "Send" until the server holds the comment's screenshot on a heavy page (a 1,000-row,
// 10-column table: 11,000 elements), sent with a screenshot marked up (a box and a hidden
// region) and, as the baseline in the same run, sent with a screenshot taken then (no
// markup). Rounds alternate; medians are printed, and their ratio.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { openApp } from '../lib/harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const chunk = path.join(root, 'packages/widget/dist/widget-markup.js');
if (!fs.existsSync(chunk)) {
  console.error('Build first: npm run build (the widget markup chunk is missing).');
  process.exit(1);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-markup-'));
const api = await openApp({ dialect: 'sqlite', file: path.join(dataDir, 'svc.db') }, { signup: 'open' });
await api.listen({ port: 0, host: '127.0.0.1' });
const apiBase = `http://127.0.0.1:${api.server.address().port}`;
const inject = async (method, url, token, payload) => {
  const answer = await api.inject({ method, url, payload, headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (answer.statusCode >= 300) throw new Error(`${method} ${url}: ${answer.statusCode} ${answer.body}`);
  return answer.json();
};

const table = Array.from(
  { length: 1000 },
  (_, r) => `<tr>${Array.from({ length: 10 }, (_, c) => `<td>Row ${r + 1}, cell ${c + 1}</td>`).join('')}</tr>`,
).join('');
const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Orders</title>
<style>body{margin:0;padding:24px;font:16px/1.4 sans-serif}td{padding:4px 8px;white-space:nowrap}tr:nth-child(odd){background:#eef2ff}</style>
</head><body><main><h1>Orders</h1><table><tbody>${table}</tbody></table></main>
<script src="${apiBase}/widget.js" data-api-base="${apiBase}" data-project-key="app" async></script></body></html>`;
const site = http.createServer((_request, response) =>
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page),
);
await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${site.address().port}`;

const admin = await inject('POST', '/api/signup', null, {
  workspaceName: 'Bench',
  name: 'Ada Admin',
  email: 'ada@bench.test',
  password: 'a long passphrase',
});
await inject('POST', '/api/projects', admin.token, { key: 'app', name: 'App', allowedOrigins: [origin] });

const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});
const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
await context.addInitScript(
  `localStorage.setItem(${JSON.stringify(`svc:token:${apiBase}`)}, ${JSON.stringify(admin.token)});`,
);
const tab = await context.newPage();
await tab.goto(origin, { waitUntil: 'load' });
const widget = tab.locator('[data-svc-widget]');
await widget.locator('.launcher').click();
await widget.locator('[role=tab]', { hasText: 'Comments' }).click();

/**
 * One comment sent, marked up or not: ms from the click on Send until its screenshot is stored,
 * and (marked up) from the click on "Mark up the screenshot" until its dialog shows the picture.
 */
async function send(markUp, round) {
  let opened = 0;
  await widget.locator('button', { hasText: 'New' }).click();
  await widget.locator('.hint button', { hasText: 'Whole page' }).click();
  const body = `Round ${round}, ${markUp ? 'marked up' : 'as it is'}`;
  await widget.locator('#svc-new-body').fill(body);
  if (markUp) {
    const asked = Date.now();
    await widget.locator('#svc-markup').click();
    const dialog = widget.getByRole('dialog', { name: 'Mark up the screenshot' });
    const canvas = dialog.locator('canvas');
    await canvas.waitFor();
    opened = Date.now() - asked;
    const box = await canvas.boundingBox();
    const drag = async (a, b) => {
      await tab.mouse.move(box.x + box.width * a[0], box.y + box.height * a[1]);
      await tab.mouse.down();
      await tab.mouse.move(box.x + box.width * b[0], box.y + box.height * b[1], { steps: 4 });
      await tab.mouse.up();
    };
    await drag([0.1, 0.1], [0.4, 0.3]);
    await dialog.getByRole('button', { name: 'Hide' }).click();
    await drag([0.5, 0.5], [0.8, 0.6]);
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
  }
  const started = Date.now();
  await widget.locator('button[type=submit]', { hasText: 'Send' }).click();
  for (;;) {
    const found = await inject(
      'GET',
      `/api/comments?project=app&q=${encodeURIComponent(`Round ${round}`)}&limit=5`,
      admin.token,
    );
    const comment = found.items.find((item) => item.body === body);
    if (comment?.screenshot) return { sent: Date.now() - started, opened };
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// One of each first, unreported: the chunks load, the page settles.
await send(false, 0);
await send(true, 0);
const times = { plain: [], marked: [], opened: [] };
for (let round = 1; round <= ROUNDS; round++) {
  times.plain.push((await send(false, round)).sent);
  const marked = await send(true, round);
  times.marked.push(marked.sent);
  times.opened.push(marked.opened);
}
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const raw = fs.readFileSync(chunk);
const result = {
  chunk: { bytes: raw.length, gzipped: gzipSync(raw, { level: 9 }).length },
  sendToStoredMs: { withoutMarkup: median(times.plain), marked: median(times.marked) },
  markupOpensMs: median(times.opened),
  rounds: ROUNDS,
};
console.log(
  `markup chunk: ${(raw.length / 1024).toFixed(1)} KB minified, ${(result.chunk.gzipped / 1024).toFixed(1)} KB gzipped`,
);
console.log(
  `Send → stored, median of ${ROUNDS}: without markup ${result.sendToStoredMs.withoutMarkup} ms (baseline), marked up ${result.sendToStoredMs.marked} ms`,
);
console.log(
  `ratio marked / baseline: ${(result.sendToStoredMs.marked / result.sendToStoredMs.withoutMarkup).toFixed(2)}; the marked-up picture was taken when markup started, ${result.markupOpensMs} ms from the click to the dialog`,
);
console.log(JSON.stringify(result));
await browser.close();
site.close();
await api.close();
fs.rmSync(dataDir, { recursive: true, force: true });
