// Builds the browser extension: the widget's own code (its first load in the content script,
// its chunks and languages the widget's build of them, carried beside it and run in the tab when
// the widget needs them: an extension loads no code from elsewhere), the background and the
// settings page, into an unpacked folder and a zip for Chromium-based browsers and for Firefox:
// dist/chromium/, dist/firefox/, dist/feedback-extension-chromium.zip, …-firefox.zip.
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { BROWSER_BUNDLE } from '../../scripts/browser-bundle.mjs';
import { publish, stagingFor } from '../../scripts/build-output.mjs';
import { appendBundleNotices } from '../../scripts/licences.mjs';
import { icon, zip } from './files.mjs';
import { manifestFor } from './manifest.mjs';

export const BROWSERS = ['chromium', 'firefox'];
const here = (file) => new URL(file, import.meta.url).pathname;
const { version } = JSON.parse(fs.readFileSync(here('./package.json'), 'utf8'));
const output = here('./dist/');
/**
 * The content script, gzipped, parsed on every page the extension runs on: the widget's first
 * load and the extension's own parts, no chunk (a chunk imported here would be parsed on every page).
 */
const CONTENT_BUDGET_BYTES = 25 * 1024;
const widgetDist = here('../widget/dist/');

// The widget's chunks as the widget built them (the same bytes its server hands out): built
// before, and after the last change of its sources, so that they match the content script's widget.
const widgetBuilt =
  fs.existsSync(path.join(widgetDist, 'widget.js')) && fs.statSync(path.join(widgetDist, 'widget.js')).mtimeMs;
const widgetChanged = Math.max(
  ...fs
    .readdirSync(here('../widget/src/'), { recursive: true })
    .map((name) => fs.statSync(here(`../widget/src/${name}`)).mtimeMs),
);
if (!widgetBuilt || widgetBuilt < widgetChanged) {
  console.error("The widget's chunks are missing or older than its sources: npm run build -w @svc/widget first.");
  process.exit(1);
}
const chunkNames = fs.readdirSync(widgetDist).filter((name) => /^widget-[\w-]+\.js$/.test(name));
const staging = stagingFor(output);
const scripts = path.join(staging, 'scripts');
fs.mkdirSync(scripts);

for (const [entry, name] of [
  ['content.ts', 'content.js'],
  ['background.ts', 'background.js'],
  ['options.ts', 'options.js'],
]) {
  const result = await build({
    entryPoints: [here(`./src/${entry}`)],
    outfile: path.join(scripts, name),
    ...BROWSER_BUNDLE,
  });
  appendBundleNotices(result.metafile);
}

const files = new Map([
  ...['content.js', 'background.js', 'options.js'].map((name) => [name, fs.readFileSync(path.join(scripts, name))]),
  ...['options.html', 'options.css'].map((name) => [name, fs.readFileSync(here(`./src/${name}`))]),
  ...chunkNames.map((name) => [name, fs.readFileSync(path.join(widgetDist, name))]),
  ...[16, 32, 48, 128].map((size) => [`icon-${size}.png`, icon(size)]),
]);
fs.rmSync(scripts, { recursive: true });

for (const browser of BROWSERS) {
  const contents = new Map([
    ['manifest.json', Buffer.from(`${JSON.stringify(manifestFor(browser, { version }), null, 2)}\n`)],
    ...files,
  ]);
  for (const [name, data] of contents) {
    fs.mkdirSync(path.join(staging, browser), { recursive: true });
    fs.writeFileSync(path.join(staging, browser, name), data);
  }
  fs.writeFileSync(path.join(staging, `feedback-extension-${browser}.zip`), zip([...contents]));
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const content = files.get('content.js');
const contentGzipped = gzipSync(content, { level: 9 }).length;
const line = `extension: content.js ${kb(content.length)} minified, ${kb(contentGzipped)} gzipped (budget ${kb(CONTENT_BUDGET_BYTES)}: the widget's first load; its ${chunkNames.length} chunks and languages beside it, run when needed); ${BROWSERS.map(
  (browser) => `${browser}.zip ${kb(fs.statSync(path.join(staging, `feedback-extension-${browser}.zip`)).size)}`,
).join(', ')}`;
if (contentGzipped > CONTENT_BUDGET_BYTES) {
  console.error(`${line}: OVER BUDGET (${contentGzipped} bytes)`);
  fs.rmSync(staging, { recursive: true, force: true });
  process.exit(1);
}
console.log(line);
publish(staging, output);
