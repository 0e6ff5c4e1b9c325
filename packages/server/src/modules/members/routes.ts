import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { toPage } from '../../http/pagination.js';
import { route } from '../../http/route.js';
import { presentUser } from '../auth/presenter.js';
import { presentClient, presentMember } from './presenter.js';
import * as service from './service.js';

const tags = ['workspace'];

export const memberRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  route(app, 'POST /api/workspace/members', { tags }, async (request, reply) => {
    const user = await service.addMember(ctx, request.actor, request.body);
    return reply.code(201).send({ user: presentUser(user) });
  });

  route(app, 'POST /api/workspace/quick-access', { tags }, async (request, reply) => {
    const { user, accessToken, accessUrl } = await service.createQuickAccess(ctx, request.actor, request.body);
    return reply.code(201).send({ user: presentUser(user), accessToken, accessUrl });
  });

  route(app, 'POST /api/workspace/agents', { tags }, async (request, reply) => {
    const { agent, apiKey } = await service.createAgent(ctx, request.actor, request.body);
    return reply.code(201).send({ agent: presentMember({ ...agent, totp_enabled_at: null }, request.actor), apiKey });
  });

  route(app, 'POST /api/workspace/agents/{id}/api-keys', { tags }, async (request, reply) =>
    reply.code(201).send(await service.createAgentKey(ctx, request.actor, request.params.id, request.body.name)),
  );

  route(app, 'GET /api/workspace/members', { tags }, async (request) => {
    const { rows, limit } = await service.listMembers(ctx, request.actor, request.query);
    return toPage(rows, limit, (row) => presentMember(row, request.actor));
  });

  route(app, 'PATCH /api/workspace/members/{id}', { tags }, async (request) => ({
    user: presentUser(await service.changeRole(ctx, request.actor, request.params.id, request.body.role)),
  }));

  route(app, 'DELETE /api/workspace/members/{id}', { tags }, async (request, reply) => {
    await service.removeMember(ctx, request.actor, request.params.id);
    return reply.code(204).send(null);
  });

  route(app, 'GET /api/workspace/quick-access', { tags }, async (request) => {
    const { rows, limit } = await service.listClients(ctx, request.actor, request.query);
    return toPage(rows, limit, presentClient);
  });

  route(app, 'POST /api/workspace/quick-access/{id}/rotate', { tags }, async (request) =>
    service.rotateAccessLink(ctx, request.actor, request.params.id),
  );

  route(app, 'DELETE /api/workspace/quick-access/{id}', { tags }, async (request, reply) => {
    await service.revokeClient(ctx, request.actor, request.params.id);
    return reply.code(204).send(null);
  });
};
