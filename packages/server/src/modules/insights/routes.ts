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
  route(
    app,
    'GET /api/workspace/insights',
    {
      tags: ['workspace'],
      summary: 'The loop in numbers: backlog, waits, fixes sent back, first-time-right, what is stuck (team)',
      description:
        'Over the last `days` (default 30), for the workspace or one project: open comments at the end of each day (UTC), median and 90th-percentile waits from written to first fix, fix to Live and Live to verified, how many fixes were sent back and how many verified comments were right the first time, everyone’s and split by how the fix was made (signed in, API key, MCP agent); the oldest open comments and those Live but never verified.',
    },
    async (request) => {
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
    },
  );
};
