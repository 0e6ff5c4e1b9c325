import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { runWhileServing } from '../../http/background.js';
import { route } from '../../http/route.js';
import { consumeRateLimit } from '../../limits/rate-limit.js';
import { authorize } from '../../policy.js';
import { getProject } from '../projects/service.js';
import { readInsights } from './insights.js';

/** How often the roll-ups' deltas are folded: between folds, reads sum the deltas of those minutes. */
const FOLD_EVERY_MS = 5 * 60 * 1000;

export const insightsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  runWhileServing(
    app,
    FOLD_EVERY_MS,
    async () => {
      await ctx.database.compactInsightRollups();
    },
    'folding the insight roll-ups failed',
  );
  route(app, 'GET /api/workspace/insights', { tags: ['workspace'] }, async (request) => {
    const { actor } = request;
    authorize(actor, 'workspace.readInsights');
    await consumeRateLimit(ctx.db, ctx.rules.insights, actor.id, ctx.clock.now());
    const project = request.query.project ? await getProject(ctx, actor, request.query.project) : null;
    return readInsights(ctx.database, actor, {
      projectId: project?.id ?? null,
      projectKey: project?.key ?? null,
      days: request.query.days ?? 30,
      now: ctx.clock.now(),
    });
  });
};
