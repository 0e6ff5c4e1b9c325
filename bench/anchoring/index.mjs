// Benchmark of finding pinned elements again after the page changed (bench/README.md,
// "anchoring"): real pages from public packages, realistic changes with known answers, and for
// each kind of change the share of pins found on the right element, on another element, or
// not found, for the widget's anchors, the old selector method and absolute XPath, in the
// same run; then the time to resolve 100 pins on a large page against the old method's.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const cache = path.join(root, 'bench/.work/anchoring-corpus');
const TARGETS = Number(process.env.BENCH_TARGETS ?? 14);
const SEED = Number(process.env.BENCH_SEED ?? 20261125);
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const ONLY = process.env.BENCH_PAGES ? new RegExp(process.env.BENCH_PAGES) : null;

/** Fetches each package of the corpus once (npm pack) and returns its pages as [name, html]. */
function corpus() {
  const manifest = JSON.parse(fs.readFileSync(path.join(here, 'corpus.json'), 'utf8'));
  const pages = [];
  for (const entry of manifest.packages) {
    const dir = path.join(cache, `${entry.package.replace('/', '+')}@${entry.version}`);
    if (!fs.existsSync(path.join(dir, 'package'))) {
      fs.mkdirSync(dir, { recursive: true });
      console.error(`fetching ${entry.package}@${entry.version} (${entry.license}) from the npm registry…`);
      const file = execFileSync('npm', ['pack', `${entry.package}@${entry.version}`, '--silent'], { cwd: dir })
        .toString()
        .trim()
        .split('\n')
        .pop();
      execFileSync('tar', ['xzf', file], { cwd: dir });
      fs.rmSync(path.join(dir, file));
    }
    const read = (file) => fs.readFileSync(path.join(dir, 'package', file), 'utf8');
    for (const file of entry.pages ?? []) pages.push([`${entry.package}/${file}`, read(file)]);
    for (const [name, files] of Object.entries(entry.composed ?? {})) {
      const body = files.map((file) => read(file)).join('\n');
      pages.push([
        `${entry.package}/${name}`,
        `<!doctype html><html><head><meta charset="utf-8"></head><body>${body}</body></html>`,
      ]);
    }
  }
  return pages.filter(([name]) => !ONLY || ONLY.test(name));
}

/** The page as markup only: no scripts run, nothing is fetched (stylesheets included), so every run sees the same DOM. */
const markupOnly = (html) => html.replace(/<script\b[\s\S]*?<\/script>/gi, '').replace(/\s+on[a-z]+="[^"]*"/gi, '');

async function harness() {
  const result = await build({
    entryPoints: [path.join(here, 'in-page.mjs')],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: '__anchoringBench',
    target: ['es2022'],
    logLevel: 'warning',
  });
  return result.outputFiles[0].text;
}

const pct = (part, whole) => (whole ? `${((100 * part) / whole).toFixed(1)}%` : '—');

function table(results) {
  const methods = ['anchor', 'fixed', 'selector', 'xpath'];
  const changes = [...new Set(results.map((r) => r.change))];
  const rows = [];
  const line = (label, subset) => {
    const removed = subset.every((r) => r.expected === 'removed');
    const cells = methods.map((m) => {
      const right = subset.filter((r) => r[m] === 'right').length;
      const another = subset.filter((r) => r[m] === 'another').length;
      const lost = subset.filter((r) => r[m] === 'lost').length;
      return removed
        ? `${pct(right, subset.length)} not found, ${pct(another, subset.length)} elsewhere`
        : `${pct(right, subset.length)} / ${pct(another, subset.length)} / ${pct(lost, subset.length)}`;
    });
    rows.push([label, String(subset.length), ...cells]);
  };
  for (const change of changes)
    line(
      change,
      results.filter((r) => r.change === change),
    );
  const present = results.filter((r) => r.expected === 'present');
  const removed = results.filter((r) => r.expected === 'removed');
  line('where the element still exists', present);
  line('where it was removed', removed);
  const widths = [34, 6, 26, 26, 26, 26];
  const head = ['change', 'cases', 'anchors (new)', 'anchors, comment fixed', 'old selector', 'absolute XPath'];
  console.log('right / another element / not found (removed: correctly not found, pinned elsewhere)\n');
  console.log(head.map((h, i) => h.padEnd(widths[i])).join(' '));
  for (const row of rows) console.log(row.map((cell, i) => cell.padEnd(widths[i])).join(' '));
  const summary = (cases, label) => {
    const present = cases.filter((r) => r.expected === 'present');
    const removed = cases.filter((r) => r.expected === 'removed');
    console.log(label);
    for (const m of methods) {
      const another = (subset) => subset.filter((r) => r[m] === 'another').length;
      console.log(
        `  ${m.padEnd(9)} right where it exists ${pct(present.filter((r) => r[m] === 'right').length, present.length)}` +
          ` (another ${pct(another(present), present.length)}), ` +
          `another element over all ${cases.length} cases ${pct(another(cases), cases.length)}, ` +
          `not found where removed ${pct(removed.filter((r) => r[m] === 'right').length, removed.length)}`,
      );
    }
  };
  summary(results, '\nall cases:');
  // A removal beside a double (the same markup) makes the same page as the double's removal,
  // with the other answer: whatever a method says there is wrong in one of the two cases. A
  // reorder or move that swaps doubles leaves the page as it was, the pinned element elsewhere:
  // only a method that ignores the page could follow it.
  const undecidable = results.filter((r) => r.undecidable);
  const byChange = {};
  for (const r of undecidable) byChange[r.change] = (byChange[r.change] ?? 0) + 1;
  summary(
    results.filter((r) => !r.undecidable),
    `\nleaving out ${undecidable.length} cases whose page is the same whether the pinned element or its double was removed, or the same as before the change with the pinned element swapped with its double ${JSON.stringify(byChange)}:`,
  );
  const refusals = {};
  for (const r of results.filter((r) => r.anchor === 'lost')) refusals[r.refusal] = (refusals[r.refusal] ?? 0) + 1;
  console.log(`why anchors were not found where the element exists: ${JSON.stringify(refusals)}`);
  const twinned = {};
  for (const r of results.filter((r) => r.anchor === 'lost' && r.twins > 0))
    twinned[r.refusal] = (twinned[r.refusal] ?? 0) + 1;
  console.log(`...of which for elements pinned beside an identical twin: ${JSON.stringify(twinned)}`);
  const wrong = results.filter((r) => r.anchor === 'another');
  console.log(
    `on another element: ${wrong.length}, ${wrong.filter((r) => r.twins > 0).length} of them pinned beside an identical twin, ` +
      `${wrong.filter((r) => r.doubleTaken).length} of them on the pinned element's exact double (the same markup in an item of the same markup), ` +
      `${wrong.filter((r) => !r.doubtful).length} of them shown without "moved?"`,
  );
  const doubtful = results.filter((r) => r.doubtful);
  console.log(
    `anchors marked "moved?": ${doubtful.length} (${doubtful.filter((r) => r.anchor === 'right').length} of them right)`,
  );
}

async function main() {
  if (!fs.existsSync(CHROMIUM))
    throw new Error(`No Chromium at ${CHROMIUM} (apt-get install -y chromium, or CHROMIUM_PATH)`);
  const pages = corpus();
  const script = await harness();
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, javaScriptEnabled: true });
  await context.route('**/*', (route) => route.abort());
  const page = await context.newPage();
  const results = [];
  const started = Date.now();
  let n = 0;
  for (const [name, html] of pages) {
    n += 1;
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.setContent(markupOnly(html), { waitUntil: 'load' });
    await page.addScriptTag({ content: script });
    const seed = SEED + n;
    if (process.env.BENCH_DEBUG)
      await page.evaluate(() => {
        window.__benchDebug = true;
      });
    const count = await page.evaluate((options) => window.__anchoringBench.prepare(options), {
      seed,
      targets: TARGETS,
    });
    const changed = await page.evaluate(() => window.__anchoringBench.runChanges());
    await page.setViewportSize({ width: 390, height: 844 });
    const narrow = await page.evaluate(() => window.__anchoringBench.runUnchanged('viewed at 390 px (pinned at 1280)'));
    results.push(...[...changed, ...narrow].map((result) => ({ page: name, ...result })));
    process.stderr.write(`  ${name}: ${count} pins, ${changed.length + narrow.length} cases\n`);
  }
  console.log(`\n${pages.length} pages, ${results.length} cases, ${((Date.now() - started) / 1000).toFixed(0)} s\n`);
  table(results);
  if (process.env.BENCH_RESULTS) fs.writeFileSync(process.env.BENCH_RESULTS, JSON.stringify(results));
  if (process.env.BENCH_DEBUG) {
    const wanted = new RegExp(process.env.BENCH_DEBUG);
    for (const r of results
      .filter((r) => r.debug && wanted.test(r.change))
      .slice(0, Number(process.env.BENCH_DEBUG_MAX ?? 30))) {
      console.log(`\n--- ${r.change}: ${r.anchor}\n${JSON.stringify(r.debug, null, 1)}`);
    }
  }

  // Speed, on the largest page of the corpus made larger still (its content repeated).
  const [bigName, bigHtml] = pages
    .map(([name, html]) => [name, html, (html.match(/<[a-z]/gi) ?? []).length])
    .sort((a, b) => b[2] - a[2])[0];
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.setContent(markupOnly(bigHtml), { waitUntil: 'domcontentloaded' });
  await page.addScriptTag({ content: script });
  await page.evaluate(() => {
    const original = document.body.innerHTML;
    while (document.querySelectorAll('*').length < 5000) document.body.insertAdjacentHTML('beforeend', original);
  });
  const speed = await page.evaluate((options) => window.__anchoringBench.timeResolving(options), {
    pins: 100,
    rounds: 7,
    seed: SEED,
  });
  console.log(
    `\nspeed on ${bigName} repeated to ${speed.elements} elements, ${speed.pins} pins, best of 7:` +
      `\n  old method (querySelector each pin, the baseline): ${speed.baseline.toFixed(2)} ms` +
      `\n  anchors, page unchanged: ${speed.unchanged.toFixed(2)} ms (${(speed.unchanged / speed.baseline).toFixed(1)}× the baseline)` +
      `\n  anchors, an item inserted at the top of every list: ${speed.changed.toFixed(2)} ms (${(speed.changed / speed.baseline).toFixed(1)}× the baseline)`,
  );

  // The cost of following a page that changes every 100 ms, 10,000 elements and more.
  await page.evaluate(() => {
    const original = document.body.innerHTML;
    while (document.querySelectorAll('*').length < 10_000) document.body.insertAdjacentHTML('beforeend', original);
  });
  const live = { pins: 40, everyMs: 100, seconds: 5, seed: SEED };
  const without = await page.evaluate((o) => window.__anchoringBench.liveCost({ ...o, withTracker: false }), live);
  const tracked = await page.evaluate((o) => window.__anchoringBench.liveCost({ ...o, withTracker: true }), live);
  console.log(
    `\na page of ${tracked.elements} elements changing every ${live.everyMs} ms for ${live.seconds} s, ${live.pins} pins (a quarter missing):` +
      `\n  without the tracker (the baseline): ${without.longTasks} long tasks, the longest ${without.longest.toFixed(0)} ms` +
      `\n  with the tracker: ${tracked.longTasks} long tasks, the longest ${tracked.longest.toFixed(0)} ms; pins re-placed ${tracked.placements} times;` +
      ` at the end ${tracked.onTheirElement} of ${tracked.present} pins on their element, ${tracked.listedNotFound} of ${tracked.missing} missing ones listed as not found`,
  );

  // Twins told apart by their shape alone, all pinned, in one list of 3,901 elements (a shape
  // is read up to 4,000).
  const shaped = await page.evaluate(() =>
    window.__anchoringBench.timeTwinsByShape({ items: 100, filler: 34, rounds: 7 }),
  );
  console.log(
    `\n${shaped.pins} twins told apart by their shape alone (${shaped.shaped} anchors with one), in a list of ${shaped.elements} elements, best of 7:` +
      `\n  old method (querySelector each pin, the baseline): ${shaped.baseline.toFixed(2)} ms` +
      `\n  anchors, page unchanged: ${shaped.unchanged.toFixed(2)} ms (${(shaped.unchanged / shaped.baseline).toFixed(1)}× the baseline)` +
      `\n  anchors, the list reversed: ${shaped.reversed.toFixed(2)} ms (${(shaped.reversed / shaped.baseline).toFixed(1)}× the baseline), ${shaped.rightAfterReversal} of ${shaped.pins} on their element`,
  );
  await browser.close();
}

await main();
