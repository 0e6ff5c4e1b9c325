import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { route } from '../../http/route.js';
import * as service from './service.js';

const tags = ['workspace'];

export const labelRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  route(app, 'GET /api/workspace/labels', { tags }, async (request) => ({
    items: await service.listLabels(ctx, request.actor),
  }));

  route(app, 'POST /api/workspace/labels', { tags }, async (request, reply) =>
    reply.code(201).send(await service.createLabel(ctx, request.actor, request.body)),
  );

  route(app, 'PATCH /api/workspace/labels/{id}', { tags }, async (request) =>
    service.updateLabel(ctx, request.actor, request.params.id, request.body),
  );

  route(app, 'DELETE /api/workspace/labels/{id}', { tags }, async (request, reply) => {
    await service.deleteLabel(ctx, request.actor, request.params.id);
    return reply.code(204).send(null);
  });
};
