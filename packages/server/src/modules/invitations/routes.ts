import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { clientOf } from '../../http/client.js';
import { toPage } from '../../http/pagination.js';
import { route } from '../../http/route.js';
import { publicBase } from '../../http/server.js';
import { presentSignIn } from '../auth/presenter.js';
import { presentInvite } from './presenter.js';
import * as service from './service.js';

const tags = ['workspace'];

export const invitationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  /** Links start with SVC_PUBLIC_URL when set, else with the address the admin reached the server at. */
  const baseUrl = (request: FastifyRequest) => publicBase(request, ctx.config.publicUrl);

  route(app, 'POST /api/workspace/invites', { tags }, async (request, reply) =>
    reply.code(201).send(await service.createInvite(ctx, request.actor, request.body, baseUrl(request))),
  );

  route(app, 'GET /api/workspace/invites', { tags }, async (request) => {
    const { rows, limit } = await service.listInvites(ctx, request.actor, request.query);
    return toPage(rows, limit, presentInvite);
  });

  route(app, 'DELETE /api/workspace/invites/{id}', { tags }, async (request, reply) => {
    await service.cancelInvite(ctx, request.actor, request.params.id);
    return reply.code(204).send(null);
  });

  route(app, 'POST /api/invites/accept', { tags }, async (request, reply) => {
    const signedIn = await service.acceptInvite(ctx, request.body, clientOf(request));
    return reply.code(201).send(presentSignIn(signedIn));
  });

  route(app, 'POST /api/workspace/members/{id}/password-reset', { tags }, async (request, reply) =>
    reply.code(201).send(await service.createPasswordReset(ctx, request.actor, request.params.id, baseUrl(request))),
  );

  route(app, 'POST /api/password-reset/complete', { tags }, async (request) => {
    return presentSignIn(await service.completePasswordReset(ctx, request.body, clientOf(request)));
  });
};
