import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { clientOf } from '../../http/client.js';
import { toPage } from '../../http/pagination.js';
import { route } from '../../http/route.js';
import { workspaceAbilitiesOf } from '../../policy.js';
import { presentSession, presentUser, presentWorkspace } from './presenter.js';
import * as service from './service.js';

const tags = ['accounts'];

export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  route(app, 'POST /api/signup', { tags }, async (request, reply) => {
    const { token, user, workspace } = await service.signup(ctx, ctx.config.signup, request.body, clientOf(request));
    return reply.code(201).send({ token, user: presentUser(user), workspace: presentWorkspace(workspace) });
  });

  route(app, 'POST /api/auth/logout', { tags }, async (request, reply) => {
    await service.logout(ctx, request.actor);
    return reply.code(204).send(null);
  });

  route(app, 'GET /api/me', { tags }, async (request) => {
    const { user, workspace } = await service.me(ctx, request.actor);
    return {
      user: presentUser(user),
      workspace: presentWorkspace(workspace),
      can: workspaceAbilitiesOf(request.actor),
    };
  });

  route(app, 'PATCH /api/me', { tags }, async (request) =>
    presentUser(await service.updateMe(ctx, request.actor, request.body)),
  );

  route(app, 'PATCH /api/workspace', { tags: ['workspace'] }, async (request) =>
    presentWorkspace(await service.updateWorkspace(ctx, request.actor, request.body)),
  );

  route(app, 'GET /api/me/sessions', { tags }, async (request) => {
    const { rows, limit } = await service.listSessions(ctx, request.actor, request.query);
    return toPage(rows, limit, presentSession);
  });

  route(app, 'DELETE /api/me/sessions/{id}', { tags }, async (request, reply) => {
    await service.endSession(ctx, request.actor, request.params.id);
    return reply.code(204).send(null);
  });

  route(app, 'POST /api/me/sessions/end-others', { tags }, async (request) => ({
    ended: await service.endOtherSessions(ctx, request.actor),
  }));

  route(app, 'POST /api/me/password', { tags }, async (request) => ({
    ended: await service.changePassword(ctx, request.actor, request.body, clientOf(request)),
  }));
};
