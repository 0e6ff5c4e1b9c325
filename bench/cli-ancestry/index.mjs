// Benchmark of `svc-cli status --deployed`: generated 20k-commit repositories with merges,
// back-dated branches and unmerged ones, with 15, 200 and 2,000 pending commits. In the same
// run, the per-candidate loop (`git merge-base --is-ancestor` once per candidate) is the
// baseline: prints its time, the CLI's ancestry step and the whole CLI process (Node start-up,
// the pending list over HTTP, git, the report), each with its ratio to the loop, without and
// with a commit-graph; and checks that both methods agree on every candidate.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { openApp } from '../lib/harness.mjs';
import { generateRepo } from './generate.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '../..');
const COMMITS = Number(process.env.BENCH_COMMITS ?? 20_000);
const CANDIDATE_COUNTS = (process.env.BENCH_CANDIDATES ?? '15,200,2000').split(',').map(Number);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
/** The ancestry step must beat the loop by this much at 200 candidates, the brief's case. */
const MIN_RATIO = 50;

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-cli-'));
try {
  // The CLI's own ancestry code, bundled as it ships.
  const gitModule = path.join(work, 'git.mjs');
  await build({
    entryPoints: [path.join(root, 'packages/cli/src/git.ts')],
    outfile: gitModule,
    bundle: true,
    format: 'esm',
    platform: 'node',
    logLevel: 'warning',
  });
  const { findContained } = await import(gitModule);

  // A real server with one pending comment per candidate, for the whole CLI run.
  const dataDir = path.join(work, 'data');
  fs.mkdirSync(dataDir);
  const app = await openApp({ dialect: 'sqlite', file: path.join(dataDir, 'svc.db') }, { allowSignup: true });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const session = await signUp(app);

  const results = [];
  for (const count of CANDIDATE_COUNTS) {
    const repoDir = path.join(work, `repo-${count}`);
    let started = performance.now();
    const { deployed, candidates, commits } = generateRepo(repoDir, { commits: COMMITS, candidateCount: count });
    const project = `site-${count}`;
    const apiKey = await seedPending(app, session, project, candidates);
    fs.mkdirSync(path.join(repoDir, '.svc'));
    fs.writeFileSync(path.join(repoDir, '.svc/config.json'), JSON.stringify({ server: url, project }));
    console.log(
      `\n${candidates.length} pending commits in a ${commits}-commit repository (set up in ${ms(performance.now() - started)})`,
    );

    for (const graph of [false, true]) {
      if (graph) execFileSync('git', ['commit-graph', 'write', '--reachable'], { cwd: repoDir, stdio: 'ignore' });
      const label = graph ? 'with a commit-graph' : 'without a commit-graph';

      started = performance.now();
      const truth = new Set();
      for (const sha of candidates) {
        const r = spawnSync('git', ['merge-base', '--is-ancestor', sha, deployed], { cwd: repoDir });
        if (r.status === 0) truth.add(sha);
      }
      const loop = performance.now() - started;

      const times = [];
      let contained;
      for (let i = 0; i < ROUNDS; i += 1) {
        started = performance.now();
        contained = (await findContained(repoDir, deployed, candidates)).contained;
        times.push(performance.now() - started);
      }
      const step = median(times);
      const agree = candidates.every((sha) => truth.has(sha) === contained.has(sha));

      const cliTimes = [];
      for (let i = 0; i < ROUNDS; i += 1) {
        started = performance.now();
        // Asynchronously: the server answering it runs in this process.
        const run = await runCli(repoDir, { PATH: process.env.PATH, HOME: work, SVC_API_KEY: apiKey });
        cliTimes.push(performance.now() - started);
        if (run.code !== 0) throw new Error(`svc-cli failed (${run.code}): ${run.stderr}`);
      }
      const whole = median(cliTimes);

      console.log(`  ${label}`);
      console.log(`    per-candidate loop (${candidates.length} git processes): ${ms(loop)}`);
      console.log(
        `    CLI ancestry step (median of ${ROUNDS}):        ${ms(step)}   ${ratio(loop, step)} the loop's speed`,
      );
      console.log(
        `    whole svc-cli status --deployed (median of ${ROUNDS}): ${ms(whole)}   ${ratio(loop, whole)} the loop's speed`,
      );
      console.log(`    contained: ${truth.size} of ${candidates.length}; both methods agree: ${agree ? 'yes' : 'NO'}`);
      results.push({ count, label, step: loop / step, whole: loop / whole, agree });
    }
  }
  await app.close();

  console.log('\nsummary (loop time ÷ CLI time; above 1 the CLI is faster):');
  console.log('  candidates  graph  ancestry step  whole process');
  for (const r of results) {
    console.log(
      `  ${String(r.count).padStart(10)}  ${r.label.startsWith('with ') ? 'yes  ' : 'no   '}  ${r.step.toFixed(1).padStart(12)}x  ${r.whole.toFixed(1).padStart(12)}x`,
    );
  }
  let ok = results.every((r) => r.agree);
  for (const r of results.filter((r) => r.count === 200)) {
    const verdict = r.step >= MIN_RATIO;
    ok &&= verdict;
    console.log(
      `${verdict ? 'PASS' : 'FAIL'} 200 candidates ${r.label}: ancestry step ${r.step.toFixed(1)}x the loop (target ≥ ${MIN_RATIO}x)`,
    );
  }
  if (!results.every((r) => r.agree)) console.log('FAIL the CLI and the loop disagree somewhere');
  process.exitCode = ok ? 0 : 1;
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}

async function inject(app, method, url, token, payload) {
  const response = await app.inject({
    method,
    url,
    payload,
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.body}`);
  return response.json();
}

async function signUp(app) {
  const { token } = await inject(app, 'POST', '/api/signup', null, {
    workspaceName: 'Bench',
    name: 'Dev',
    email: 'dev@bench.test',
    password: 'bench password 1',
  });
  return token;
}

/** Project `key`, an API key, and one comment applied with each candidate; returns the key. */
async function seedPending(app, token, key, candidates) {
  const { key: apiKey } = await inject(app, 'POST', '/api/me/api-keys', token, { name: `ci ${key}` });
  await inject(app, 'POST', '/api/projects', token, { key, name: key });
  for (const sha of candidates) {
    const comment = await inject(app, 'POST', `/api/projects/${key}/comments`, token, {
      body: 'Fix me',
      pageUrl: 'https://app.example.test/',
    });
    await inject(app, 'POST', `/api/comments/${comment.id}/apply`, token, { commitSha: sha });
  }
  return apiKey;
}

function runCli(cwd, env) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'packages/cli/dist/bin.js'), 'status', '--deployed'], {
      cwd,
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function ratio(baseline, value) {
  return `${(baseline / value).toFixed(1)}x`.padStart(7);
}

function ms(value) {
  return `${value.toFixed(value < 100 ? 1 : 0)} ms`.padStart(9);
}
