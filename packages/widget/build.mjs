// Bundles the widget into dist/widget.js, and the screenshot chunk it loads only when someone
// attaches a screenshot into dist/widget-screenshot.js. The build fails, printing the size,
// when the widget's first load (widget.js, gzipped) is over its budget.
import fs from 'node:fs';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { appendBundleNotices } from '../../scripts/licences.mjs';

const BUDGET_BYTES = 15 * 1024;
const file = (name) => new URL(`./dist/${name}`, import.meta.url).pathname;

const common = {
  bundle: true,
  minify: true,
  format: 'iife',
  // ES2022 keeps class fields as written (browsers since 2020), with no helper per field.
  target: ['es2022'],
  // Third-party notices are appended in full instead (appendBundleNotices).
  legalComments: 'none',
  metafile: true,
  // Quiet on customers' pages: no console output survives the production build.
  drop: ['console', 'debugger'],
  logLevel: 'warning',
};
const widgetBuild = await build({
  ...common,
  entryPoints: [new URL('./src/index.ts', import.meta.url).pathname],
  outfile: file('widget.js'),
});
appendBundleNotices(widgetBuild.metafile);
// Loaded on demand: the panel once someone is signed in, the screenshot when one is attached,
// the anchoring when a page has pins or an element is picked.
for (const [entry, name] of [
  ['panel.ts', 'widget-panel.js'],
  ['screenshot.ts', 'widget-screenshot.js'],
  ['anchoring/index.ts', 'widget-anchoring.js'],
]) {
  const chunk = await build({
    ...common,
    entryPoints: [new URL(`./src/${entry}`, import.meta.url).pathname],
    outfile: file(name),
  });
  appendBundleNotices(chunk.metafile);
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const sizes = (name) => {
  const raw = fs.readFileSync(file(name));
  return { raw: raw.length, gzipped: gzipSync(raw, { level: 9 }).length };
};
const widget = sizes('widget.js');
const chunks = ['widget-panel.js', 'widget-anchoring.js', 'widget-screenshot.js'].map(
  (name) => `${name} ${kb(sizes(name).gzipped)}`,
);
const line = `widget.js: ${kb(widget.raw)} minified, ${kb(widget.gzipped)} gzipped (budget ${kb(BUDGET_BYTES)} gzipped); loaded on demand, gzipped: ${chunks.join(', ')}`;
if (widget.gzipped > BUDGET_BYTES) {
  console.error(`${line}: OVER BUDGET`);
  process.exit(1);
}
console.log(line);
