// Benchmark of `svc-cli status --deployed`'s ancestry step: a generated 20k-commit repository
// with merges, back-dated branches and unmerged ones, 200 pending commits. In the same run,
// the per-candidate loop (`git merge-base --is-ancestor` once per candidate) is the baseline:
// prints both times, the ratio, and the whole CLI run, without and with a commit-graph. Also
// checks that both methods agree on every candidate.
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
const CANDIDATES = Number(process.env.BENCH_CANDIDATES ?? 200);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const MIN_RATIO = 50;

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-bench-cli-'));
const repoDir = path.join(work, 'repo');
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

  let started = performance.now();
  const { deployed, candidates, commits } = generateRepo(repoDir, { commits: COMMITS, candidateCount: CANDIDATES });
  console.log(
    `repository: ${commits} commits, ${candidates.length} pending candidates (generated in ${ms(performance.now() - started)})`,
  );

  // A real server with one pending comment per candidate, for the whole CLI run.
  const dataDir = path.join(work, 'data');
  fs.mkdirSync(dataDir);
  const app = await openApp({ dialect: 'sqlite', file: path.join(dataDir, 'svc.db') }, { allowSignup: true });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  const apiKey = await seedPending(app, candidates);
  fs.mkdirSync(path.join(repoDir, '.svc'));
  fs.writeFileSync(path.join(repoDir, '.svc/config.json'), JSON.stringify({ server: url, project: 'site' }));

  const results = [];
  for (const graph of [false, true]) {
    if (graph) execFileSync('git', ['commit-graph', 'write', '--reachable'], { cwd: repoDir, stdio: 'ignore' });
    const label = graph ? 'with a commit-graph' : 'without a commit-graph';
    console.log(`\n${label}`);

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
    for (let i = 0; i < 3; i += 1) {
      started = performance.now();
      // Asynchronously: the server answering it runs in this process.
      const run = await runCli(repoDir, { PATH: process.env.PATH, HOME: work, SVC_API_KEY: apiKey });
      cliTimes.push(performance.now() - started);
      if (run.code !== 0) throw new Error(`svc-cli failed (${run.code}): ${run.stderr}`);
    }
    const whole = median(cliTimes);

    console.log(`  per-candidate loop (${candidates.length} git processes): ${ms(loop)}`);
    console.log(
      `  CLI ancestry step (median of ${ROUNDS}):            ${ms(step)}   ${(loop / step).toFixed(1)}x faster`,
    );
    console.log(
      `  whole svc-cli status --deployed (median of 3):       ${ms(whole)}   ${(loop / whole).toFixed(1)}x faster`,
    );
    console.log(`  contained: ${truth.size} of ${candidates.length}; both methods agree: ${agree ? 'yes' : 'NO'}`);
    results.push({ label, ratio: loop / step, agree });
  }
  await app.close();

  console.log('');
  let ok = true;
  for (const { label, ratio, agree } of results) {
    const verdict = ratio >= MIN_RATIO && agree;
    ok &&= verdict;
    console.log(
      `${verdict ? 'PASS' : 'FAIL'} ${label}: ancestry step ${ratio.toFixed(1)}x the loop (target ≥ ${MIN_RATIO}x)${agree ? '' : ', results differ'}`,
    );
  }
  process.exitCode = ok ? 0 : 1;
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}

/** Admin, API key, project `site` and one comment applied with each candidate; returns the key. */
async function seedPending(app, candidates) {
  const inject = async (method, url, token, payload) => {
    const response = await app.inject({
      method,
      url,
      payload,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.body}`);
    return response.json();
  };
  const { token } = await inject('POST', '/api/signup', null, {
    workspaceName: 'Bench',
    name: 'Dev',
    email: 'dev@bench.test',
    password: 'bench password 1',
  });
  const { key } = await inject('POST', '/api/me/api-keys', token, { name: 'ci' });
  await inject('POST', '/api/projects', token, { key: 'site', name: 'Site' });
  for (const sha of candidates) {
    const comment = await inject('POST', '/api/projects/site/comments', token, {
      body: 'Fix me',
      pageUrl: 'https://app.example.test/',
    });
    await inject('POST', `/api/comments/${comment.id}/apply`, token, { commitSha: sha });
  }
  return key;
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

function ms(value) {
  return `${value.toFixed(value < 100 ? 1 : 0)} ms`.padStart(9);
}
