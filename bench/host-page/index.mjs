// What the widget costs the page it is embedded in (bench/README.md, "host-page"): a heavy page
// (a 1,000-row, 10-column table: 11,000 elements) that is also a single-page app (it changes
// route with pushState and redraws its content), opened in Debian's Chromium with the widget
// embedded as the Install page says (signed in, polling every second) and without it, the
// baseline, in the same run. Printed for each, and the deltas: the page's load (long tasks and
// total blocking time until 3 s after load), an idle stretch with the panel closed (long
// tasks, JS heap and DOM counters after a collection, before and after), 1,000 route changes
// (the same counters), and a screenshot of the page by the widget's own chunk. With
// BENCH_AGAINST (a git ref), the load is measured for that release's widget too, in the same run.
// The browser extension, when built (BENCH_EXTENSION=0 leaves it out): its sizes beside the
// widget's, and the page's load with it, in a browser of its own (an extension needs a profile),
// the same page on an origin where it runs nothing as that browser's baseline.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import {
  CHROMIUM,
  counters,
  heavyPage,
  LONG_TASKS,
  launchChromium,
  median,
  openApi,
  openPage,
  requireBuilt,
  root,
  screenshotOf,
  serveSite,
  signUp,
  tasks,
  loadCost as tracedLoad,
  under,
  WIDGET_THERE,
} from './stack.mjs';

const IDLE_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 300);
const ROUTES = Number(process.env.BENCH_ROUTES ?? 1000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** A release to compare the load with (a git ref: a tag, a commit), its widget built here; none when unset. */
const AGAINST = process.env.BENCH_AGAINST;
const EXTENSION_DIST = path.join(root, 'packages/extension/dist');
/** Whether the extension is measured too: when built, unless BENCH_EXTENSION=0. */
const EXTENSION =
  process.env.BENCH_EXTENSION !== '0' && fs.existsSync(path.join(EXTENSION_DIST, 'chromium/manifest.json'));

requireBuilt('packages/widget/dist/widget.js', 'Build first: npm run build (the widget is missing).');

// The API, in this process: a workspace whose project allows the page's origin, a reviewer.
const api = await openApi();
const apiBase = api.base;

/**
 * The widget of `ref`, built in a worktree of its own with this checkout's dependencies (but
 * the ref's own packages): its dist folder, and how to remove the worktree.
 */
function widgetOf(ref) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-host-page-against-'));
  const git = (...args) => execFileSync('git', args, { cwd: root, stdio: 'pipe' });
  git('worktree', 'add', '--detach', dir, ref);
  const modules = path.join(dir, 'node_modules');
  fs.mkdirSync(path.join(modules, '@svc'), { recursive: true });
  for (const name of fs.readdirSync(path.join(root, 'node_modules'))) {
    if (name !== '@svc') fs.symlinkSync(path.join(root, 'node_modules', name), path.join(modules, name));
  }
  for (const name of fs.readdirSync(path.join(dir, 'packages'))) {
    fs.symlinkSync(path.join(dir, 'packages', name), path.join(modules, '@svc', name));
  }
  const run = (...args) => execFileSync(process.execPath, args, { cwd: dir, stdio: 'pipe' });
  run(path.join(root, 'node_modules/typescript/bin/tsc'), '-b', 'packages/contract');
  run('packages/widget/build.mjs');
  return { dist: path.join(dir, 'packages/widget/dist'), remove: () => git('worktree', 'remove', '--force', dir) };
}

/**
 * The API as the release compared with sees it: its own widget's scripts (`/widget*.js`, so
 * that its chunks are its own too), every other request passed on to the API.
 */
async function apiWithWidgetOf(dist) {
  const proxy = http.createServer((request, response) => {
    const name = new URL(request.url ?? '/', 'http://x').pathname.slice(1);
    if (/^widget[\w.-]*\.js$/.test(name) && fs.existsSync(path.join(dist, name))) {
      response.writeHead(200, { 'content-type': 'application/javascript; charset=utf-8' });
      return void response.end(fs.readFileSync(path.join(dist, name)));
    }
    const forwarded = http.request(
      `${apiBase}${request.url}`,
      { method: request.method, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    request.pipe(forwarded);
  });
  await new Promise((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return { base: `http://127.0.0.1:${proxy.address().port}`, close: () => proxy.close() };
}

const against = AGAINST ? widgetOf(AGAINST) : null;
const againstApi = against ? await apiWithWidgetOf(against.dist) : null;

/** The page by its query: none, the widget (`?with`), or the release compared with's (`?against`). */
const site = await serveSite({
  without: heavyPage(null),
  with: heavyPage(apiBase),
  against: heavyPage(againstApi?.base ?? null),
});
const origin = site.origin;
const admin = await signUp(api, origin);
const browser = await launchChromium();

/** The widgets measured: this build's, and the release compared with's when there is one. */
const widgets = againstApi ? ['with', 'against'] : ['with'];
/** Where each page's widget comes from. */
const widgetBase = { with: apiBase, against: againstApi?.base };
const label = {
  without: 'without (baseline)',
  with: 'with the widget',
  against: `with the widget of ${AGAINST}`,
};

/**
 * A fresh page of the app (`which`: without a widget, with it, with the release's), signed in
 * unless asked otherwise; long tasks recorded from the start, and traced when asked.
 */
const open = (which, { trace = false, signedOut = false } = {}) =>
  openPage(browser, `${origin}/orders${which === 'without' ? '' : `?${which}`}`, {
    bases: Object.values(widgetBase).filter(Boolean),
    token: signedOut ? null : admin.token,
    trace,
    ready: which === 'without' ? null : WIDGET_THERE,
  });

const grew = (before, after) =>
  `heap ${(after.heapKB - before.heapKB).toFixed(0)} KB, nodes ${after.nodes - before.nodes}, listeners ${after.listeners - before.listeners}`;

/**
 * The page's load until 3 s after: long tasks, the main thread's busy time as the browser's
 * counters give it (all tasks, and the script they ran) and as a trace of the main thread
 * shows it (the time inside its tasks, which the counters overstate for the heavier load: the
 * figure to compare). A long task's excess says little here: the parser cuts its work into
 * tasks differently when a script is pending.
 */
async function loadCost(which) {
  const scripts = which === 'without' ? {} : { own: under(widgetBase[which]) };
  const { events, samples, ...figures } = await tracedLoad(browser, await open(which, { trace: true }), scripts);
  return { own: 0, ownSampled: 0, ...figures };
}

/** The JS heap 3 s after the page's load, after a collection, in KB: untraced (a trace holds memory of its own). */
async function heapAfterLoad(which, signedOut) {
  const opened = await open(which, { signedOut });
  await opened.page.waitForTimeout(3000);
  const { heapKB } = await counters(opened);
  await opened.context.close();
  return heapKB;
}

console.log(`host-page benchmark: ${ROUNDS} rounds; idle ${IDLE_SECONDS} s; ${ROUTES} route changes`);

// 1. The page's load, in turn (each round in another order), after one of each unreported
// (the browser's and the server's first time).
const variants = ['without', ...widgets];
for (const which of variants) await loadCost(which);
const loads = Object.fromEntries(variants.map((which) => [which, []]));
const heaps = Object.fromEntries(variants.flatMap((which) => [`${which} in`, `${which} out`].map((key) => [key, []])));
for (let round = 1; round <= ROUNDS; round++) {
  const order = variants.map((_, i) => variants[(i + round) % variants.length]);
  for (const which of round % 2 ? order : order.reverse()) {
    loads[which].push(await loadCost(which));
    heaps[`${which} in`].push(await heapAfterLoad(which, false));
    heaps[`${which} out`].push(await heapAfterLoad(which, true));
  }
}
const loadFigure = (which, key) => median(loads[which].map((r) => r[key]));
console.log(
  "\n| load, until 3 s after | long tasks | total blocking time | busy (counters) | of which script | main thread (trace) | the widget's scripts (trace) | JS heap, signed in / out |",
);
console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
const heap = (which, signedIn) => median(heaps[`${which} ${signedIn ? 'in' : 'out'}`]);
for (const which of variants) {
  const ms = (key) => `${loadFigure(which, key).toFixed(0)} ms`;
  console.log(
    `| ${label[which]} | ${loadFigure(which, 'count')} | ${ms('blocking')} | ${ms('busy')} | ${ms('script')} | ${ms('traced')} | ${which === 'without' ? '' : ms('own')} | ${heap(which, true).toFixed(0)} / ${heap(which, false).toFixed(0)} KB |`,
  );
}
for (const which of widgets) {
  const added = (key) => loadFigure(which, key) - loadFigure('without', key);
  const heapAdded = (signedIn) => (heap(which, signedIn) - heap('without', signedIn)).toFixed(0);
  console.log(
    `added by ${label[which].replace('with ', '')}: its scripts ${loadFigure(which, 'own').toFixed(0)} ms by the trace (goal ≤ 50; ${loadFigure(which, 'ownSampled').toFixed(0)} ms by its CPU profile, which counts what their promises' continuations run too); ` +
      `the main thread ${added('traced').toFixed(0)} ms by the trace (ratio ${(loadFigure(which, 'traced') / loadFigure('without', 'traced')).toFixed(2)}), ${added('busy').toFixed(0)} ms by the counters; ` +
      `the heap +${heapAdded(true)} KB signed in, +${heapAdded(false)} KB signed out`,
  );
}

// 1b. The extension: its sizes, and the page's load with it, beside the widget's above.
if (EXTENSION) await measureExtension();

// 2. Idle, both pages open at once, the panel closed; 3. route changes.
const idle = { with: await open('with'), without: await open('without') };
await idle.with.page.waitForTimeout(3000);
for (const opened of Object.values(idle)) await tasks(opened.page);
const before = { with: await counters(idle.with), without: await counters(idle.without) };
await idle.with.page.waitForTimeout(IDLE_SECONDS * 1000);
const afterIdle = { with: await counters(idle.with), without: await counters(idle.without) };
const idleTasks = { with: await tasks(idle.with.page), without: await tasks(idle.without.page) };
console.log(`\n| idle ${IDLE_SECONDS} s, panel closed | long tasks | after a collection, grew by |`);
console.log('|---|---:|---|');
for (const which of ['without', 'with']) {
  console.log(`| ${label[which]} | ${idleTasks[which].count} | ${grew(before[which], afterIdle[which])} |`);
}
for (const opened of Object.values(idle)) {
  await opened.page.evaluate(`(async () => {
    for (let i = 0; i < ${ROUTES}; i++) {
      window.go(i % 2 ? '/orders' : '/customers');
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
  })()`);
}
await idle.with.page.waitForTimeout(2000);
const afterRoutes = { with: await counters(idle.with), without: await counters(idle.without) };
console.log(`\n| ${ROUTES} route changes | after a collection, grew by |`);
console.log('|---|---|');
for (const which of ['without', 'with']) {
  console.log(`| ${label[which]} | ${grew(afterIdle[which], afterRoutes[which])} |`);
}

// 4. A screenshot of the heavy page by the widget's chunk, as the widget takes it.
const shot = await screenshotOf(idle.with.page, apiBase);
console.log(
  `\nscreenshot of the page: ${shot.ms.toFixed(0)} ms until encoded, ${shot.count} long tasks, ${shot.blocking.toFixed(0)} ms of blocking time (goal ≤ 200 ms)`,
);

await browser.close();
site.close();
againstApi?.close();
against?.remove();
await api.close();

/**
 * The extension as the server hands it out (its zip's files), signed in as the admin, the
 * page's site allowed (the launcher by itself there, as on a project's site the person allowed):
 * `http://localhost:<port>`, where it runs, and `http://127.0.0.1:<port>` (the server's host,
 * where it shows nothing), the baseline in the same browser. Per load until 3 s after: long
 * tasks, blocking time, the browser's busy counters and the JS heap after a collection (the
 * content script's world is in the page's heap).
 */
async function measureExtension() {
  const gzipped = (file) => zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length / 1024;
  const answer = await fetch(`${apiBase}/extension/feedback-extension-chromium.zip`);
  if (!answer.ok) throw new Error(`the server's extension download answered ${answer.status}`);
  const archive = Buffer.from(await answer.arrayBuffer());
  // Its files, as the server zipped them (the build's, made for this server).
  const { personalise, readExtensionBuilds } = await import(
    new URL('../../packages/server/dist/modules/extension/builds.js', import.meta.url).href
  );
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-host-page-extension-'));
  for (const [name, data] of personalise(readExtensionBuilds().chromium, apiBase)) {
    fs.writeFileSync(path.join(dir, name), data);
  }
  // The person's yes to the site, given here at install (a browser asks it in a click).
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  manifest.host_permissions.push('http://localhost/*');
  fs.writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(manifest));
  const allowed = `http://localhost:${site.port}`;
  await api.inject('PATCH', '/api/projects/app', admin.token, { allowedOrigins: [origin, allowed] });

  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-host-page-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: false,
    viewport: { width: 1100, height: 760 },
    args: [
      '--headless=new',
      '--no-sandbox',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      `--disable-extensions-except=${dir}`,
      `--load-extension=${dir}`,
    ],
  });
  const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
  await worker.evaluate(
    ([server, token, projects]) => chrome.storage.local.set({ server, token, projects }),
    [apiBase, admin.token, { [allowed]: 'app' }],
  );
  while ((await worker.evaluate(() => chrome.scripting.getRegisteredContentScripts())).length === 0) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  for (const page of context.pages()) await page.close();
  await context.addInitScript(LONG_TASKS);

  const load = async (which) => {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    await page.goto(`${which === 'extension' ? allowed : origin}/orders`, { waitUntil: 'load' });
    while (which === 'extension' && !(await page.evaluate(`!!document.querySelector('[data-svc-widget]')`))) {
      await page.waitForTimeout(20);
    }
    await page.waitForTimeout(3000);
    const result = await tasks(page);
    const { metrics } = await cdp.send('Performance.getMetrics');
    const metric = (name) => (metrics.find((m) => m.name === name)?.value ?? 0) * 1000;
    const { heapKB } = await counters({ cdp });
    await page.close();
    return { ...result, busy: metric('TaskDuration'), script: metric('ScriptDuration'), heapKB };
  };
  const kinds = ['baseline', 'extension'];
  for (const which of kinds) await load(which);
  const runs = { baseline: [], extension: [] };
  for (let round = 1; round <= ROUNDS; round++) {
    for (const which of round % 2 ? kinds : [...kinds].reverse()) runs[which].push(await load(which));
  }
  await context.close();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(profile, { recursive: true, force: true });

  const figure = (which, key) => median(runs[which].map((r) => r[key]));
  console.log(
    `\nsizes, gzipped: widget.js ${gzipped(path.join(root, 'packages/widget/dist/widget.js')).toFixed(1)} KB (first load); ` +
      `the extension's content script ${gzipped(path.join(EXTENSION_DIST, 'chromium/content.js')).toFixed(1)} KB (the widget's first load; its chunks are injected when needed), ` +
      `its zip ${(archive.length / 1024).toFixed(1)} KB`,
  );
  console.log(
    '\n| load, until 3 s after (a browser with the extension) | long tasks | total blocking time | busy (counters) | of which script | JS heap |',
  );
  console.log('|---|---:|---:|---:|---:|---:|');
  const name = { baseline: 'where it runs nothing (baseline)', extension: 'with the extension (launcher by itself)' };
  for (const which of kinds) {
    const ms = (key) => `${figure(which, key).toFixed(0)} ms`;
    console.log(
      `| ${name[which]} | ${figure(which, 'count')} | ${ms('blocking')} | ${ms('busy')} | ${ms('script')} | ${figure(which, 'heapKB').toFixed(0)} KB |`,
    );
  }
  const added = (key) => (figure('extension', key) - figure('baseline', key)).toFixed(0);
  console.log(
    `added by the extension: busy +${added('busy')} ms, script +${added('script')} ms, blocking +${added('blocking')} ms, the heap +${added('heapKB')} KB (the widget's, signed in, above)`,
  );
}
