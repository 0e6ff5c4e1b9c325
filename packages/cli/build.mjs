// Bundles the CLI into dist/: one entry per binary and the Vite plugin, commands split into
// chunks that load only when their command runs. Shared contract code is bundled in, so the
// published package has no runtime dependencies.
import fs from 'node:fs';
import { build } from 'esbuild';
import { publish, stagingFor } from '../../scripts/build-output.mjs';
import { appendBundleNotices } from '../../scripts/licences.mjs';

const output = new URL('./dist/', import.meta.url).pathname;
const { version } = JSON.parse(fs.readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const dist = `${stagingFor(output)}/`;
const split = await build({
  entryPoints: [new URL('./src/bin.ts', import.meta.url).pathname, new URL('./src/vite.ts', import.meta.url).pathname],
  outdir: dist,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  define: { SVC_CLI_VERSION: JSON.stringify(version) },
  metafile: true,
  logLevel: 'warning',
});
appendBundleNotices(split.metafile);
// The whole CLI as one file, for the server to hand out at /cli/svc-cli.mjs: what a deploy
// job or an agent downloads and checks, with nothing to install.
const single = await build({
  entryPoints: [new URL('./src/bin.ts', import.meta.url).pathname],
  outfile: `${dist}svc-cli.mjs`,
  // Smaller to download, names kept so that a stack trace still reads.
  minifyWhitespace: true,
  minifySyntax: true,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  define: { SVC_CLI_VERSION: JSON.stringify(version) },
  metafile: true,
  logLevel: 'warning',
});
appendBundleNotices(single.metafile);
publish(dist, output);
