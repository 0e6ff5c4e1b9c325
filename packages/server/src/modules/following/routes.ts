import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { route } from '../../http/route.js';
import * as service from './service.js';

const tags = ['projects'];

export const followingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  route(app, 'GET /api/me/following', { tags }, async (request) => ({
    items: await service.listFollowing(ctx, request.actor),
  }));

  route(app, 'PUT /api/projects/{key}/following', { tags }, async (request) =>
    service.setFollowing(ctx, request.actor, request.params.key, request.body.following),
  );
};
