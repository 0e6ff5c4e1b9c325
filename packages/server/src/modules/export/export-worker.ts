import { parentPort, workerData } from 'node:worker_threads';
import type { DatabaseConfig } from '../../config.js';
import { openReadingConnection } from '../../db/dialect/index.js';
import { yieldCoresToServer } from '../../threads.js';
import { type ExportJob, exportLines } from './export.js';
import type { FromServer, ToServer } from './export-thread.js';

// An export thread: reads and presents exports with a read-only connection of its own, one at
// a time as the server's thread asks (`export-thread.ts`), and sends their text back in chunks.

/** Text sent at once: large enough that messages are few, small enough to stream. */
const CHUNK_CHARS = 64 * 1024;

const port = parentPort;
if (!port) throw new Error('export-worker runs on a thread of its own');
const db = openReadingConnection((workerData as { data: DatabaseConfig }).data);
if (!db) throw new Error('this database cannot be read from another thread');
yieldCoresToServer();

/** Called when the server's thread asks for the next chunk (true) or for the export to stop (false). */
let answer: ((more: boolean) => void) | null = null;
/** Whether the server's thread asked the running export to stop (its client went away). */
let stopping = false;
const send = (message: ToServer) => port.postMessage(message);
/** Sends a chunk; resolves with whether the server's thread wants the next. */
const delivered = (chunk: string) =>
  stopping
    ? Promise.resolve(false)
    : new Promise<boolean>((resolve) => {
        answer = resolve;
        send({ chunk });
      });

async function run(job: ExportJob) {
  stopping = false;
  try {
    let chunk = '';
    for await (const line of exportLines(db as NonNullable<typeof db>, job)) {
      chunk += line;
      if (chunk.length < CHUNK_CHARS) continue;
      if (!(await delivered(chunk))) break;
      chunk = '';
    }
    if (chunk && !stopping) await delivered(chunk);
    send({ end: true });
  } catch (error) {
    send({ error: error instanceof Error ? error.message : String(error) });
  }
}

port.on('message', (message: FromServer) => {
  if ('job' in message) return void run(message.job);
  if ('stop' in message) stopping = true;
  const resolve = answer;
  answer = null;
  resolve?.(!stopping);
});
