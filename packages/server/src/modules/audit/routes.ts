import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { runWhileServing } from '../../http/background.js';
import { toPage } from '../../http/pagination.js';
import { route } from '../../http/route.js';
import { listAudit, presentAudit, pruneAudit } from './audit.js';

/** How often events past their retention are deleted. */
const PRUNE_EVERY_MS = 60 * 60 * 1000;

export const auditRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  route(app, 'GET /api/workspace/audit', { tags: ['workspace'] }, async (request) => {
    const { rows, limit } = await listAudit(ctx.db, request.actor, request.query);
    return toPage(rows, limit, presentAudit);
  });

  // Pruned in the background, once at start and then hourly.
  runWhileServing(
    app,
    PRUNE_EVERY_MS,
    async () => {
      const deleted = await pruneAudit(ctx.db, ctx.config.auditRetentionDays, ctx.clock.now());
      if (deleted) {
        app.log.info(
          { deleted, retentionDays: ctx.config.auditRetentionDays },
          'audit events past their retention deleted',
        );
      }
    },
    'pruning the audit log failed',
  );
};
