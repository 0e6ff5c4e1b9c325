import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { toPage } from '../../http/pagination.js';
import { route } from '../../http/route.js';
import { presentBuild, presentPendingDeploy } from './presenter.js';
import * as service from './service.js';

const tags = ['builds'];

export const buildRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  route(app, 'POST /api/projects/{key}/builds', { tags }, async (request, reply) => {
    const result = await service.reportBuild(ctx, request.actor, request.params.key, request.body);
    return reply.code(result.firstSeen ? 201 : 200).send(result);
  });

  route(app, 'GET /api/projects/{key}/builds', { tags }, async (request) => {
    const { rows, limit, deployments } = await service.listBuilds(
      ctx,
      request.actor,
      request.params.key,
      request.query,
    );
    return toPage(rows, limit, presentBuild(deployments));
  });

  route(app, 'GET /api/projects/{key}/comments/pending-deploy', { tags }, async (request) => {
    const { rows, limit } = await service.listPendingDeploy(ctx, request.actor, request.params.key, request.query);
    return toPage(rows, limit, presentPendingDeploy);
  });
};
