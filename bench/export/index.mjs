// Benchmark of GET /api/workspace/export: a workspace of 100k and then 1M comments (with 20%
// replies and a timeline event each) streamed over HTTP as JSON Lines and as CSV, read by a
// client that keeps nothing. Prints the time, the rate, and the server process's memory: its
// resident size before the export (the baseline, same run) and the most it reached during it.
// Flat memory is a peak that stays near the baseline whatever the size.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { openApp } from '../lib/harness.mjs';
import { API_KEY, runSeed, seedStatements } from '../lib/seed.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const work = path.resolve(here, '../.work');
const LARGEST = Number(process.env.BENCH_COMMENTS ?? 1_000_000);
const SIZES = [...new Set([Math.min(100_000, LARGEST), LARGEST])];
const MB = 1024 * 1024;

const SCREENSHOTS = Number(process.env.BENCH_SCREENSHOTS ?? 2000);
const SCREENSHOT_BYTES = 256 * 1024;

async function measure(base, format, path = `/api/workspace/export?format=${format}`) {
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 20);
  const started = performance.now();
  const response = await fetch(`${base}${path}`, {
    headers: { authorization: `Bearer ${API_KEY}` },
  });
  if (!response.ok) throw new Error(`${format}: ${response.status} ${await response.text()}`);
  let bytes = 0;
  let lines = 0;
  for await (const chunk of response.body) {
    bytes += chunk.length;
    for (const byte of chunk) if (byte === 10) lines++;
  }
  const seconds = (performance.now() - started) / 1000;
  clearInterval(sampler);
  return { bytes, lines, seconds, baseline, peak };
}

async function run(comments) {
  const dataDir = path.join(work, `export-${process.pid}-${comments}`);
  const app = await openApp({ dialect: 'sqlite', file: path.join(dataDir, 'svc.db') });
  try {
    const started = Date.now();
    await runSeed(app, seedStatements('sqlite', { comments, replies: comments / 5, projects: 100, events: true }));
    console.log(
      `\n${comments} comments, ${comments / 5} replies, ${comments} timeline events: seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const memory = (r) =>
      `memory: ${(r.baseline / MB).toFixed(0)} MB before (baseline), ${(r.peak / MB).toFixed(0)} MB at most during it: ` +
      `${(r.peak / r.baseline).toFixed(2)}x baseline, +${((r.peak - r.baseline) / MB).toFixed(0)} MB`;
    for (const format of ['jsonl', 'csv']) {
      const r = await measure(base, format);
      console.log(
        `${format.padEnd(6)} ${(r.bytes / MB).toFixed(0).padStart(5)} MB, ${r.lines} lines in ${r.seconds.toFixed(1)} s ` +
          `(${Math.round(comments / r.seconds)} comments/s); ${memory(r)}`,
      );
    }
    if (comments === LARGEST && SCREENSHOTS > 0) {
      // Screenshots of incompressible bytes on the first comments, then the zip of them all.
      await sql`insert into attachments (id, workspace_id, comment_id, kind, content_type, bytes, size, created_at)
        select 'att_' || substr(id, 5), workspace_id, id, 'screenshot', 'image/png', randomblob(${SCREENSHOT_BYTES}), ${SCREENSHOT_BYTES}, created_at
        from comments order by id limit ${SCREENSHOTS}`.execute(app.database.db);
      const r = await measure(base, 'zip', '/api/workspace/export/screenshots');
      console.log(
        `zip    ${(r.bytes / MB).toFixed(0).padStart(5)} MB, ${SCREENSHOTS} screenshots of ${SCREENSHOT_BYTES / 1024} KB in ${r.seconds.toFixed(1)} s; ${memory(r)}`,
      );
    }
  } finally {
    await app.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log('export benchmark: the server and a client that keeps nothing, in one process (SQLite)');
fs.mkdirSync(work, { recursive: true });
for (const size of SIZES) await run(size);
