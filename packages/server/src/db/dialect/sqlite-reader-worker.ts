import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { yieldCoresToServer } from '../../threads.js';
import type { ReadAnswer } from './sqlite-reader.js';

// The reading thread (`sqlite-reader.ts`): its own read-only connection to the file, running
// one statement at a time as the server's thread asks. WAL lets it read beside the writer, on
// a snapshot of what was committed when each statement began.

const port = parentPort;
if (!port) throw new Error('sqlite-reader-worker runs on a thread of its own');
const connection = new SQLite((workerData as { data: string }).data, { readonly: true, fileMustExist: true });
connection.pragma('busy_timeout = 5000');
yieldCoresToServer();

port.on('message', ({ id, sql, parameters }: { id: number; sql: string; parameters: unknown[] }) => {
  let answer: ReadAnswer;
  try {
    const statement = connection.prepare(sql);
    if (!statement.reader)
      throw Object.assign(new Error('Only reads run on the reading thread'), { code: 'READ_ONLY' });
    answer = { id, rows: statement.all(...parameters) };
  } catch (error) {
    const { message, code } = error as { message: string; code?: string };
    answer = { id, error: { message, code } };
  }
  port.postMessage(answer);
});
