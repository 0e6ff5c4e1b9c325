// Bundles the widget into one minified dist/widget.js and checks the size budget: the build
// fails, printing the size, when the gzipped bundle is over it.
import fs from 'node:fs';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const BUDGET_BYTES = 15 * 1024;
const outfile = new URL('./dist/widget.js', import.meta.url).pathname;

await build({
  entryPoints: [new URL('./src/index.ts', import.meta.url).pathname],
  outfile,
  bundle: true,
  minify: true,
  format: 'iife',
  // ES2022 keeps class fields as written (browsers since 2020), with no helper per field.
  target: ['es2022'],
  legalComments: 'none',
  // Quiet on customers' pages: no console output survives the production build.
  drop: ['console', 'debugger'],
  logLevel: 'warning',
});

const raw = fs.readFileSync(outfile);
const gzipped = gzipSync(raw, { level: 9 }).length;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const line = `widget.js: ${kb(raw.length)} minified, ${kb(gzipped)} gzipped (budget ${kb(BUDGET_BYTES)} gzipped)`;
if (gzipped > BUDGET_BYTES) {
  console.error(`${line}: OVER BUDGET`);
  process.exit(1);
}
console.log(line);
