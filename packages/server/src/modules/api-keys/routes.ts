import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiKey, ApiKeyCreated, CreateApiKeyBody, IdParams, Page, PageOnlyQuery, WorkspaceApiKey } from '@svc/contract';
import { Type } from 'typebox';
import { toPage } from '../../http/pagination.js';
import { problemResponses } from '../../http/problem.js';
import { presentApiKey, presentWorkspaceApiKey } from './presenter.js';
import * as service from './service.js';

const tags = ['api keys'];

export const apiKeyRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  app.get(
    '/api/me/api-keys',
    {
      schema: {
        tags,
        summary: 'Your API keys (never their secrets), newest first',
        querystring: PageOnlyQuery,
        response: { 200: Page(ApiKey), ...problemResponses(403) },
      },
    },
    async (request) => {
      const { rows, limit } = await service.listApiKeys(ctx.db, request.actor, request.query);
      return toPage(rows, limit, presentApiKey);
    },
  );

  app.post(
    '/api/me/api-keys',
    {
      schema: {
        tags,
        summary: 'Create an API key; the key is shown once',
        description:
          'At most SVC_API_KEYS_PER_USER live keys per person (409 past it), created at most SVC_API_KEYS_PER_HOUR an hour (429).',
        body: CreateApiKeyBody,
        response: { 201: ApiKeyCreated, ...problemResponses(403, 409, 429) },
      },
    },
    async (request, reply) => reply.code(201).send(await service.createApiKey(ctx, request.actor, request.body.name)),
  );

  app.delete(
    '/api/me/api-keys/:id',
    {
      schema: {
        tags,
        summary: 'Revoke an API key, at once',
        params: IdParams,
        response: { 204: Type.Null(), ...problemResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await service.revokeApiKey(ctx, request.actor, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/workspace/api-keys',
    {
      schema: {
        tags,
        summary: 'Every API key of the workspace with its owner, newest first (admin; never the secrets)',
        querystring: PageOnlyQuery,
        response: { 200: Page(WorkspaceApiKey), ...problemResponses(403) },
      },
    },
    async (request) => {
      const { rows, limit } = await service.listWorkspaceApiKeys(ctx.db, request.actor, request.query);
      return toPage(rows, limit, presentWorkspaceApiKey);
    },
  );

  app.delete(
    '/api/workspace/api-keys/:id',
    {
      schema: {
        tags,
        summary: "Revoke anyone's API key (admin), at once",
        params: IdParams,
        response: { 204: Type.Null(), ...problemResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await service.revokeWorkspaceApiKey(ctx, request.actor, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
