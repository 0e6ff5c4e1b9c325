// What the host-page benchmarks share (index.mjs, the widget's cost; replay.mjs, the replay's
// recorder's): the API in this process with a project and its admin, the heavy page (a 1,000-row,
// 10-column table: 11,000 elements) served from a site of its own, Debian's Chromium, a page of
// it opened signed in, and the figures read from it (long tasks, the heap after a collection, a
// trace of the main thread, a screenshot by the widget's chunk).
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { openApp } from '../lib/harness.mjs';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** Debian's Chromium, unless CHROMIUM_PATH says another. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Stops with `message` unless the build made `file` (relative to the checkout). */
export function requireBuilt(file, message) {
  if (fs.existsSync(path.join(root, file))) return;
  console.error(message);
  process.exit(1);
}

/** The built API in this process, on a SQLite file of its own, listening: its address and a way to call it as a client would. */
export async function openApi() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-host-page-'));
  const app = await openApp({ dialect: 'sqlite', file: path.join(dataDir, 'svc.db') }, { signup: 'open' });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const inject = async (method, url, token, payload) => {
    const answer = await app.inject({
      method,
      url,
      payload,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    if (answer.statusCode >= 300) throw new Error(`${method} ${url}: ${answer.statusCode} ${answer.body}`);
    return answer.json();
  };
  return {
    app,
    base: `http://127.0.0.1:${app.server.address().port}`,
    inject,
    close: async () => {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A workspace whose project `app` allows `origin`, and its admin (who is also the page's reviewer). */
export async function signUp(api, origin) {
  const admin = await api.inject('POST', '/api/signup', null, {
    workspaceName: 'Bench',
    name: 'Ada Admin',
    email: 'ada@bench.test',
    password: 'a long passphrase',
  });
  await api.inject('POST', '/api/projects', admin.token, { key: 'app', name: 'App', allowedOrigins: [origin] });
  return admin;
}

const table = Array.from(
  { length: 1000 },
  (_, r) => `<tr>${Array.from({ length: 10 }, (_, c) => `<td>Row ${r + 1}, cell ${c + 1}</td>`).join('')}</tr>`,
).join('');

/**
 * The heavy page, a single-page app, with the widget of `base` embedded as the Install page says
 * (polling every second), or none when `base` is null. `go(route)` is its router; `churn()`
 * starts a ticker that changes a cell 10 times a second.
 */
export const heavyPage = (base) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Orders</title>
<style>body{margin:0;padding:24px;font:16px/1.4 sans-serif}td{padding:4px 8px;white-space:nowrap}tr:nth-child(odd){background:#eef2ff}</style>
</head><body><nav><a href="/orders">Orders</a> <a href="/customers">Customers</a></nav><main><h1>Orders</h1><table><tbody>${table}</tbody></table></main>
<script>
  // The app's router: a route change writes the address and redraws the main content's head.
  window.go = (route) => {
    history.pushState({}, '', route);
    document.querySelector('main h1').textContent = route.slice(1);
  };
  window.churn = () => { let n = 0; setInterval(() => { document.querySelectorAll('td')[n++ % 10000].textContent = 'Changed ' + n; }, 100); };
</script>
${base ? `<script src="${base}/widget.js" data-api-base="${base}" data-project-key="app" data-notify-poll-ms="1000" async></script>` : ''}
</body></html>`;

/** A site serving `pages` by the first of their names in the query (`/orders?with`), `pages.without` otherwise: its origin. */
export async function serveSite(pages) {
  const site = http.createServer((request, response) => {
    const query = new URL(request.url ?? '/', 'http://x').searchParams;
    const which = Object.keys(pages).find((key) => query.has(key));
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(pages[which ?? 'without']);
  });
  await new Promise((resolve) => site.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${site.address().port}`, port: site.address().port, close: () => site.close() };
}

export const launchChromium = () =>
  chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });

/** What a trace records: the main thread's tasks and script events, and its CPU profile (read by readTrace). */
export const TRACED = ['devtools.timeline', 'v8', 'disabled-by-default-v8.cpu_profiler'];

/** Recorded in every page from its start, read by `tasks`: the long tasks' durations. */
export const LONG_TASKS = `window.__tasks = [];
  new PerformanceObserver((list) => window.__tasks.push(...list.getEntries().map((e) => e.duration)))
    .observe({ type: 'longtask', buffered: true });`;

/**
 * A fresh page at `url` in a context of its own, signed in with `token` to the widget of each of
 * `bases`, long tasks recorded from the start, traced when asked (`trace`), `chunks` (a script's
 * address → the file served for it) replacing what the server serves; once `ready` (an
 * expression evaluated in the page) is true. Asked of the page itself: a locator would load the
 * driver's own script into the page, whose memory and time would be counted as the widget's.
 */
export async function openPage(browser, url, { bases = [], token, trace = false, ready, chunks = {} }) {
  const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
  const signedIn = token
    ? bases.map((base) => `localStorage.setItem(${JSON.stringify(`svc:token:${base}`)}, ${JSON.stringify(token)});`)
    : [];
  await context.addInitScript(`${signedIn.join('\n')}\n${LONG_TASKS}`);
  for (const [address, file] of Object.entries(chunks)) {
    await context.route(address, (route) =>
      route.fulfill({ body: fs.readFileSync(file), contentType: 'text/javascript' }),
    );
  }
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  if (trace) await browser.startTracing(page, { categories: TRACED });
  await page.goto(url, { waitUntil: 'load' });
  while (ready && !(await page.evaluate(ready))) await page.waitForTimeout(20);
  return { context, page, cdp };
}

/** Whether the widget is on the page (its host element). */
export const WIDGET_THERE = `!!document.querySelector('[data-svc-widget]')`;

/** The long tasks since the last call: how many, their total, the longest and their blocking time (each one's excess over 50 ms). */
export async function tasks(page) {
  const durations = await page.evaluate('window.__tasks.splice(0)');
  return {
    count: durations.length,
    total: durations.reduce((sum, d) => sum + d, 0),
    longest: Math.max(0, ...durations),
    blocking: durations.reduce((sum, d) => sum + Math.max(0, d - 50), 0),
  };
}

/** JS heap and DOM counters once garbage is collected. */
export async function counters({ cdp }) {
  await cdp.send('HeapProfiler.collectGarbage');
  const { metrics } = await cdp.send('Performance.getMetrics');
  const metric = (name) => metrics.find((m) => m.name === name)?.value ?? 0;
  const dom = await cdp.send('Memory.getDOMCounters');
  return { heapKB: metric('JSHeapUsedSize') / 1024, nodes: dom.nodes, listeners: dom.jsEventListeners };
}

/**
 * The page's main thread in a trace: its events (complete ones, with a duration) in time order,
 * and the samples of its CPU profile (each with its time and the scripts on its stack). A trace
 * may hold several renderers' main threads (the blank page's before the navigation, another
 * page's): the page's is the busiest of them.
 */
export function readTrace(trace) {
  const { traceEvents } = JSON.parse(trace.toString());
  const mains = traceEvents.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  const eventsOf = (main) =>
    traceEvents
      .filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X' && e.dur)
      .sort((a, b) => a.ts - b.ts);
  let main = null;
  let events = [];
  for (const thread of mains) {
    const its = eventsOf(thread);
    if (covered(its) > covered(events)) [main, events] = [thread, its];
  }
  // The page's load event (its main frame's), when the trace holds it: what ran before it slowed the load.
  const loadAt =
    traceEvents.find((e) => e.name === 'MarkLoad' && e.pid === main?.pid && e.args?.data?.isMainFrame !== false)?.ts ??
    null;
  return { events, samples: main ? samplesOf(traceEvents, main) : [], loadAt };
}

/** The main thread's events of a trace, in time order (see readTrace). */
export const mainThreadEvents = (trace) => readTrace(trace).events;

/**
 * The samples of `main`'s CPU profile in the trace (when it was traced with
 * disabled-by-default-v8.cpu_profiler): each one's time, how long until the next (µs), and the
 * addresses of the scripts on its stack.
 */
function samplesOf(traceEvents, main) {
  const profile = traceEvents.find((e) => e.name === 'Profile' && e.pid === main.pid && e.tid === main.tid);
  if (!profile) return [];
  const nodes = new Map();
  const raw = [];
  let ts = profile.args.data.startTime;
  for (const chunk of traceEvents.filter(
    (e) => e.name === 'ProfileChunk' && e.pid === main.pid && e.id === profile.id,
  )) {
    const { cpuProfile = {}, timeDeltas = [] } = chunk.args.data;
    for (const node of cpuProfile.nodes ?? []) nodes.set(node.id, node);
    (cpuProfile.samples ?? []).forEach((id, i) => {
      ts += timeDeltas[i] ?? 0;
      raw.push({ ts, id });
    });
  }
  const stacks = new Map();
  const stackOf = (id) => {
    if (!stacks.has(id)) {
      const node = nodes.get(id);
      const above = node?.parent ? stackOf(node.parent) : [];
      stacks.set(id, node?.callFrame?.url ? [...above, node.callFrame.url] : above);
    }
    return stacks.get(id);
  };
  return raw.map((sample, i) => ({
    ts: sample.ts,
    dur: Math.max(0, (raw[i + 1]?.ts ?? sample.ts) - sample.ts),
    urls: stackOf(sample.id),
  }));
}

/** The time covered by `spans` (nested or overlapping ones counted once), in ms. */
export function covered(spans) {
  let total = 0;
  let end = 0;
  for (const span of spans) {
    if (span.ts >= end) total += span.dur;
    else if (span.ts + span.dur > end) total += span.ts + span.dur - end;
    end = Math.max(end, span.ts + span.dur);
  }
  return total / 1000;
}

/** The time of the samples with a script whose address `is` on their stack, in ms. */
export const sampledTime = (samples, is) =>
  samples.filter((s) => s.urls.some(is)).reduce((sum, s) => sum + s.dur, 0) / 1000;

/** The script a trace event evaluates, compiles or calls into: its address, or ''. */
const scriptUrl = (e) => {
  const url = e.args?.data?.url ?? e.args?.fileName ?? e.args?.data?.scriptName ?? '';
  return typeof url === 'string' ? url : '';
};

/** The scripts of `base` (the widget's chunks, when its server's address). */
export const under = (base) => (url) => url.startsWith(`${base}/`);

/** The events that run a script of `base` (its evaluation, compilation and every call into it). */
export const scriptOf = (base) => (e) => under(base)(scriptUrl(e));

/**
 * The page's load until 3 s after (`opened` traced, once `ready`): long tasks, the main thread's
 * busy time as the browser's counters give it (all tasks, and the script they ran) and as the
 * trace shows it (the time inside its tasks, which the counters overstate for the heavier load:
 * the figure to compare), and, for each of `scripts` (a name → which addresses are its), the
 * time of the trace's events that evaluate, compile or call into them (`name`) and that of the
 * profile's samples with one of them on their stack (`name` + "Sampled": this counts what their
 * promises' continuations run too, which the events do not name). Closes the page.
 */
export async function loadCost(browser, opened, scripts = {}) {
  await opened.page.waitForTimeout(3000);
  const result = await tasks(opened.page);
  const { metrics } = await opened.cdp.send('Performance.getMetrics');
  const metric = (name) => (metrics.find((m) => m.name === name)?.value ?? 0) * 1000;
  const { events, samples, loadAt } = readTrace(await browser.stopTracing());
  await opened.context.close();
  const beforeLoad = samples.filter((sample) => loadAt !== null && sample.ts < loadAt);
  const own = Object.entries(scripts).flatMap(([name, is]) => [
    [name, covered(events.filter((e) => is(scriptUrl(e))))],
    [`${name}Sampled`, sampledTime(samples, is)],
    [`${name}BeforeLoad`, sampledTime(beforeLoad, is)],
  ]);
  return {
    ...result,
    busy: metric('TaskDuration'),
    script: metric('ScriptDuration'),
    traced: covered(events),
    loadSeen: loadAt !== null,
    ...Object.fromEntries(own),
    events,
    samples,
  };
}

/**
 * The main thread's busy stretches (its events merged where they overlap: its tasks, as far as
 * the trace's categories tell them) during which a sample had a script whose address `is` on its
 * stack, in ms, longest first.
 */
export function tasksRunning({ events, samples }, is) {
  const stretches = [];
  for (const e of events) {
    const last = stretches.at(-1);
    if (last && e.ts < last.end) last.end = Math.max(last.end, e.ts + e.dur);
    else stretches.push({ ts: e.ts, end: e.ts + e.dur });
  }
  const its = samples.filter((sample) => sample.urls.some(is));
  return stretches
    .filter((stretch) => its.some((sample) => sample.ts >= stretch.ts && sample.ts < stretch.end))
    .map((stretch) => (stretch.end - stretch.ts) / 1000)
    .sort((a, b) => b - a);
}

/**
 * A screenshot of the page by the widget's own chunk (from `base`), as the widget takes it: the
 * time until encoded, and the long tasks meanwhile.
 */
export async function screenshotOf(page, base) {
  await page.evaluate(`(async () => {
    await new Promise((resolve, reject) => {
      const script = document.createElement('script');
      script.src = ${JSON.stringify(`${base}/widget-screenshot.js`)};
      script.onload = resolve;
      script.onerror = reject;
      document.head.append(script);
    });
  })()`);
  await tasks(page);
  const ms = await page.evaluate(`(async () => {
    const started = performance.now();
    await window.__svcScreenshot({ exclude: document.querySelector('[data-svc-widget]'), outline: null, cover: [], signal: new AbortController().signal });
    return performance.now() - started;
  })()`);
  await page.waitForTimeout(200);
  return { ms, ...(await tasks(page)) };
}

export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
