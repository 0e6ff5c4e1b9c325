// Shared by the benchmarks: processes pinned to cores, wrk or autocannon as the load, and
// a baseline measured in the same run so that results are ratios, not absolute times.
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findPostgresBin, startThrowawayPostgres } from '../../scripts/postgres.mjs';
import { commandExists } from '../../scripts/system-packages.mjs';

/** The built server's buildApp on `database`, quiet, for seeding and direct measurements. */
export async function openApp(database, overrides = {}) {
  const { buildApp, loadConfig } = await import(new URL('../../packages/server/dist/app.js', import.meta.url).href);
  // The documented defaults, but no per-user limits: a benchmark seeds thousands of rows.
  const defaults = loadConfig({}).config;
  const unlimited = Object.fromEntries(Object.keys(defaults.limits).map((name) => [name, 1_000_000]));
  return buildApp({
    ...defaults,
    port: 0,
    host: '127.0.0.1',
    database,
    demo: false,
    signup: 'closed',
    buildRateLimit: 1_000_000,
    logLevel: 'silent',
    limits: unlimited,
    ...overrides,
  });
}

export const cores = os.availableParallelism();

/**
 * What core `core` has done since boot, from /proc/stat (Linux; null elsewhere): busy and
 * total time in clock ticks. Two readings give the share of the core a stretch kept busy,
 * whichever processes (a server, its database) used it.
 */
export function coreTicks(core) {
  let stat;
  try {
    stat = fs.readFileSync('/proc/stat', 'utf8');
  } catch {
    return null;
  }
  const line = stat.split('\n').find((l) => l.startsWith(`cpu${core} `));
  if (!line) return null;
  // Time the hypervisor took (steal) is neither this machine's work nor idle: left out.
  const [user, nice, system, idle, iowait, irq, softirq] = line.trim().split(/\s+/).slice(1).map(Number);
  const busy = user + nice + system + irq + softirq;
  return { busy, total: busy + idle + iowait };
}

/** The share of `core` kept busy between two `coreTicks` readings, in percent (null without them). */
export const busyPercent = (before, after) =>
  before && after && after.total > before.total
    ? (100 * (after.busy - before.busy)) / (after.total - before.total)
    : null;

export const hasTaskset = commandExists('taskset');
export const hasWrk = commandExists('wrk');

/** Runs `args` pinned to one core when the machine has two or more. */
export function pinned(core, command, args) {
  return hasTaskset && cores >= 2 ? ['taskset', ['-c', String(core), command, ...args]] : [command, args];
}

/** Starts a node process that prints `listening <url>` (or the server's ready line) and waits for it. */
export function startProcess(
  core,
  script,
  env = {},
  readyPattern = /(?:listening|ready at) (http:\/\/\S+)/i,
  nodeArgs = [],
) {
  const [command, args] = pinned(core, process.execPath, [...nodeArgs, script]);
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr.on('data', (chunk) => {
    out += chunk;
  });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} did not start:\n${out}`));
    }, 60_000);
    const poll = setInterval(() => {
      const match = readyPattern.exec(out);
      if (!match) return;
      clearInterval(poll);
      clearTimeout(timer);
      resolve({
        url: match[1].replace(/[",}]+$/, ''),
        stop: () =>
          new Promise((done) => {
            child.once('exit', done);
            child.kill('SIGTERM');
          }),
      });
    }, 50);
    child.once('exit', (code) => {
      clearInterval(poll);
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code}:\n${out}`));
    });
  });
}

/**
 * The built server on core 0, on a free port, quiet, with no demo workspace; `env` adds its
 * configuration. BENCH_SERVER names another release's build instead, to compare two releases
 * on the same day.
 */
export function startServer(env, nodeArgs = []) {
  const script = process.env.BENCH_SERVER ?? path.resolve(import.meta.dirname, '../../packages/server/dist/server.js');
  return startProcess(
    0,
    script,
    { ...env, PORT: '0', SVC_DEMO: 'false', SVC_LOG_LEVEL: 'warn' },
    /is running at (http:\/\/\S+)/,
    nodeArgs,
  );
}

/**
 * Load on `url` from the core the server is not on: wrk with a Lua script that rotates
 * bearer tokens (and ETags) from a file, else autocannon. Resolves with req/s and p99 (ms).
 */
export async function load({ url, seconds, connections, tokensFile, withEtag = false }) {
  if (hasWrk) return loadWithWrk({ url, seconds, connections, tokensFile, withEtag });
  return loadWithAutocannon({ url, seconds, connections, tokensFile, withEtag });
}

function loadWithWrk({ url, seconds, connections, tokensFile, withEtag }) {
  const script = path.join(os.tmpdir(), `svc-bench-${process.pid}.lua`);
  fs.writeFileSync(
    script,
    `
local tokens = {}
local etags = {}
local i = 0
init = function(args)
  ${
    tokensFile
      ? `for line in io.lines("${tokensFile}") do
    local token, etag = line:match("^(%S+)%s+(%S+)$")
    tokens[#tokens + 1] = token
    etags[#etags + 1] = etag
  end`
      : ''
  }
  i = math.random(1, math.max(#tokens, 1))
end
request = function()
  if #tokens == 0 then return wrk.format("GET") end
  i = i % #tokens + 1
  local headers = { ["Authorization"] = "Bearer " .. tokens[i] }
  ${withEtag ? 'headers["If-None-Match"] = etags[i]' : ''}
  return wrk.format("GET", nil, headers)
end
`,
  );
  const [command, args] = wrkCommand({ url, seconds, connections, script });
  const out = execFileSync(command, args, { encoding: 'utf8' });
  fs.rmSync(script, { force: true });
  const { rate, p99, non2xx, errors } = wrkFigures(out);
  return { rps: rate, p99, non2xx, errors, tool: 'wrk' };
}

/** wrk on the core the server is not on: one thread, `connections`, for `seconds`, with `script`. */
function wrkCommand({ url, seconds, connections, script }) {
  return pinned(cores >= 2 ? 1 : 0, 'wrk', [
    '-t1',
    `-c${connections}`,
    `-d${seconds}s`,
    '--latency',
    '-s',
    script,
    url,
  ]);
}

/** What wrk --latency printed: the rate, p50 and p99 (ms), non-2xx answers, socket errors. */
function wrkFigures(out) {
  const percentile = (p) => parseWrkLatency(new RegExp(`${p}%\\s+([\\d.]+\\w+)`).exec(out)?.[1]);
  return {
    rate: Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]),
    p50: percentile(50),
    p99: percentile(99),
    non2xx: Number(/Non-2xx or 3xx responses:\s+(\d+)/.exec(out)?.[1] ?? 0),
    errors: /Socket errors:.*/.exec(out)?.[0] ?? '',
  };
}

/**
 * Requests at a steady rate, from the core the server is not on: wrk whose connections each
 * wait `connections / rate` seconds on average between requests (drawn at random, the first
 * wait too: with a fixed wait every connection sent its first request at the same moment, a
 * burst of `connections` requests that set the p99 of a slow route), so the rate holds
 * whatever the answer time (wrk2 is not in Debian). `requests` are [method, path, headers, body] tuples sent in turn.
 * Resolves with the rate reached and the latency percentiles (ms).
 */
export function paced({ url, seconds, rate, connections, requests }) {
  const script = path.join(os.tmpdir(), `svc-paced-${process.pid}-${Math.random().toString(36).slice(2)}.lua`);
  const lua = (value) => JSON.stringify(value ?? '');
  const entries = requests.map(([method, p, headers, body]) => {
    const luaHeaders = Object.entries(headers).map(([k, v]) => `[${lua(k)}] = ${lua(v)}`);
    return `  { ${lua(method)}, ${lua(p)}, { ${luaHeaders.join(', ')} }, ${body === undefined ? 'nil' : lua(body)} },`;
  });
  fs.writeFileSync(
    script,
    `
local requests = {
${entries.join('\n')}
}
local i = 0
init = function(args) i = math.random(0, #requests - 1) end
request = function()
  i = i % #requests + 1
  local r = requests[i]
  return wrk.format(r[1], r[2], r[3], r[4])
end
-- wrk asks before each request, the first too: a wait drawn between 0 and twice the mean,
-- so that the connections do not all send at once at the start and stay spread after.
delay = function() return math.random(0, ${Math.round((2 * connections * 1000) / rate)}) end
`,
  );
  const [command, args] = wrkCommand({ url, seconds, connections, script });
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.once('exit', (code) => {
      fs.rmSync(script, { force: true });
      if (code !== 0) return reject(new Error(`wrk exited with ${code}:\n${out}`));
      resolve(wrkFigures(out));
    });
  });
}

function parseWrkLatency(text) {
  if (!text) return Number.NaN;
  const value = Number.parseFloat(text);
  if (text.endsWith('us')) return value / 1000;
  if (text.endsWith('ms')) return value;
  if (text.endsWith('s')) return value * 1000;
  return value;
}

async function loadWithAutocannon({ url, seconds, connections, tokensFile, withEtag }) {
  const { default: autocannon } = await import('autocannon');
  const lines = tokensFile ? fs.readFileSync(tokensFile, 'utf8').trim().split('\n') : [];
  let i = 0;
  const result = await autocannon({
    url,
    connections,
    duration: seconds,
    requests: [
      {
        setupRequest: (request) => {
          if (lines.length === 0) return request;
          const [token, etag] = lines[i++ % lines.length].split(' ');
          request.headers = { authorization: `Bearer ${token}`, ...(withEtag ? { 'if-none-match': etag } : {}) };
          return request;
        },
      },
    ],
  });
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors ? `errors ${result.errors}` : '',
    tool: 'autocannon (in process; wrk gives truer figures)',
  };
}

/** One line of figures; `r.ratio`, when given, is the median of per-round ratios. */
export function printRow(label, r, baseline) {
  const ratio = (r.ratio ?? (baseline ? r.rps / baseline.rps : 1)).toFixed(2);
  const extra = [r.non2xx ? `non-2xx/3xx ${r.non2xx}` : '', r.errors].filter(Boolean).join(' ');
  console.log(
    `${label.padEnd(44)} ${r.rps.toFixed(0).padStart(8)} req/s   p99 ${r.p99.toFixed(2).padStart(7)} ms   ratio ${ratio}${extra ? `   ${extra}` : ''}`,
  );
}

/**
 * Runs `run(label, database)` on a new SQLite file (in bench/.work, removed after) and on a
 * throwaway PostgreSQL cluster when its binaries are installed; BENCH_DIALECTS (`sqlite`,
 * `postgres`) picks one.
 */
export async function onEachDatabase(name, run) {
  const dialects = (process.env.BENCH_DIALECTS ?? 'sqlite,postgres').split(',');
  if (dialects.includes('sqlite')) {
    const dir = path.join(import.meta.dirname, '..', '.work', `${name}-sqlite-${process.pid}`);
    fs.mkdirSync(dir, { recursive: true });
    try {
      await run('SQLite', { dialect: 'sqlite', file: path.join(dir, 'svc.db') });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }
  if (!dialects.includes('postgres')) return;
  if (!findPostgresBin()) {
    console.log('\nPostgreSQL: skipped (no server binaries; apt-get install -y postgresql)');
    return;
  }
  const cluster = await startThrowawayPostgres({ settings: { shared_buffers: '512MB', max_wal_size: '4GB' } });
  try {
    await run('PostgreSQL', { dialect: 'postgres', url: cluster.url });
  } finally {
    cluster.stop();
  }
}

/** The value below which `p` percent of `values` fall. */
export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** A GET through the app (Fastify inject) with `apiKey`: its time in ms and its JSON; anything but 200 throws. */
export const timedGet = (app, apiKey) => async (url) => {
  const begin = performance.now();
  const answer = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${apiKey}` } });
  const ms = performance.now() - begin;
  if (answer.statusCode !== 200) throw new Error(`${url}: ${answer.statusCode} ${answer.body}`);
  return [ms, answer.json()];
};
