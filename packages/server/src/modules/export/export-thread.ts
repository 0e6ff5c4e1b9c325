import os from 'node:os';
import { Readable } from 'node:stream';
import type { Worker } from 'node:worker_threads';
import type { DatabaseConfig } from '../../config.js';
import { readableFromAnotherThread } from '../../db/dialect/index.js';
import type { Db } from '../../db/schema.js';
import { moduleBeside, startThread } from '../../threads.js';
import { type ExportJob, exportLines } from './export.js';

// Exports run on threads of their own. Presenting a comment and writing it as JSON costs
// about 50 µs: a 300,000-comment export is some 15 s of work, which on the server's thread
// delayed every other request, any workspace's, for as long (`bench/heavy-reads`). Here the
// server's thread only passes the text on; the threads give it the cores first.

/**
 * Exports running at once; more wait for a thread. Each takes a core while it runs: one for
 * each core the process may use beyond the server's own, at least one and at most two. On a
 * server given one core (or two), a second thread would not export faster, only halve the
 * first's share and wake the server's thread later for every request, any workspace's.
 */
export const EXPORT_THREADS = Math.min(2, Math.max(1, os.availableParallelism() - 1));

/** What the server's thread sends a thread: an export to run, "send the next chunk", or "stop it". */
export type FromServer = { job: ExportJob } | { more: true } | { stop: true };
/** What a thread sends back: the next chunk of text, the end, or why it failed. */
export type ToServer = { chunk: string } | { end: true } | { error: string };

/** The export threads of one server, started when first needed. */
export class ExportThreads {
  private readonly idle: Worker[] = [];
  /** Threads started and not yet stopped, idle or busy. */
  private readonly threads = new Set<Worker>();
  private readonly queue: ((worker: Worker) => void)[] = [];
  private closed = false;

  /**
   * @param database where the threads read (each with a read-only connection of its own)
   * @param inProcess where to read instead when no other thread can reach the database (SQLite in memory)
   */
  constructor(
    private readonly database: DatabaseConfig,
    private readonly inProcess: Db,
  ) {}

  /** The text of the export, streamed as the client takes it; destroying the stream stops the export. */
  lines(job: ExportJob): Readable {
    if (!readableFromAnotherThread(this.database)) return Readable.from(exportLines(this.inProcess, job));
    let worker: Worker | null = null;
    let finished = false;
    /** Whether the thread waits for the stream to want more. */
    let held = false;
    const stream = new Readable({
      read: () => {
        if (worker && held) {
          held = false;
          worker.postMessage({ more: true } satisfies FromServer);
        }
      },
      destroy: (error, callback) => {
        // Stopped before its end (the client went away): the thread stops it, and says when.
        if (worker && !finished) worker.postMessage({ stop: true } satisfies FromServer);
        callback(error);
      },
    });
    const onMessage = (message: ToServer) => {
      if ('chunk' in message) {
        if (stream.destroyed) return;
        if (stream.push(message.chunk)) worker?.postMessage({ more: true } satisfies FromServer);
        else held = true;
        return;
      }
      finished = true;
      release();
      if (stream.destroyed) return;
      if ('end' in message) stream.push(null);
      else stream.destroy(new Error(`The export failed: ${message.error}`));
    };
    const onLost = (error: Error) => {
      if (finished) return;
      finished = true;
      stream.destroy(error);
    };
    const onExit = () => onLost(new Error('The export thread stopped before the export ended'));
    const release = () => {
      const done = worker;
      worker = null;
      if (!done) return;
      done.off('message', onMessage);
      done.off('error', onLost);
      done.off('exit', onExit);
      this.give(done);
    };
    this.take((given) => {
      if (stream.destroyed) return this.give(given);
      worker = given;
      given.on('message', onMessage);
      given.on('error', onLost);
      given.on('exit', onExit);
      given.postMessage({ job } satisfies FromServer);
    });
    return stream;
  }

  /** Ends the threads; exports still running fail. */
  async close(): Promise<void> {
    this.closed = true;
    this.queue.length = 0;
    await Promise.all([...this.threads].map((worker) => worker.terminate()));
  }

  /** Calls `use` with a thread as soon as one is free. */
  private take(use: (worker: Worker) => void) {
    const idle = this.idle.pop();
    if (idle) {
      idle.ref();
      return use(idle);
    }
    if (this.threads.size < EXPORT_THREADS) return use(this.start());
    this.queue.push(use);
  }

  /** A thread back from an export: to the next waiting, or idle (not keeping the process alive). */
  private give(worker: Worker) {
    const next = this.queue.shift();
    if (next) return next(worker);
    if (this.closed) return void worker.terminate();
    worker.unref();
    this.idle.push(worker);
  }

  private start(): Worker {
    const worker = startThread(moduleBeside(import.meta.url, 'export-worker'), this.database);
    this.threads.add(worker);
    // Its failures are the export's (`lines` listens while it runs one); idle, it has none to report.
    worker.on('error', () => {});
    // A thread that stops (ended mid-export, or failed to start) is replaced by the next export.
    worker.once('exit', () => {
      this.threads.delete(worker);
      const at = this.idle.indexOf(worker);
      if (at >= 0) this.idle.splice(at, 1);
      const next = this.queue.shift();
      if (next && !this.closed) this.take(next);
    });
    return worker;
  }
}
