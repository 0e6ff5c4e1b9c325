// The whole test suite: once against SQLite, then against PostgreSQL when one is
// available (TEST_DATABASE_URL, or a throwaway cluster from Debian's postgresql package).
// The widget's and the console's browser tests, and the CLI's, run in the SQLite pass (the
// browser ones in Debian's Chromium): they exercise the browser and the CLI, and the API they
// call is covered on both databases by the server's own tests.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findPostgresBin, startThrowawayPostgres } from './postgres.mjs';
import { ensureSystemPackages } from './system-packages.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function testFiles() {
  const files = [];
  for (const pkg of fs.readdirSync(path.join(root, 'packages'))) {
    for (const dir of ['src', 'test']) {
      const base = path.join(root, 'packages', pkg, dir);
      if (!fs.existsSync(base)) continue;
      for (const entry of fs.readdirSync(base, { recursive: true })) {
        if (String(entry).endsWith('.test.ts')) files.push(path.join(base, String(entry)));
      }
    }
  }
  return files.sort();
}

const browserTests = (file) => /[\\/](widget|console)[\\/]test[\\/]/.test(file);
// The CLI's tests drive git and the CLI against a server: they run in the SQLite pass, and the
// API they call is covered on both databases by the server's own tests.
const cliTests = (file) => /[\\/]cli[\\/]test[\\/]/.test(file);
// Browser tests that hold the widget to a main-thread budget run alone, after the rest: beside
// another test file's browser and server, the machine's two cores are shared four ways and
// every task the page runs takes longer by the wall clock, its own work or not.
const timedTests = (file) => /\.timed\.test\.ts$/.test(file);

// Three files at a time on two cores: a browser test spends much of its time waiting (for a
// poll, a page, a timer), and with two at a time a core stood idle meanwhile.
// TEST_CONCURRENCY overrides it.
const CONCURRENCY = process.env.TEST_CONCURRENCY ?? '3';

function runSuite(label, env, files) {
  process.stdout.write(`\n=== ${label} ===\n`);
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-reporter=spec', `--test-concurrency=${CONCURRENCY}`, ...files],
    { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } },
  );
  return result.status === 0;
}

ensureSystemPackages();

const results = [];
const allFiles = testFiles();
// The contract's tests (words, formats, the poller) read no database: the SQLite pass has them.
const contractTests = (file) => /[\\/]contract[\\/]/.test(file);
const serverFiles = allFiles.filter((file) => !browserTests(file) && !cliTests(file) && !contractTests(file));
const timedFiles = allFiles.filter(timedTests);
// The browser tests first: they are the longest files, and started early they run beside the
// many short ones instead of alone at the end, two files at a time throughout.
const sqliteFiles = allFiles.filter((file) => !timedFiles.includes(file));
results.push([
  'SQLite (with the browser tests)',
  runSuite('SQLite', { DIALECT: 'sqlite' }, [
    ...sqliteFiles.filter(browserTests),
    ...sqliteFiles.filter((file) => !browserTests(file)),
  ]),
]);
if (timedFiles.length) {
  results.push([
    'Timed browser tests, alone',
    runSuite('Timed browser tests, alone', { DIALECT: 'sqlite' }, timedFiles),
  ]);
}

// The fuzz's inputs test validation, the same on both databases; on PostgreSQL it is there for
// its transactions (a refusal writes nothing), which fewer inputs per route and role show as well.
const POSTGRES_FUZZ = { FUZZ_RUNS: process.env.FUZZ_RUNS ?? '3' };

if (process.env.TEST_DATABASE_URL) {
  results.push(['PostgreSQL', runSuite('PostgreSQL', { DIALECT: 'postgres', ...POSTGRES_FUZZ }, serverFiles)]);
} else if (findPostgresBin()) {
  const cluster = await startThrowawayPostgres();
  try {
    results.push([
      'PostgreSQL',
      runSuite(
        'PostgreSQL (throwaway cluster)',
        { DIALECT: 'postgres', TEST_DATABASE_URL: cluster.url, ...POSTGRES_FUZZ },
        serverFiles,
      ),
    ]);
  } finally {
    cluster.stop();
  }
} else {
  results.push(['PostgreSQL', null]);
}

process.stdout.write('\n');
for (const [label, ok] of results) {
  const verdict =
    ok === null
      ? 'SKIPPED (no PostgreSQL server found: apt-get install -y postgresql, or set TEST_DATABASE_URL)'
      : ok
        ? 'passed'
        : 'FAILED';
  process.stdout.write(`${label} suite: ${verdict}\n`);
}
process.exit(results.every(([, ok]) => ok !== false) ? 0 : 1);
