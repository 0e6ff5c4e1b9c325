import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { toPage } from '../../http/pagination.js';
import { route } from '../../http/route.js';
import { listAudit, presentAudit, pruneAudit } from './audit.js';

/** How often events past their retention are deleted. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

export const auditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  route(
    app,
    'GET /api/workspace/audit',
    {
      tags: ['workspace'],
      summary: 'The audit log, newest first: sign-ins, sessions, people, links, keys and projects (admin)',
      description: `Kept ${ctx.config.auditRetentionDays} days (SVC_AUDIT_RETENTION_DAYS). Filter by action, by who acted (a user id), and by time.`,
    },
    async (request) => {
      const { rows, limit } = await listAudit(ctx.db, request.actor, request.query);
      return toPage(rows, limit, presentAudit);
    },
  );

  // Pruned in the background, once at start and then hourly; a failure is logged and retried the next hour.
  let pruning: Promise<void> = Promise.resolve();
  const prune = () => {
    pruning = pruneAudit(ctx.db, ctx.config.auditRetentionDays, ctx.clock.now()).then(
      (deleted) => {
        if (deleted)
          app.log.info(
            { deleted, retentionDays: ctx.config.auditRetentionDays },
            'audit events past their retention deleted',
          );
      },
      (error: Error) => app.log.warn({ err: error }, 'pruning the audit log failed'),
    );
  };
  let timer: ReturnType<typeof setInterval> | undefined;
  // Not before the schema is there: a server that listens first migrates after it is ready.
  app.addHook('onReady', async () => {
    void app.readiness.serving.then(() => {
      if (app.readiness.phase !== 'serving') return;
      prune();
      timer = setInterval(prune, PRUNE_EVERY_MS);
      timer.unref();
    });
  });
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await pruning;
  });
};
