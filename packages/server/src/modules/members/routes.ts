import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AccessLink,
  AddMemberBody,
  CreateQuickAccessBody,
  IdParams,
  Member,
  Page,
  PageOnlyQuery,
  QuickAccessAccount,
  QuickAccessCreated,
  UpdateMemberBody,
  User,
} from '@svc/contract';
import { Type } from 'typebox';
import { toPage } from '../../http/pagination.js';
import { problemResponses } from '../../http/problem.js';
import { presentUser } from '../auth/presenter.js';
import { presentClient, presentMember } from './presenter.js';
import * as service from './service.js';

const tags = ['workspace'];

export const memberRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  app.post(
    '/api/workspace/members',
    {
      schema: {
        tags,
        summary: 'Add a team member with a password you choose (admin; for scripts)',
        description:
          'Kept for scripts and provisioning. People should rather be invited (POST /api/workspace/invites): they choose their own password.',
        body: AddMemberBody,
        response: { 201: Type.Object({ user: User }), ...problemResponses(403, 409) },
      },
    },
    async (request, reply) => {
      const user = await service.addMember(ctx, request.actor, request.body);
      return reply.code(201).send({ user: presentUser(user) });
    },
  );

  app.post(
    '/api/workspace/quick-access',
    {
      schema: {
        tags,
        summary: 'Create a quick-access (client) account and its access token',
        body: CreateQuickAccessBody,
        response: { 201: QuickAccessCreated, ...problemResponses(403, 409) },
      },
    },
    async (request, reply) => {
      const { user, accessToken, accessUrl } = await service.createQuickAccess(ctx, request.actor, request.body);
      return reply.code(201).send({ user: presentUser(user), accessToken, accessUrl });
    },
  );

  app.get(
    '/api/workspace/members',
    {
      schema: {
        tags,
        summary: 'The team (admins and members), oldest first',
        description: 'Admins see e-mails and last sign-ins; members see names and roles.',
        querystring: PageOnlyQuery,
        response: { 200: Page(Member), ...problemResponses(403) },
      },
    },
    async (request) => {
      const { rows, limit } = await service.listMembers(ctx.db, request.actor, request.query);
      return toPage(rows, limit, (row) => presentMember(row, request.actor));
    },
  );

  app.patch(
    '/api/workspace/members/:id',
    {
      schema: {
        tags,
        summary: "Change a member's role (admin); the last admin cannot be demoted",
        params: IdParams,
        body: UpdateMemberBody,
        response: { 200: Type.Object({ user: User }), ...problemResponses(403, 404, 409) },
      },
    },
    async (request) => ({
      user: presentUser(await service.changeRole(ctx, request.actor, request.params.id, request.body.role)),
    }),
  );

  app.delete(
    '/api/workspace/members/:id',
    {
      schema: {
        tags,
        summary: 'Remove a member (admin): sessions and API keys end at once; comments stay, by "Former member"',
        params: IdParams,
        response: { 204: Type.Null(), ...problemResponses(403, 404, 409) },
      },
    },
    async (request, reply) => {
      await service.removeMember(ctx, request.actor, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/workspace/quick-access',
    {
      schema: {
        tags,
        summary: 'The quick-access (client) accounts, oldest first',
        querystring: PageOnlyQuery,
        response: { 200: Page(QuickAccessAccount), ...problemResponses(403) },
      },
    },
    async (request) => {
      const { rows, limit } = await service.listClients(ctx.db, request.actor, request.query);
      return toPage(rows, limit, presentClient);
    },
  );

  app.post(
    '/api/workspace/quick-access/:id/rotate',
    {
      schema: {
        tags,
        summary: "Issue a new access link; the old one and the account's sessions stop working at once",
        params: IdParams,
        response: { 200: AccessLink, ...problemResponses(403, 404) },
      },
    },
    async (request) => service.rotateAccessLink(ctx, request.actor, request.params.id),
  );

  app.delete(
    '/api/workspace/quick-access/:id',
    {
      schema: {
        tags,
        summary: 'Revoke a quick-access account: its link and sessions end at once; its comments stay',
        params: IdParams,
        response: { 204: Type.Null(), ...problemResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await service.revokeClient(ctx, request.actor, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
