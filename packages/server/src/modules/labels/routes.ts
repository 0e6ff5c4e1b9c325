import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { route } from '../../http/route.js';
import * as service from './service.js';

const tags = ['workspace'];

export const labelRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  route(
    app,
    'GET /api/workspace/labels',
    { tags, summary: "The workspace's labels, by name (the team)" },
    async (request) => ({ items: await service.listLabels(ctx, request.actor) }),
  );

  route(
    app,
    'POST /api/workspace/labels',
    {
      tags,
      summary: 'Create a label (admin)',
      description: `A name (unique in the workspace, whatever its case) and a colour of the palette. At most ${service.LABELS_MAX} labels.`,
    },
    async (request, reply) => reply.code(201).send(await service.createLabel(ctx, request.actor, request.body)),
  );

  route(
    app,
    'PATCH /api/workspace/labels/{id}',
    { tags, summary: 'Rename a label or change its colour (admin): every comment that has it shows the change' },
    async (request) => service.updateLabel(ctx, request.actor, request.params.id, request.body),
  );

  route(
    app,
    'DELETE /api/workspace/labels/{id}',
    { tags, summary: 'Delete a label (admin): it comes off every comment' },
    async (request, reply) => {
      await service.deleteLabel(ctx, request.actor, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
