import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { route } from '../../http/route.js';
import { authorize } from '../../policy.js';
import { storageOf } from './quota.js';

const tags = ['workspace'];

export const storageRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  route(app, 'GET /api/workspace/storage', { tags }, async (request) => {
    authorize(request.actor, 'workspace.readStorage');
    return storageOf(ctx.db, request.actor.workspaceId, ctx.rules.storageQuotaBytes);
  });
};
