// What the replay's recorder costs the heavy page of host-page (its 1,000-row, 10-column table:
// 11,000 elements), beside the widget without replay, in the same run (bench/README.md,
// "host-page"): the main-thread block of the recorder's first full picture of the page (timed
// around its synchronous start, the median of ROUNDS); then, with the project keeping the least
// (30 s, so that the rolling, every half period, happens within each phase), the recorder's own
// main-thread time (sampled) and the page's long tasks while a reader looks at the still page
// (the pointer moving once a second) and while the page changes 10 times a second, the JS heap
// after a collection and what is held for a comment (gzipped, as a comment sends it: it must stay
// bounded), and the size of the recorder's chunk. Signed in as a reviewer: replay is recorded for
// nobody else. BENCH_REPLAY_CHUNK serves another build of widget-replay.js, to compare.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { openApp } from '../lib/harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const STILL_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 45);
const CHURN_SECONDS = Number(process.env.BENCH_CHURN_SECONDS ?? 60);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const chunk = process.env.BENCH_REPLAY_CHUNK ?? path.join(root, 'packages/widget/dist/widget-replay.js');
const PERIOD_SECONDS = 30;
if (!fs.existsSync(chunk)) {
  console.error('Build first: npm run build (the replay chunk is missing).');
  process.exit(1);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-host-page-replay-'));
const api = await openApp({ dialect: 'sqlite', file: path.join(dataDir, 'svc.db') }, { signup: 'open' });
await api.listen({ port: 0, host: '127.0.0.1' });
const apiBase = `http://127.0.0.1:${api.server.address().port}`;
const inject = async (method, url, token, payload) => {
  const answer = await api.inject({ method, url, payload, headers: token ? { authorization: `Bearer ${token}` } : {} });
  if (answer.statusCode >= 300) throw new Error(`${method} ${url}: ${answer.statusCode} ${answer.body}`);
  return answer.json();
};

// The heavy page of host-page (index.mjs), with a ticker that changes a cell 10 times a second on `?churn`.
const table = Array.from(
  { length: 1000 },
  (_, r) => `<tr>${Array.from({ length: 10 }, (_, c) => `<td>Row ${r + 1}, cell ${c + 1}</td>`).join('')}</tr>`,
).join('');
const pageHtml = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Orders</title>
<style>body{margin:0;padding:24px;font:16px/1.4 sans-serif}td{padding:4px 8px;white-space:nowrap}tr:nth-child(odd){background:#eef2ff}</style>
</head><body><nav><a href="/orders">Orders</a></nav><main><h1>Orders</h1><table><tbody>${table}</tbody></table></main>
<script>
  window.churn = () => { let n = 0; setInterval(() => { document.querySelectorAll('td')[n++ % 10000].textContent = 'Changed ' + n; }, 100); };
</script>
<script src="${apiBase}/widget.js" data-api-base="${apiBase}" data-project-key="app" data-notify-poll-ms="1000" async></script>
</body></html>`;
const site = http.createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pageHtml);
});
await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${site.address().port}`;

const admin = await inject('POST', '/api/signup', null, {
  workspaceName: 'Bench',
  name: 'Ada Admin',
  email: 'ada@bench.test',
  password: 'a long passphrase',
});
await inject('POST', '/api/projects', admin.token, { key: 'app', name: 'App', allowedOrigins: [origin] });
const setReplay = (on) =>
  inject('PATCH', '/api/projects/app', admin.token, { replay: { on, seconds: PERIOD_SECONDS, maskAllText: false } });

const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
});

/** The page, signed in, once its widget is there (and, with replay on, its recorder running). */
async function open(replay) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
  await context.addInitScript(
    `localStorage.setItem(${JSON.stringify(`svc:token:${apiBase}`)}, ${JSON.stringify(admin.token)});`,
  );
  await context.route(`${apiBase}/widget-replay.js`, (route) =>
    route.fulfill({ body: fs.readFileSync(chunk), contentType: 'text/javascript' }),
  );
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await page.goto(`${origin}/orders`, { waitUntil: 'load' });
  const ready = replay ? `window.__svcReplay?.running() === true` : `!!document.querySelector('[data-svc-widget]')`;
  while (!(await page.evaluate(ready))) await page.waitForTimeout(50);
  await page.evaluate(() => {
    window.longTasks = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) window.longTasks.push(entry.duration);
    }).observe({ type: 'longtask' });
  });
  return { context, page, cdp };
}

/** The JS heap after a collection, in MB. */
async function heapMb(cdp) {
  await cdp.send('HeapProfiler.collectGarbage');
  const { usedSize } = await cdp.send('Runtime.getHeapUsage');
  return usedSize / 1024 / 1024;
}

/** What the recorder holds now: its events, and their size gzipped as a comment sends them. */
const held = (page) =>
  page.evaluate(async () => {
    const blob = await window.__svcReplay.take({ selector: null });
    return { kilobytes: blob.size / 1024 };
  });

/** The long tasks since the last call: how many, their total and the longest. */
const longTasks = async (page) => {
  const durations = await page.evaluate(() => window.longTasks.splice(0));
  return { count: durations.length, total: durations.reduce((a, b) => a + b, 0), longest: Math.max(0, ...durations) };
};
const tasks = ({ count, total, longest }) => `${count} (${ms(total)} in all, the longest ${ms(longest)})`;

/**
 * The main-thread time spent in the recorder's own script while `during` runs, by Chromium's
 * sampling profiler: the samples with a frame of widget-replay.js on their stack (its full
 * pictures above all). Steadier than the long tasks on a shared machine, which count the page's
 * and the browser's work too.
 */
async function recorderTime(cdp, during) {
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 250 });
  await cdp.send('Profiler.start');
  await during();
  const { profile } = await cdp.send('Profiler.stop');
  const parents = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node);
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const inRecorder = new Map();
  const recorder = (node) => {
    if (!node) return false;
    if (!inRecorder.has(node.id)) {
      inRecorder.set(node.id, node.callFrame.url.endsWith('/widget-replay.js') || recorder(parents.get(node.id)));
    }
    return inRecorder.get(node.id);
  };
  let micros = 0;
  profile.samples.forEach((id, index) => {
    if (recorder(nodes.get(id))) micros += profile.timeDeltas[index + 1] ?? 0;
  });
  return micros / 1000;
}

/** A reader on a still page: the pointer moves once a second, nothing else changes. */
async function read(page, seconds) {
  for (let second = 0; second < seconds; second++) {
    await page.mouse.move(200 + (second % 2) * 300, 300);
    await page.waitForTimeout(1000);
  }
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value) => `${value.toFixed(0)} ms`;
const mb = (value) => `${value.toFixed(1)} MB`;

// The widget without replay: the baseline of the same run.
await setReplay(false);
const without = await open(false);
await longTasks(without.page);
await read(without.page, STILL_SECONDS);
const stillTasksWithout = await longTasks(without.page);
const heapWithout = await heapMb(without.cdp);
await without.context.close();

// With replay: the first full picture, timed around the recorder's synchronous start.
await setReplay(true);
const withReplay = await open(true);
const firstPictures = [];
for (let round = 0; round < ROUNDS; round++) {
  firstPictures.push(
    await withReplay.page.evaluate((seconds) => {
      window.__svcReplay.stop();
      const started = performance.now();
      window.__svcReplay.start({ seconds, maskAllText: false });
      return performance.now() - started;
    }, PERIOD_SECONDS),
  );
}
await longTasks(withReplay.page);
const stillRecorder = await recorderTime(withReplay.cdp, () => read(withReplay.page, STILL_SECONDS));
const stillTasks = await longTasks(withReplay.page);
const heapWith = await heapMb(withReplay.cdp);
const stillHeld = await held(withReplay.page);

// The page changing 10 times a second: the heap and what is held, at a third of the run and at its end.
await withReplay.page.evaluate('window.churn()');
await longTasks(withReplay.page);
const churnRecorderEarly = await recorderTime(withReplay.cdp, () =>
  withReplay.page.waitForTimeout((CHURN_SECONDS * 1000) / 3),
);
// The recorder's long tasks only, not those of the collection and of taking what is held.
const churnTasksEarly = await longTasks(withReplay.page);
const churnEarly = { heap: await heapMb(withReplay.cdp), ...(await held(withReplay.page)) };
await withReplay.page.waitForTimeout(500);
await longTasks(withReplay.page);
const churnRecorderLate = await recorderTime(withReplay.cdp, () =>
  withReplay.page.waitForTimeout((CHURN_SECONDS * 2000) / 3),
);
const churnTasksLate = await longTasks(withReplay.page);
const churnLate = { heap: await heapMb(withReplay.cdp), ...(await held(withReplay.page)) };
const churnTasks = {
  count: churnTasksEarly.count + churnTasksLate.count,
  total: churnTasksEarly.total + churnTasksLate.total,
  longest: Math.max(churnTasksEarly.longest, churnTasksLate.longest),
};
await withReplay.context.close();

const chunkGzipped = zlib.gzipSync(fs.readFileSync(chunk), { level: 9 }).length / 1024;
console.log(`host-page (replay), 11,000 elements, signed in, the same run:
  recorder's chunk (widget-replay.js): ${chunkGzipped.toFixed(1)} KB gzipped, loaded only where a project keeps replays and a reviewer is signed in
  first full picture of the page (main thread, median of ${ROUNDS}): ${ms(median(firstPictures))} (all: ${firstPictures.map(ms).join(', ')}; budget 200 ms)
  JS heap after ${STILL_SECONDS} s still: ${mb(heapWith)} with replay, ${mb(heapWithout)} the widget without it (+${mb(heapWith - heapWithout)})
  held for a comment then: ${stillHeld.kilobytes.toFixed(0)} KB gzipped
  the recorder's main-thread time in those ${STILL_SECONDS} s (a period of ${PERIOD_SECONDS} s): ${ms(stillRecorder)}; long tasks: ${tasks(stillTasks)} with replay, ${tasks(stillTasksWithout)} without it
  page changing 10 times a second, after ${(CHURN_SECONDS / 3).toFixed(0)} s: heap ${mb(churnEarly.heap)}, held ${churnEarly.kilobytes.toFixed(0)} KB gzipped; after ${CHURN_SECONDS} s: heap ${mb(churnLate.heap)}, held ${churnLate.kilobytes.toFixed(0)} KB gzipped; in those ${CHURN_SECONDS} s the recorder's main-thread time ${ms(churnRecorderEarly + churnRecorderLate)}, long tasks ${tasks(churnTasks)}`);

await browser.close();
site.close();
await api.close();
fs.rmSync(dataDir, { recursive: true, force: true });
