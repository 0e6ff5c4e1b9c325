// Benchmark of a screenshot on a large page (bench/README.md, "screenshot"): a 1,000-row,
// 10-column table scrolled to its middle, captured by the widget's screenshot chunk and, as the
// baseline in the same run, by the whole-document capture it replaced. Printed for each: the
// time until the picture is encoded and the main thread's blocking time (long tasks over
// 50 ms, the excess summed), medians over the rounds, and the ratios.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ROWS = Number(process.env.BENCH_ROWS ?? 1000);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const chunk = path.join(root, 'packages/widget/dist/widget-screenshot.js');
if (!fs.existsSync(chunk)) {
  console.error('Build first: npm run build (the widget screenshot chunk is missing).');
  process.exit(1);
}
const baseline = (
  await build({
    entryPoints: [path.join(here, 'whole-document.mjs')],
    bundle: true,
    write: false,
    format: 'iife',
    target: ['es2022'],
    logLevel: 'warning',
  })
).outputFiles[0].text;

const page = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Orders</title><style>
body { margin: 0; padding: 24px; font: 16px/1.4 sans-serif; }
table { border-collapse: collapse; }
th { position: sticky; top: 0; background: #1e40af; color: #fff; padding: 6px 8px; }
td { padding: 6px 8px; white-space: nowrap; }
tr:nth-child(odd) { background: #eef2ff; }
</style></head><body><h1>Orders</h1><table><thead><tr>${Array.from({ length: 10 }, (_, c) => `<th>Column ${c + 1}</th>`).join('')}</tr></thead><tbody>${Array.from(
  { length: ROWS },
  (_, r) =>
    `<tr id="row-${r + 1}">${Array.from({ length: 10 }, (_, c) => `<td>Row ${r + 1}, cell ${c + 1}</td>`).join('')}</tr>`,
).join('')}</tbody></table></body></html>`;

const server = http.createServer((request, response) => {
  if (request.url === '/widget-screenshot.js') {
    return response.writeHead(200, { 'content-type': 'application/javascript' }).end(fs.readFileSync(chunk));
  }
  if (request.url === '/whole-document.js') {
    return response.writeHead(200, { 'content-type': 'application/javascript' }).end(baseline);
  }
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});

/** One capture on a fresh page: its duration and the main thread's blocking time meanwhile. */
async function measure(method) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
  const tab = await context.newPage();
  await tab.goto(origin);
  await tab.addScriptTag({ url: method === 'widget' ? '/widget-screenshot.js' : '/whole-document.js' });
  await tab.locator('#row-500').evaluate((row) => row.scrollIntoView({ block: 'center' }));
  const result = await tab.evaluate(`(async () => {
    const tasks = [];
    const observer = new PerformanceObserver((list) => tasks.push(...list.getEntries().map((e) => e.duration)));
    observer.observe({ type: 'longtask' });
    const started = performance.now();
    const blob = ${
      method === 'widget'
        ? `await window.__svcScreenshot({ exclude: document.createElement('div'), outline: null, signal: new AbortController().signal })`
        : 'await window.__wholeDocument()'
    };
    const ms = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 100));
    observer.disconnect();
    return { ms, blocking: tasks.reduce((sum, d) => sum + Math.max(0, d - 50), 0), bytes: blob.size };
  })()`);
  await context.close();
  return result;
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const runs = { widget: [], whole: [] };
for (let round = 1; round <= ROUNDS; round++) {
  // Alternating, so a busy moment of the machine falls on both.
  for (const method of round % 2 ? ['whole', 'widget'] : ['widget', 'whole']) {
    const result = await measure(method);
    runs[method].push(result);
    console.log(
      `round ${round} ${method.padEnd(6)} ${result.ms.toFixed(0).padStart(6)} ms, blocking ${result.blocking.toFixed(0).padStart(6)} ms, ${(result.bytes / 1024).toFixed(0)} KB`,
    );
  }
}
await browser.close();
server.close();

const figure = (method, key) => median(runs[method].map((r) => r[key]));
console.log(`\nscreenshot of a ${ROWS}x10 table scrolled to its middle (1100x760), medians of ${ROUNDS} rounds:`);
console.log('| capture | until encoded | main thread blocked |');
console.log('|---|---:|---:|');
console.log(
  `| whole document (baseline) | ${figure('whole', 'ms').toFixed(0)} ms | ${figure('whole', 'blocking').toFixed(0)} ms |`,
);
console.log(
  `| widget (what is in view) | ${figure('widget', 'ms').toFixed(0)} ms | ${figure('widget', 'blocking').toFixed(0)} ms |`,
);
console.log(
  `ratio widget / baseline: time ${(figure('widget', 'ms') / figure('whole', 'ms')).toFixed(3)}, blocking ${(figure('widget', 'blocking') / Math.max(1, figure('whole', 'blocking'))).toFixed(3)}`,
);
