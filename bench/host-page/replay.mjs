// What the replay's recorder costs the heavy page of host-page (its 1,000-row, 10-column table:
// 11,000 elements), beside the widget without replay, in the same run (bench/README.md,
// "host-page"), signed in as a reviewer (replay is recorded for nobody else): the page's load
// until 3 s after, traced, the project keeping replays and not in turn (the widget's scripts, the
// recorder's extra as a difference and a ratio, the longest task the recorder ran in: its first
// full picture); the main-thread block of that picture timed around the recorder's synchronous
// start (the median of ROUNDS) beside the widget's screenshot of the same page; then, with the
// project keeping the least (30 s, so that the rolling, every half period, happens within each
// phase), while a reader looks at the still page (the pointer moving once a second) the main
// thread, the widget's and the recorder's time (traced, with the CPU profile) and the long tasks,
// and the JS heap after a collection, with and without replay; and while the page changes 10
// times a second, the heap and what is held for a comment (gzipped, as a comment sends it: it must
// stay bounded); the size of the recorder's chunk. BENCH_REPLAY_CHUNK serves another build of
// widget-replay.js, to compare.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import {
  covered,
  heavyPage,
  launchChromium,
  loadCost,
  median,
  openApi,
  openPage,
  readTrace,
  root,
  sampledTime,
  screenshotOf,
  serveSite,
  signUp,
  TRACED,
  tasks,
  tasksRunning,
  under,
  WIDGET_THERE,
} from './stack.mjs';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const STILL_SECONDS = Number(process.env.BENCH_IDLE_SECONDS ?? 45);
const CHURN_SECONDS = Number(process.env.BENCH_CHURN_SECONDS ?? 60);
const chunk = process.env.BENCH_REPLAY_CHUNK ?? path.join(root, 'packages/widget/dist/widget-replay.js');
const PERIOD_SECONDS = 30;
if (!fs.existsSync(chunk)) {
  console.error('Build first: npm run build (the replay chunk is missing).');
  process.exit(1);
}

const api = await openApi();
const apiBase = api.base;
// The heavy page of host-page, its widget embedded (`churn()` changes a cell 10 times a second).
const site = await serveSite({ without: heavyPage(apiBase) });
const admin = await signUp(api, site.origin);
const setReplay = (on) =>
  api.inject('PATCH', '/api/projects/app', admin.token, {
    replay: { on, seconds: PERIOD_SECONDS, maskAllText: false },
  });
const browser = await launchChromium();
/** The recorder's chunk, where the widget asks for it (served from BENCH_REPLAY_CHUNK, or this build's). */
const recorderAddress = `${apiBase}/widget-replay.js`;
const isRecorder = (url) => url === recorderAddress;

/**
 * The page, signed in, once its widget is there and, when `recording` is asked, its recorder
 * running; traced when asked.
 */
async function open({ recording = false, trace = false } = {}) {
  const opened = await openPage(browser, `${site.origin}/orders`, {
    bases: [apiBase],
    token: admin.token,
    trace,
    chunks: { [recorderAddress]: chunk },
    ready: recording ? `window.__svcReplay?.running() === true` : WIDGET_THERE,
  });
  await tasks(opened.page);
  return opened;
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

const taskText = ({ count, total, longest }) => `${count} (${ms(total)} in all, the longest ${ms(longest)})`;

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

const ms = (value) => `${value.toFixed(0)} ms`;
const mb = (value) => `${value.toFixed(1)} MB`;
const ratio = (value, baseline) => (baseline > 0 ? `×${(value / baseline).toFixed(2)}` : 'n/a');
/** Medians of `runs`' figure `key`, with the spread: "median (min–max)". */
const spread = (values, format) =>
  `${format(median(values))} (${format(Math.min(...values))}–${format(Math.max(...values))})`;

// 1. The page's load until 3 s after, by the trace (as index.mjs measures the widget's), the
// project keeping replays and not in turn (each round in another order), after one of each
// unreported: the widget's scripts (its chunks, the recorder's included), the recorder's alone,
// and the longest task the recorder ran in (its first full picture of the page).
async function loadWith(replay) {
  await setReplay(replay);
  const { events, samples, ...figures } = await loadCost(browser, await open({ trace: true }), {
    widget: under(apiBase),
    recorder: isRecorder,
  });
  return { ...figures, picture: tasksRunning({ events, samples }, isRecorder)[0] ?? 0 };
}
const variants = [false, true];
for (const replay of variants) await loadWith(replay);
const loads = { false: [], true: [] };
for (let round = 1; round <= ROUNDS; round++) {
  for (const replay of round % 2 ? variants : [...variants].reverse()) loads[replay].push(await loadWith(replay));
}
const load = (replay, key) => median(loads[replay].map((r) => r[key]));
const recordedLoads = loads.true.filter((r) => r.recorderSampled > 0).length;

// 2. A reader on the still page for STILL_SECONDS (the pointer moving once a second), traced with
// the CPU profile (the widget's and the recorder's time: the samples with their scripts on the stack);
// then the heap after a collection; on the page without replay, the page changing 10 times a
// second (the heap's baseline for the churn below) and the widget's screenshot of the page (the
// budget the recorder's first picture is held to, measured here).
async function still(opened) {
  await browser.startTracing(opened.page, { categories: TRACED });
  await tasks(opened.page);
  await read(opened.page, STILL_SECONDS);
  const longTasks = await tasks(opened.page);
  const { events, samples } = readTrace(await browser.stopTracing());
  return {
    recorder: sampledTime(samples, isRecorder),
    tasks: longTasks,
    traced: covered(events),
    widget: sampledTime(samples, under(apiBase)),
    heap: await heapMb(opened.cdp),
  };
}

await setReplay(false);
const without = await open();
const stillWithout = await still(without);
await without.page.evaluate('window.churn()');
await without.page.waitForTimeout((CHURN_SECONDS * 1000) / 3);
const churnHeapWithout = await heapMb(without.cdp);
const shot = await screenshotOf(without.page, apiBase);
await without.context.close();

// 3. With replay: the first full picture, timed around the recorder's synchronous start.
await setReplay(true);
const withReplay = await open({ recording: true });
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
const stillWith = await still(withReplay);
const stillHeld = await held(withReplay.page);

// 4. The page changing 10 times a second: the heap and what is held, at a third of the run and at its end.
await withReplay.page.evaluate('window.churn()');
await tasks(withReplay.page);
const churnRecorderEarly = await recorderTime(withReplay.cdp, () =>
  withReplay.page.waitForTimeout((CHURN_SECONDS * 1000) / 3),
);
// The recorder's long tasks only, not those of the collection and of taking what is held.
const churnTasksEarly = await tasks(withReplay.page);
const churnEarly = { heap: await heapMb(withReplay.cdp), ...(await held(withReplay.page)) };
await withReplay.page.waitForTimeout(500);
await tasks(withReplay.page);
const churnRecorderLate = await recorderTime(withReplay.cdp, () =>
  withReplay.page.waitForTimeout((CHURN_SECONDS * 2000) / 3),
);
const churnTasksLate = await tasks(withReplay.page);
const churnLate = { heap: await heapMb(withReplay.cdp), ...(await held(withReplay.page)) };
const churnTasks = {
  count: churnTasksEarly.count + churnTasksLate.count,
  total: churnTasksEarly.total + churnTasksLate.total,
  longest: Math.max(churnTasksEarly.longest, churnTasksLate.longest),
};
await withReplay.context.close();

const chunkGzipped = zlib.gzipSync(fs.readFileSync(chunk), { level: 9 }).length / 1024;
/** A load figure's median, with its spread: "median (min–max)". */
const range = (replay, key) =>
  spread(
    loads[replay].map((r) => r[key]),
    ms,
  );
/** A load figure with replay and without. */
const beside = (key) => `${range(true, key)} with replay, ${range(false, key)} without`;
/** What replay adds to a figure, and the ratio: "+12 ms, ×1.10". */
const added = (value, baseline, unit = ms) =>
  `${value < baseline ? '−' : '+'}${unit(Math.abs(value - baseline))}, ${ratio(value, baseline)}`;
const picture = median(firstPictures);
const pictureBlocking = Math.max(0, picture - 50);
const churnFor = `${(CHURN_SECONDS / 3).toFixed(0)} s`;
console.log(
  [
    'host-page (replay), 11,000 elements, signed in, beside the widget without replay in the same run:',
    `  recorder's chunk (widget-replay.js): ${chunkGzipped.toFixed(1)} KB gzipped, loaded only where a project keeps replays and a reviewer is signed in`,
    `  load until 3 s after, by the trace (medians of ${ROUNDS}, min–max; the recorder running in ${recordedLoads} of ${ROUNDS} loads with replay):`,
    `    the widget's scripts (the CPU profile's samples with one of its chunks on the stack): ${beside('widgetSampled')}: the recorder's extra ${added(load(true, 'widgetSampled'), load(false, 'widgetSampled'))} (goal ≤ 50 ms beyond the widget's)`,
    `    until the page's load event (its load seen in ${loads.true.filter((r) => r.loadSeen).length} of ${ROUNDS} traces): the widget's scripts ${beside('widgetBeforeLoad')}: the recorder's extra ${added(load(true, 'widgetBeforeLoad'), load(false, 'widgetBeforeLoad'))}, the recorder's chunk alone ${range(true, 'recorderBeforeLoad')} (it starts once the page has loaded and the browser is idle)`,
    `    the same by the events that name its scripts (as index.mjs counts the widget's; they miss what promise continuations run): ${beside('widget')}`,
    `    the recorder's chunk alone (samples): ${range(true, 'recorderSampled')}; the longest task it ran in (its first full picture): ${range(true, 'picture')}`,
    `    the main thread: ${beside('traced')} (${added(load(true, 'traced'), load(false, 'traced'))}); long tasks ${load(true, 'count')} against ${load(false, 'count')}; blocking time ${beside('blocking')}`,
    `  first full picture of the page (main thread, timed around the recorder's start, median of ${ROUNDS}): ${ms(picture)} (all: ${firstPictures.map(ms).join(', ')}; budget 200 ms: ${ratio(picture, 200)}), so ${ms(pictureBlocking)} of blocking time; the widget's screenshot of the page in the same run: ${ms(shot.blocking)} of blocking time (${shot.count} long tasks, the longest ${ms(shot.longest)}; ${ms(shot.ms)} until encoded): ${ratio(pictureBlocking, shot.blocking)}`,
    `  ${STILL_SECONDS} s with the page still (a reader moving the pointer once a second; a period of ${PERIOD_SECONDS} s):`,
    `    the main thread (trace): ${ms(stillWith.traced)} with replay, ${ms(stillWithout.traced)} without (${added(stillWith.traced, stillWithout.traced)})`,
    `    the widget's scripts (samples): ${ms(stillWith.widget)} with replay, ${ms(stillWithout.widget)} without (${added(stillWith.widget, stillWithout.widget)}), of which the recorder's ${ms(stillWith.recorder)}`,
    `    long tasks: ${taskText(stillWith.tasks)} with replay, ${taskText(stillWithout.tasks)} without it`,
    `    JS heap then, after a collection: ${mb(stillWith.heap)} with replay, ${mb(stillWithout.heap)} without (${added(stillWith.heap, stillWithout.heap, mb)}); held for a comment: ${stillHeld.kilobytes.toFixed(0)} KB gzipped`,
    `  page changing 10 times a second: after ${churnFor} heap ${mb(churnEarly.heap)}, held ${churnEarly.kilobytes.toFixed(0)} KB gzipped; after ${CHURN_SECONDS} s heap ${mb(churnLate.heap)} (${ratio(churnLate.heap, churnEarly.heap)} of the first), held ${churnLate.kilobytes.toFixed(0)} KB (${ratio(churnLate.kilobytes, churnEarly.kilobytes)})`,
    `    the widget without replay on the same page changing for ${churnFor}: heap ${mb(churnHeapWithout)} (with replay after ${CHURN_SECONDS} s: ${added(churnLate.heap, churnHeapWithout, mb)})`,
    `    in those ${CHURN_SECONDS} s the recorder's main-thread time ${ms(churnRecorderEarly + churnRecorderLate)}, long tasks ${taskText(churnTasks)}`,
  ].join('\n'),
);

await browser.close();
site.close();
await api.close();
