import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import { type LogDestination, writeStderrWithoutBlocking } from './logging.js';

class ShutdownOverdue extends Error {}

/**
 * SIGTERM or SIGINT (or a crash) drains in-flight requests, closes the database and
 * flushes the logs, then exits 0. Whatever has not settled after `timeoutMs` is named on
 * standard error and the process exits 1 anyway: a supervisor that sent SIGTERM must be
 * able to trust that the process is gone. A second signal during shutdown exits 1 at once.
 */
export function exitGracefully(app: FastifyInstance, logs: LogDestination, timeoutMs: number): void {
  const pending = new Set<string>();
  const step = async <T>(name: string, work: Promise<T>): Promise<T> => {
    pending.add(name);
    try {
      return await work;
    } finally {
      pending.delete(name);
    }
  };

  const shutDown = async (reason: { signal?: string; err?: Error }) => {
    app.readiness.phase = 'draining';
    if (reason.err) app.log.error({ err: reason.err }, 'uncaught error: shutting down');
    else app.log.info({ signal: reason.signal }, 'draining in-flight requests, then exiting');
    const httpClosed = app.server.listening
      ? new Promise<void>((resolve) => app.server.once('close', () => resolve()))
      : Promise.resolve();
    const closing = async () => {
      await Promise.all([
        step('draining in-flight requests', httpClosed),
        step('closing the server and its database', app.close()),
      ]);
      app.log.info('shutdown complete');
      // Lines a reader will not take are dropped after a second: they must not keep the process.
      await step('flushing the log', logs.flush(Math.min(1_000, timeoutMs / 2)));
    };
    let timer: NodeJS.Timeout | undefined;
    const overdue = new Promise<'overdue'>((resolve) => {
      timer = setTimeout(() => resolve('overdue'), timeoutMs);
    });
    const closed = closing().catch((error: unknown) => {
      app.log.error({ err: error }, 'shutdown failed');
      throw error;
    });
    const outcome = await Promise.race([closed, overdue]);
    clearTimeout(timer);
    if (outcome !== 'overdue') return;
    const connections = await openConnections(app);
    const still = [...pending].join('; ') || 'nothing named';
    await new Promise<void>((resolve) => {
      setTimeout(resolve, 250).unref();
      writeStderrWithoutBlocking(
        `Shutdown did not finish within ${timeoutMs} ms (SVC_SHUTDOWN_TIMEOUT_MS); still pending: ${still}; ${connections} connection(s) open. Exiting with 1.\n`,
        resolve,
      );
    });
    throw new ShutdownOverdue();
  };

  // close-with-grace exits 0 when shutDown resolves, 1 when it throws or a crash started it,
  // and 1 at once on a second signal. Its own timer is not used: ours reports what is pending.
  closeWithGrace({ delay: null, logger: false }, shutDown);
}

function openConnections(app: FastifyInstance): Promise<number | string> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('unknown'), 100);
    app.server.getConnections((error, count) => {
      clearTimeout(timer);
      resolve(error ? 'unknown' : count);
    });
  });
}
