import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { toPage } from '../../http/pagination.js';
import { route } from '../../http/route.js';
import { presentApiKey, presentWorkspaceApiKey } from './presenter.js';
import * as service from './service.js';

const tags = ['api keys'];

export const apiKeyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  route(app, 'GET /api/me/api-keys', { tags }, async (request) => {
    const { rows, limit } = await service.listApiKeys(ctx, request.actor, request.query);
    return toPage(rows, limit, presentApiKey);
  });

  route(app, 'POST /api/me/api-keys', { tags }, async (request, reply) =>
    reply.code(201).send(await service.createApiKey(ctx, request.actor, request.body.name)),
  );

  route(app, 'DELETE /api/me/api-keys/{id}', { tags }, async (request, reply) => {
    await service.revokeApiKey(ctx, request.actor, request.params.id);
    return reply.code(204).send(null);
  });

  route(app, 'GET /api/workspace/api-keys', { tags }, async (request) => {
    const { rows, limit } = await service.listWorkspaceApiKeys(ctx, request.actor, request.query);
    return toPage(rows, limit, presentWorkspaceApiKey);
  });

  route(app, 'DELETE /api/workspace/api-keys/{id}', { tags }, async (request, reply) => {
    await service.revokeWorkspaceApiKey(ctx, request.actor, request.params.id);
    return reply.code(204).send(null);
  });
};
