import os from 'node:os';
import { Worker } from 'node:worker_threads';

// Threads beside the server's, for work that would otherwise hold it (an export presenting
// a million comments). Each is a module of this package started on a thread of its own.

/** The module `name` beside `base` (the caller's `import.meta.url`): its source or its build, as the caller is. */
export function moduleBeside(base: string, name: string): URL {
  return new URL(`./${name}${base.endsWith('.ts') ? '.ts' : '.js'}`, base);
}

/**
 * A thread running `entry` (a module of this package, beside the caller), given `data` as
 * its `workerData`. From the sources (`.ts`, the tests) a thread does not inherit the
 * process's TypeScript loader: it registers its own first.
 */
export function startThread(entry: URL, data: unknown): Worker {
  const loader = entry.pathname.endsWith('.ts') ? import.meta.resolve('tsx/esm/api') : null;
  const program = `
const { workerData } = require('node:worker_threads');
const ready = workerData.loader ? import(workerData.loader).then((tsx) => tsx.register()) : Promise.resolve();
ready.then(() => import(workerData.entry));`;
  return new Worker(program, { eval: true, workerData: { entry: entry.href, loader, data } });
}

/**
 * A thread's niceness: the scheduler gives a thread at 10 about a tenth of what one at 0 gets
 * when both want a core. Not 19 (about 1.5%): a busy machine's other processes (PostgreSQL's
 * own, beside the server) would all but stop the thread.
 */
const THREAD_NICENESS = 10;

/**
 * Has the scheduler give the server's thread the core first when both want it, so that a
 * thread's long work takes what the server leaves idle rather than slow every request. On
 * Linux each thread has a priority of its own; elsewhere this would lower the whole process,
 * so it is left as it is.
 */
export function yieldCoresToServer(): void {
  if (process.platform !== 'linux') return;
  try {
    os.setPriority(THREAD_NICENESS);
  } catch {
    // Refused (a container's policy): the thread runs at the server's priority.
  }
}
