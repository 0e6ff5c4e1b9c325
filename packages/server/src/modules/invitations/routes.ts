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

  route(
    app,
    'POST /api/workspace/invites',
    { tags, summary: 'Invite someone to the team (admin): a one-time link to pass on; they choose name and password' },
    async (request, reply) =>
      reply.code(201).send(await service.createInvite(ctx, request.actor, request.body, baseUrl(request))),
  );

  route(
    app,
    'GET /api/workspace/invites',
    { tags, summary: 'Invitations not yet accepted nor expired (admin), oldest first' },
    async (request) => {
      const { rows, limit } = await service.listInvites(ctx, request.actor, request.query);
      return toPage(rows, limit, presentInvite);
    },
  );

  route(
    app,
    'DELETE /api/workspace/invites/{id}',
    { tags, summary: 'Withdraw an invitation (admin): its link stops working' },
    async (request, reply) => {
      await service.cancelInvite(ctx, request.actor, request.params.id);
      return reply.code(204).send(null);
    },
  );

  route(
    app,
    'POST /api/invites/accept',
    {
      tags,
      summary:
        "Accept an invitation: the account is created with the invitee's name and password, and signed in (or asked to enrol a second factor first, when the workspace requires one)",
    },
    async (request, reply) => {
      const signedIn = await service.acceptInvite(ctx, request.body, clientOf(request));
      return reply.code(201).send(presentSignIn(signedIn));
    },
  );

  route(
    app,
    'POST /api/workspace/members/{id}/password-reset',
    { tags, summary: "A one-time link to set a member's new password (admin); nothing is e-mailed" },
    async (request, reply) =>
      reply.code(201).send(await service.createPasswordReset(ctx, request.actor, request.params.id, baseUrl(request))),
  );

  route(
    app,
    'POST /api/password-reset/complete',
    {
      tags,
      summary:
        "Set a new password with a reset link's token; the member's other sessions end, a new one starts (or the second factor is asked first, as at sign-in)",
    },
    async (request) => {
      return presentSignIn(await service.completePasswordReset(ctx, request.body, clientOf(request)));
    },
  );
};
