// The whole test suite: against SQLite and, at the same time, against PostgreSQL when one is
// available (TEST_DATABASE_URL, or a throwaway cluster from Debian's postgresql package); then
// the timed browser tests, alone.
// The widget's and the console's browser tests, and the CLI's, run in the SQLite pass (the
// browser ones in Debian's Chromium): they exercise the browser and the CLI, and the API they
// call is covered on both databases by the server's own tests.
import { spawn } from 'node:child_process';
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

/**
 * Runs test files, two at a time; resolves to whether they all passed. A suite that runs beside
 * another (`beside`) keeps its report and prints it whole when it ends, so the two never mix.
 */
function runSuite(label, env, files, { beside = false } = {}) {
  if (!beside) process.stdout.write(`\n=== ${label} ===\n`);
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', '--test', '--test-reporter=spec', '--test-concurrency=2', ...files],
      { cwd: root, stdio: beside ? ['ignore', 'pipe', 'pipe'] : 'inherit', env: { ...process.env, ...env } },
    );
    const report = [];
    child.stdout?.on('data', (chunk) => report.push(chunk));
    child.stderr?.on('data', (chunk) => report.push(chunk));
    child.on('close', (code) => {
      if (beside) process.stdout.write(`\n=== ${label} (ran beside the SQLite suite) ===\n${Buffer.concat(report)}`);
      resolve(code === 0);
    });
  });
}

ensureSystemPackages();

const allFiles = testFiles();
const serverFiles = allFiles.filter((file) => !browserTests(file) && !cliTests(file));
const timedFiles = allFiles.filter(timedTests);
// The browser tests first: they are the longest files, and started early they run beside the
// many short ones instead of alone at the end, two files at a time throughout.
const sqliteFiles = allFiles.filter((file) => !timedFiles.includes(file));

// The fuzz's inputs test validation, the same on both databases; on PostgreSQL it is there for
// its transactions (a refusal writes nothing), which fewer inputs per route and role show as well.
const POSTGRES_FUZZ = { FUZZ_RUNS: process.env.FUZZ_RUNS ?? '6' };

/**
 * The PostgreSQL suite, beside the SQLite one: the two keep the machine's cores busy while the
 * other waits (on the browser, on the database's disk). Null when no PostgreSQL is at hand.
 */
async function postgresSuite() {
  if (process.env.TEST_DATABASE_URL) {
    return runSuite('PostgreSQL', { DIALECT: 'postgres', ...POSTGRES_FUZZ }, serverFiles, { beside: true });
  }
  if (!findPostgresBin()) return null;
  const cluster = await startThrowawayPostgres();
  try {
    return await runSuite(
      'PostgreSQL (throwaway cluster)',
      { DIALECT: 'postgres', TEST_DATABASE_URL: cluster.url, ...POSTGRES_FUZZ },
      serverFiles,
      { beside: true },
    );
  } finally {
    cluster.stop();
  }
}

const postgres = postgresSuite();
const sqlite = runSuite('SQLite', { DIALECT: 'sqlite' }, [
  ...sqliteFiles.filter(browserTests),
  ...sqliteFiles.filter((file) => !browserTests(file)),
]);
const results = [
  ['SQLite (with the browser tests)', await sqlite],
  ['PostgreSQL', await postgres],
];
// Last and alone: they hold the widget to a main-thread budget, which a busy machine would break.
if (timedFiles.length) {
  results.push([
    'Timed browser tests, alone',
    await runSuite('Timed browser tests, alone', { DIALECT: 'sqlite' }, timedFiles),
  ]);
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
