// The whole test suite: once against SQLite, then against PostgreSQL when one is
// available (TEST_DATABASE_URL, or a throwaway cluster from Debian's postgresql package).
// The widget's, the console's and the extension's browser tests run in the SQLite pass (in Debian's Chromium):
// they exercise the browser, and the API they call is covered on both databases by the
// server's own tests. The CLI's run in both.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
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

const browserTests = (file) => /[\\/](widget|console|extension)[\\/]test[\\/]/.test(file);
// Browser tests that hold the widget to a main-thread budget run alone, after the rest: beside
// another test file's browser and server, the machine's two cores are shared four ways and
// every task the page runs takes longer by the wall clock, its own work or not.
const timedTests = (file) => /\.timed\.test\.ts$/.test(file);

// Three files at a time on two cores: a browser test spends much of its time waiting (for a
// poll, a page, a timer), and with two at a time a core stood idle meanwhile.
// TEST_CONCURRENCY overrides it.
const CONCURRENCY = process.env.TEST_CONCURRENCY ?? '3';

// The server's, the contract's and the CLI's test files run a few to a process: each process
// of its own loaded the TypeScript loader and the server's modules again (some 4 s of CPU a
// file, more than half of what a short file costs), and all of them in one process took half
// the CPU of one process each. Several groups still fill the cores, and the runner starts the
// next group as one ends.
const GROUPS = Number(process.env.TEST_GROUPS ?? 6);
const groupDir = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-test-groups-'));
process.on('exit', () => fs.rmSync(groupDir, { recursive: true, force: true }));

/** Entry files that each import a share of `files` (in turn, so each gets some of every part). */
function grouped(label, files) {
  const groups = Array.from({ length: Math.min(GROUPS, files.length) }, () => []);
  for (const [i, file] of files.entries()) groups[i % groups.length].push(file);
  return groups.map((group, i) => {
    const entry = path.join(groupDir, `${label}-${i + 1}.test.mjs`);
    const imports = group.map((file) => `await import(${JSON.stringify(pathToFileURL(file).href)});`);
    fs.writeFileSync(entry, `${imports.join('\n')}\n`);
    return entry;
  });
}

/** What the runner prints after "failing tests:" (each failure and its error), by suite. */
const failures = [];

/** Runs a suite, its output shown as it comes; resolves with whether every test passed. */
function runSuite(label, env, files) {
  process.stdout.write(`\n=== ${label} ===\n`);
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', '--test', '--test-reporter=spec', `--test-concurrency=${CONCURRENCY}`, ...files],
    { cwd: root, stdio: ['inherit', 'pipe', 'inherit'], env: { ...process.env, ...env } },
  );
  let output = '';
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    output += chunk;
  });
  return new Promise((resolve) => {
    child.on('close', (code) => {
      const at = output.lastIndexOf('failing tests:');
      if (code !== 0 && at >= 0) failures.push([label, output.slice(at)]);
      resolve(code === 0);
    });
  });
}

ensureSystemPackages();

const results = [];
const allFiles = testFiles();
// The contract's tests (words, formats, the poller) read no database: the SQLite pass has them.
const contractTests = (file) => /[\\/]contract[\\/]/.test(file);
// The PostgreSQL pass: the server's tests and the CLI's (a deploy report's matching and an
// import are written in each database's SQL).
const serverFiles = allFiles.filter((file) => !browserTests(file) && !contractTests(file));
const timedFiles = allFiles.filter(timedTests);
// The browser tests first: they are the longest files, and started early they run beside the
// many short ones instead of alone at the end, two files at a time throughout.
const sqliteFiles = allFiles.filter((file) => !timedFiles.includes(file));
results.push([
  'SQLite (with the browser tests)',
  await runSuite('SQLite', { DIALECT: 'sqlite' }, [
    ...sqliteFiles.filter(browserTests),
    ...grouped(
      'sqlite',
      sqliteFiles.filter((file) => !browserTests(file)),
    ),
  ]),
]);
if (timedFiles.length) {
  results.push([
    'Timed browser tests, alone',
    await runSuite('Timed browser tests, alone', { DIALECT: 'sqlite' }, timedFiles),
  ]);
}

if (process.env.TEST_DATABASE_URL) {
  results.push(['PostgreSQL', await runSuite('PostgreSQL', { DIALECT: 'postgres' }, grouped('postgres', serverFiles))]);
} else if (findPostgresBin()) {
  const cluster = await startThrowawayPostgres();
  try {
    results.push([
      'PostgreSQL',
      await runSuite(
        'PostgreSQL (throwaway cluster)',
        { DIALECT: 'postgres', TEST_DATABASE_URL: cluster.url },
        grouped('postgres', serverFiles),
      ),
    ]);
  } finally {
    cluster.stop();
  }
} else {
  results.push(['PostgreSQL', null]);
}

// The failures again, last: a long run's log is often read from its end.
for (const [label, text] of failures) {
  const lines = text.split('\n');
  process.stdout.write(`\n--- ${label}: ${lines.slice(0, 200).join('\n')}${lines.length > 200 ? '\n…' : ''}\n`);
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
