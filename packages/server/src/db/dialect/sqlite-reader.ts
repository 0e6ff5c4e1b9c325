import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  Kysely,
  type QueryResult,
  SqliteAdapter,
  SqliteIntrospector,
  SqliteQueryCompiler,
} from 'kysely';
import type { Tables } from '../schema.js';

// Long reads of a SQLite database off the server's thread. better-sqlite3 runs a statement on
// the thread that calls it, so a read of seconds (a year of insights, a page of an export over
// a million comments) would hold every other request, any workspace's, for that long. These run
// on a worker thread with a read-only connection of its own: the server's thread only sends the
// statement and receives the rows. Only reads (a write is refused); no transactions.

type ReadAnswer =
  | { id: number; rows: unknown[] }
  | { id: number; error: { message: string; code: string | undefined } };

/**
 * The thread's program: its own read-only connection to the file, running one statement at a
 * time as the server's thread asks. WAL lets it read beside the writer, on a snapshot of what was
 * committed when each statement began. Plain JavaScript given to the thread as text, so that it
 * runs the same from the build and from source (a thread does not inherit a TypeScript loader).
 */
const THREAD_PROGRAM = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
const connection = new SQLite(workerData.file, { readonly: true, fileMustExist: true });
connection.pragma('busy_timeout = 5000');
parentPort.on('message', ({ id, sql, parameters }) => {
  try {
    const statement = connection.prepare(sql);
    if (!statement.reader) throw Object.assign(new Error('Only reads run on the reading thread'), { code: 'READ_ONLY' });
    parentPort.postMessage({ id, rows: statement.all(...parameters) });
  } catch (error) {
    parentPort.postMessage({ id, error: { message: error.message, code: error.code } });
  }
});`;

/** Where the thread finds better-sqlite3: the same copy as this process. */
const driver = createRequire(import.meta.url).resolve('better-sqlite3');

class ReadingThread implements DatabaseConnection {
  private worker: Worker | null = null;
  private next = 1;
  private readonly waiting = new Map<number, { resolve: (rows: unknown[]) => void; reject: (error: Error) => void }>();

  constructor(private readonly file: string) {}

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(THREAD_PROGRAM, { eval: true, workerData: { file: this.file, driver } });
    worker.unref();
    worker.on('message', (answer: ReadAnswer) => {
      const waiter = this.waiting.get(answer.id);
      this.waiting.delete(answer.id);
      if ('rows' in answer) waiter?.resolve(answer.rows);
      else waiter?.reject(Object.assign(new Error(answer.error.message), { code: answer.error.code }));
    });
    // A thread that dies takes its reads with it; the next read starts another.
    const lost = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = null;
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
    };
    worker.on('error', lost);
    worker.on('exit', (code) => lost(new Error(`The reading thread stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const worker = this.started();
    const id = this.next++;
    const rows = await new Promise<unknown[]>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      // While a read waits, the thread keeps the process alive (a server closing waits for it).
      worker.ref();
      worker.postMessage({ id, sql: query.sql, parameters: query.parameters });
    }).finally(() => {
      if (this.waiting.size === 0) worker.unref();
    });
    return { rows: rows as R[] };
  }

  // biome-ignore lint/correctness/useYield: reads are answered whole
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('The reading thread answers whole results, not streams');
  }

  async close() {
    const worker = this.worker;
    this.worker = null;
    await worker?.terminate();
  }
}

class ReadingThreadDriver implements Driver {
  private readonly connection: ReadingThread;

  constructor(file: string) {
    this.connection = new ReadingThread(file);
  }

  async init() {}
  async acquireConnection() {
    return this.connection;
  }
  async beginTransaction(): Promise<void> {
    throw new Error('The reading thread runs no transaction');
  }
  async commitTransaction(): Promise<void> {}
  async rollbackTransaction(): Promise<void> {}
  async releaseConnection() {}
  async destroy() {
    await this.connection.close();
  }
}

/** A Kysely instance whose statements run on a thread of their own, reading `file`. */
export function sqliteReader(file: string): Kysely<Tables> {
  const dialect: Dialect = {
    createAdapter: () => new SqliteAdapter(),
    createDriver: () => new ReadingThreadDriver(file),
    createIntrospector: (db) => new SqliteIntrospector(db),
    createQueryCompiler: () => new SqliteQueryCompiler(),
  };
  return new Kysely<Tables>({ dialect });
}
