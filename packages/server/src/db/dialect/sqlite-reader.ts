import type { Worker } from 'node:worker_threads';
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
import { moduleBeside, startThread } from '../../threads.js';
import type { Tables } from '../schema.js';

// Long reads of a SQLite database off the server's thread. better-sqlite3 runs a statement on
// the thread that calls it, so a read of seconds (a year of insights, a page of an export over
// a million comments) would hold every other request, any workspace's, for that long. These run
// on a worker thread with a read-only connection of its own: the server's thread only sends the
// statement and receives the rows. Only reads (a write is refused); no transactions.

/** What the thread answers a statement (`sqlite-reader-worker.ts`). */
export type ReadAnswer =
  | { id: number; rows: unknown[] }
  | { id: number; error: { message: string; code: string | undefined } };

class ReadingThread implements DatabaseConnection {
  private worker: Worker | null = null;
  private next = 1;
  private readonly waiting = new Map<number, { resolve: (rows: unknown[]) => void; reject: (error: Error) => void }>();

  constructor(private readonly file: string) {}

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = startThread(moduleBeside(import.meta.url, 'sqlite-reader-worker'), this.file);
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
