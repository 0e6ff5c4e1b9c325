import type { FastifyInstance } from 'fastify';

/**
 * Upkeep the server runs by itself: `job` once the server serves (not before: a server that
 * listens first migrates after it is ready), then every `everyMs`. A failure is logged and the
 * job tried again next time; closing the server waits for a run in flight.
 */
export function runWhileServing(app: FastifyInstance, everyMs: number, job: () => Promise<void>, failure: string) {
  let running: Promise<void> = Promise.resolve();
  const run = () => {
    running = job().catch((error: Error) => app.log.warn({ err: error }, failure));
  };
  let timer: ReturnType<typeof setInterval> | undefined;
  app.addHook('onReady', async () => {
    void app.readiness.serving.then(() => {
      if (app.readiness.phase !== 'serving') return;
      run();
      timer = setInterval(run, everyMs);
      timer.unref();
    });
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}
