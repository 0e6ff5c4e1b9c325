// Bundles the console into dist/: content-hashed assets (served with a year of caching) and
// the index.html shell that names them. A page that needs a large library (insights' charts)
// is a chunk of its own, loaded when it is opened. Fails, printing the size, when the initial
// JavaScript (the entry and the chunks it imports at once) is over its gzipped budget.
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { publish, stagingFor } from '../../scripts/build-output.mjs';
import { appendBundleNotices } from '../../scripts/licences.mjs';

const BUDGET_BYTES = 60 * 1024;
const here = path.dirname(new URL(import.meta.url).pathname);
const output = path.join(here, 'dist');
const dist = stagingFor(output);

const result = await build({
  entryPoints: { app: path.join(here, 'src/main.tsx') },
  outdir: path.join(dist, 'assets'),
  entryNames: '[name]-[hash]',
  chunkNames: '[name]-[hash]',
  assetNames: '[name]-[hash]',
  bundle: true,
  splitting: true,
  minify: true,
  format: 'esm',
  target: ['es2022'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  legalComments: 'none',
  metafile: true,
  logLevel: 'warning',
});

appendBundleNotices(result.metafile);
const outputs = Object.entries(result.metafile.outputs);
const [entry, entryMeta] = outputs.find(([, output]) => output.entryPoint?.endsWith('src/main.tsx')) ?? [];
const script = path.relative(dist, entry);
const style = outputs.map(([file]) => path.relative(dist, file)).find((file) => file.endsWith('.css'));
/** The entry and every chunk it imports statically: what the browser loads before the console runs. */
const initial = new Set([entry]);
const reach = (meta) => {
  for (const imported of meta.imports) {
    if (imported.kind !== 'import-statement' || initial.has(imported.path)) continue;
    initial.add(imported.path);
    reach(result.metafile.outputs[imported.path]);
  }
};
reach(entryMeta);
fs.copyFileSync(path.join(here, 'src/favicon.svg'), path.join(dist, 'favicon.svg'));
fs.writeFileSync(
  path.join(dist, 'index.html'),
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>Feedback console</title>
<link rel="icon" href="/favicon.svg" type="image/svg+xml">
${style ? `<link rel="stylesheet" href="/${style}">` : ''}
<script type="module" src="/${script}"></script>
</head>
<body><div id="app"></div><noscript>The console needs JavaScript.</noscript></body>
</html>
`,
);

const gzipped = [...initial].reduce((sum, file) => sum + gzipSync(fs.readFileSync(file), { level: 9 }).length, 0);
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const line = `console ${script} and ${initial.size - 1} chunk(s) it imports: ${kb(gzipped)} gzipped (budget ${kb(BUDGET_BYTES)})`;
if (gzipped > BUDGET_BYTES) {
  console.error(`${line}: OVER BUDGET`);
  fs.rmSync(dist, { recursive: true, force: true });
  process.exit(1);
}
console.log(line);
publish(dist, output);
