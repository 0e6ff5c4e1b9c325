// Bundles the console into dist/: content-hashed assets (served with a year of caching) and
// the index.html shell that names them. Fails, printing the size, when the initial JavaScript
// is over its gzipped budget.
import fs from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { appendBundleNotices } from '../../scripts/licences.mjs';

const BUDGET_BYTES = 60 * 1024;
const here = path.dirname(new URL(import.meta.url).pathname);
const dist = path.join(here, 'dist');

fs.rmSync(dist, { recursive: true, force: true });
const result = await build({
  entryPoints: { app: path.join(here, 'src/main.tsx') },
  outdir: path.join(dist, 'assets'),
  entryNames: '[name]-[hash]',
  assetNames: '[name]-[hash]',
  bundle: true,
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
const outputs = Object.keys(result.metafile.outputs).map((file) => path.relative(dist, file));
const script = outputs.find((file) => file.endsWith('.js'));
const style = outputs.find((file) => file.endsWith('.css'));
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

const gzipped = gzipSync(fs.readFileSync(path.join(dist, script)), { level: 9 }).length;
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
const line = `console ${script}: ${kb(gzipped)} gzipped (budget ${kb(BUDGET_BYTES)})`;
if (gzipped > BUDGET_BYTES) {
  console.error(`${line}: OVER BUDGET`);
  process.exit(1);
}
console.log(line);
