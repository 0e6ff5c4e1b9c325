import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { toPage } from '../../http/pagination.js';
import { route } from '../../http/route.js';
import { presentApiKey, presentWorkspaceApiKey } from './presenter.js';
import * as service from './service.js';

const tags = ['api keys'];

export const apiKeyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  route(
    app,
    'GET /api/me/api-keys',
    { tags, summary: 'Your API keys (never their secrets), newest first' },
    async (request) => {
      const { rows, limit } = await service.listApiKeys(ctx, request.actor, request.query);
      return toPage(rows, limit, presentApiKey);
    },
  );

  route(
    app,
    'POST /api/me/api-keys',
    {
      tags,
      summary: 'Create an API key; the key is shown once',
      description:
        'At most SVC_API_KEYS_PER_USER live keys per person (409 past it), created at most SVC_API_KEYS_PER_HOUR an hour (429).',
    },
    async (request, reply) => reply.code(201).send(await service.createApiKey(ctx, request.actor, request.body.name)),
  );

  route(
    app,
    'DELETE /api/me/api-keys/{id}',
    { tags, summary: 'Revoke an API key, at once' },
    async (request, reply) => {
      await service.revokeApiKey(ctx, request.actor, request.params.id);
      return reply.code(204).send(null);
    },
  );

  route(
    app,
    'GET /api/workspace/api-keys',
    { tags, summary: 'Every API key of the workspace with its owner, newest first (admin; never the secrets)' },
    async (request) => {
      const { rows, limit } = await service.listWorkspaceApiKeys(ctx, request.actor, request.query);
      return toPage(rows, limit, presentWorkspaceApiKey);
    },
  );

  route(
    app,
    'DELETE /api/workspace/api-keys/{id}',
    { tags, summary: "Revoke anyone's API key (admin), at once" },
    async (request, reply) => {
      await service.revokeWorkspaceApiKey(ctx, request.actor, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
