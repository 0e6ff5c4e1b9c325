import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AcceptInviteBody,
  CompletePasswordResetBody,
  CreateInviteBody,
  IdParams,
  Invite,
  InviteCreated,
  Page,
  PageOnlyQuery,
  PasswordResetCreated,
  SessionResult,
} from '@svc/contract';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { toPage } from '../../http/pagination.js';
import { problemResponses } from '../../http/problem.js';
import { publicBase } from '../../http/server.js';
import { presentUser } from '../auth/presenter.js';
import { clientOf } from '../auth/service.js';
import { presentInvite } from './presenter.js';
import * as service from './service.js';

const tags = ['workspace'];

export const invitationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  /** Links start with SVC_PUBLIC_URL when set, else with the address the admin reached the server at. */
  const baseUrl = (request: FastifyRequest) => publicBase(request, ctx.config.publicUrl);

  app.post(
    '/api/workspace/invites',
    {
      schema: {
        tags,
        summary: 'Invite someone to the team (admin): a one-time link to pass on; they choose name and password',
        body: CreateInviteBody,
        response: { 201: InviteCreated, ...problemResponses(403, 409) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.createInvite(ctx, request.actor, request.body, baseUrl(request))),
  );

  app.get(
    '/api/workspace/invites',
    {
      schema: {
        tags,
        summary: 'Invitations not yet accepted nor expired (admin), oldest first',
        querystring: PageOnlyQuery,
        response: { 200: Page(Invite), ...problemResponses(403) },
      },
    },
    async (request) => {
      const { rows, limit } = await service.listInvites(ctx, request.actor, request.query);
      return toPage(rows, limit, presentInvite);
    },
  );

  app.delete(
    '/api/workspace/invites/:id',
    {
      schema: {
        tags,
        summary: 'Withdraw an invitation (admin): its link stops working',
        params: IdParams,
        response: { 204: Type.Null(), ...problemResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await service.cancelInvite(ctx, request.actor, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/invites/accept',
    {
      config: { public: true },
      schema: {
        tags,
        summary: "Accept an invitation: the account is created with the invitee's name and password, and signed in",
        body: AcceptInviteBody,
        response: { 201: SessionResult, ...problemResponses(409, 429) },
      },
    },
    async (request, reply) => {
      const { token, user } = await service.acceptInvite(ctx, request.body, clientOf(request));
      return reply.code(201).send({ token, user: presentUser(user) });
    },
  );

  app.post(
    '/api/workspace/members/:id/password-reset',
    {
      schema: {
        tags,
        summary: "A one-time link to set a member's new password (admin); nothing is e-mailed",
        params: IdParams,
        response: { 201: PasswordResetCreated, ...problemResponses(403, 404) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.createPasswordReset(ctx, request.actor, request.params.id, baseUrl(request))),
  );

  app.post(
    '/api/password-reset/complete',
    {
      config: { public: true },
      schema: {
        tags,
        summary: "Set a new password with a reset link's token; the member's other sessions end, a new one starts",
        body: CompletePasswordResetBody,
        response: { 200: SessionResult, ...problemResponses(429) },
      },
    },
    async (request) => {
      const { token, user } = await service.completePasswordReset(ctx, request.body, clientOf(request));
      return { token, user: presentUser(user) };
    },
  );
};
