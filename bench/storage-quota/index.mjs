// Benchmark of the storage quota's count: what a workspace stores, read as the upload that
// checks its quota reads it (the running count on its row, kept by triggers: migration 0025)
// against adding up its images each time (as the schema indexes them, and with a covering index
// made for the run), at BENCH_IMAGES images (20 a thread); and an upload through the app (Fastify inject)
// against GET /healthz of the same app, in the same run. Prints p50 of each.
import { sql } from 'kysely';
import { onEachDatabase, openApp, percentile } from '../lib/harness.mjs';
import { API_KEY, numbers, pad, runSeed, WS, workspaceStatements } from '../lib/seed.mjs';

const IMAGES = Number(process.env.BENCH_IMAGES ?? 100_000);
/** Each image's bytes: far below a real picture's, so that the seed stays small; the sum without its index reads them all. */
const IMAGE_BYTES = Number(process.env.BENCH_IMAGE_BYTES ?? 2048);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const TS = '2026-01-01T00:00:00.000Z';

/** The median of `runs` timings of `fn`, in ms. */
async function median(fn, runs = RUNS) {
  await fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const begin = performance.now();
    await fn();
    times.push(performance.now() - begin);
  }
  return percentile(times, 50);
}

/** Images a seeded thread holds: a thread's images are its people's, 20 each at most. */
const PER_THREAD = 20;
const THREADS = Math.ceil(IMAGES / PER_THREAD);

function seedStatements(dialect) {
  const [withImages, fromImages] = numbers(dialect, IMAGES);
  const [withThreads, fromThreads] = numbers(dialect, THREADS);
  const bytes = dialect === 'sqlite' ? `zeroblob(${IMAGE_BYTES})` : `decode(repeat('00', ${IMAGE_BYTES}), 'hex')`;
  const ts = dialect === 'sqlite' ? `'${TS}'` : `timestamptz '${TS}'`;
  return [
    ...workspaceStatements(dialect, 1),
    `${withThreads}insert into comments (id, workspace_id, project_id, author_id, body, page_url, status, reply_count, created_at, updated_at)
      select ${pad(dialect, 'cmt', 'n')}, '${WS}', 'prj_${'0'.repeat(26)}', 'usr_${'0'.repeat(26)}', 'Pictures', 'https://p0.test/', 'open', 0, ${ts}, ${ts} ${fromThreads}`,
    // Of nobody (a former member): the key's person has their 20 a thread to attach.
    `${withImages}insert into images (id, workspace_id, comment_id, reply_id, event_id, kind, author_id, content_type, bytes, size, created_at)
      select ${pad(dialect, 'img', 'n')}, '${WS}', ${pad(dialect, 'cmt', `n / ${PER_THREAD}`)}, null, null, 'attachment', null,
      'image/png', ${bytes}, ${IMAGE_BYTES}, ${ts} ${fromImages}`,
  ];
}

async function run(label, database) {
  const app = await openApp(database);
  try {
    const started = Date.now();
    await runSeed(app, seedStatements(database.dialect));
    const { db } = app.database;
    console.log(
      `\n${label}: ${IMAGES} images of ${IMAGE_BYTES} bytes in one workspace, ${PER_THREAD} a thread; seeded in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    const count = () =>
      db.selectFrom('workspaces').select('stored_bytes').where('id', '=', WS).executeTakeFirstOrThrow();
    const sum = () =>
      db
        .selectFrom('images')
        .select((eb) => eb.fn.sum('size').as('bytes'))
        .where('workspace_id', '=', WS)
        .executeTakeFirstOrThrow();
    const counted = Number((await count()).stored_bytes);
    if (counted !== IMAGES * IMAGE_BYTES) throw new Error(`counted ${counted}, stored ${IMAGES * IMAGE_BYTES}`);
    const baseline = await median(count);
    const plain = await median(sum, Math.min(RUNS, 10));
    await sql`create index bench_images_size_idx on images (workspace_id, size)`.execute(db);
    await sql.raw(database.dialect === 'postgres' ? 'vacuum analyze images' : 'analyze images').execute(db);
    const covered = await median(sum);
    await sql`drop index bench_images_size_idx`.execute(db);
    const row = (what, ms) =>
      console.log(`  ${what.padEnd(58)} ${ms.toFixed(2).padStart(8)} ms  ${(ms / baseline).toFixed(0).padStart(6)}x`);
    row('the running count (what an upload reads): the baseline', baseline);
    row('a sum of the images, as the schema indexes them', plain);
    row('a sum of the images, over a covering index (workspace, size)', covered);

    // An upload through the app, next to the app's cheapest route: both about the same at any number of images.
    const headers = { authorization: `Bearer ${API_KEY}` };
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
      'base64',
    );
    const upload = async () => {
      const answer = await app.inject({
        method: 'POST',
        url: `/api/comments/cmt_${'0'.repeat(26)}/images`,
        headers: { ...headers, 'content-type': 'image/png' },
        payload: png,
      });
      if (answer.statusCode !== 201) throw new Error(`${answer.statusCode} ${answer.body}`);
    };
    const health = async () => {
      await app.inject({ method: 'GET', url: '/healthz' });
    };
    const healthMs = await median(health);
    const uploadMs = await median(upload, 19);
    console.log(
      `  an upload through the app ${uploadMs.toFixed(2)} ms, GET /healthz ${healthMs.toFixed(2)} ms (${(uploadMs / healthMs).toFixed(1)}x)`,
    );
  } finally {
    await app.close();
  }
}

await onEachDatabase('storage-quota', run);
