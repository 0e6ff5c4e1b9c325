// Bundles the widget into dist/widget.js, and the screenshot chunk it loads only when someone
// attaches a screenshot into dist/widget-screenshot.js. The build fails, printing the size,
// when the widget's first load (widget.js, gzipped) is over its budget.
import fs from 'node:fs';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const BUDGET_BYTES = 15 * 1024;
const file = (name) => new URL(`./dist/${name}`, import.meta.url).pathname;

const common = {
  bundle: true,
  minify: true,
  format: 'iife',
  // ES2022 keeps class fields as written (browsers since 2020), with no helper per field.
  target: ['es2022'],
  legalComments: 'none',
  // Quiet on customers' pages: no console output survives the production build.
  drop: ['console', 'debugger'],
  logLevel: 'warning',
};
await build({
  ...common,
  entryPoints: [new URL('./src/index.ts', import.meta.url).pathname],
  outfile: file('widget.js'),
});
await build({
  ...common,
  entryPoints: [new URL('./src/screenshot.ts', import.meta.url).pathname],
  outfile: file('widget-screenshot.js'),
});

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const sizes = (name) => {
  const raw = fs.readFileSync(file(name));
  return { raw: raw.length, gzipped: gzipSync(raw, { level: 9 }).length };
};
const widget = sizes('widget.js');
const chunk = sizes('widget-screenshot.js');
const line = `widget.js: ${kb(widget.raw)} minified, ${kb(widget.gzipped)} gzipped (budget ${kb(BUDGET_BYTES)} gzipped); widget-screenshot.js (loaded on demand): ${kb(chunk.gzipped)} gzipped`;
if (widget.gzipped > BUDGET_BYTES) {
  console.error(`${line}: OVER BUDGET`);
  process.exit(1);
}
console.log(line);
