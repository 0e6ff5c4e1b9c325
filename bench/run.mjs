// Runs every benchmark in bench/, or those named: node bench/run.mjs unread-count
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const all = fs
  .readdirSync(here, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && fs.existsSync(path.join(here, entry.name, 'index.mjs')))
  .map((entry) => entry.name);
const chosen = process.argv.length > 2 ? process.argv.slice(2) : all;
let failed = false;
for (const name of chosen) {
  if (!all.includes(name)) {
    console.error(`No benchmark "${name}"; there are: ${all.join(', ')}`);
    process.exit(2);
  }
  console.log(`\n##### ${name}`);
  const result = spawnSync(process.execPath, [path.join(here, name, 'index.mjs')], { stdio: 'inherit' });
  failed ||= result.status !== 0;
}
process.exit(failed ? 1 : 0);
