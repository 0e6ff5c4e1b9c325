import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { toPage } from '../../http/pagination.js';
import { route } from '../../http/route.js';
import { presentUser } from '../auth/presenter.js';
import { presentClient, presentMember } from './presenter.js';
import * as service from './service.js';

const tags = ['workspace'];

export const memberRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  route(
    app,
    'POST /api/workspace/members',
    {
      tags,
      summary: 'Add a team member with a password you choose (admin; for scripts)',
      description:
        'Kept for scripts and provisioning. People should rather be invited (POST /api/workspace/invites): they choose their own password.',
    },
    async (request, reply) => {
      const user = await service.addMember(ctx, request.actor, request.body);
      return reply.code(201).send({ user: presentUser(user) });
    },
  );

  route(
    app,
    'POST /api/workspace/quick-access',
    { tags, summary: 'Create a quick-access (client) account and its access token' },
    async (request, reply) => {
      const { user, accessToken, accessUrl } = await service.createQuickAccess(ctx, request.actor, request.body);
      return reply.code(201).send({ user: presentUser(user), accessToken, accessUrl });
    },
  );

  route(
    app,
    'POST /api/workspace/agents',
    {
      tags,
      summary: 'Add an agent to the team, with its first API key (admin)',
      description:
        'An agent (a coding agent, a CI job) is an account of its own: work can be assigned to it by name, what it does is shown as its doing, and two agents claiming one comment are two claimants. It acts as a member through its API keys and never signs in; it is listed with the team (`agent: true`) and removed like a member. The key is in the answer, once.',
    },
    async (request, reply) => {
      const { agent, apiKey } = await service.createAgent(ctx, request.actor, request.body);
      return reply.code(201).send({ agent: presentMember({ ...agent, totp_enabled_at: null }, request.actor), apiKey });
    },
  );

  route(
    app,
    'POST /api/workspace/agents/{id}/api-keys',
    { tags, summary: 'Another API key for an agent (admin); the key is in the answer, once' },
    async (request, reply) =>
      reply.code(201).send(await service.createAgentKey(ctx, request.actor, request.params.id, request.body.name)),
  );

  route(
    app,
    'GET /api/workspace/members',
    {
      tags,
      summary: 'The team (admins and members), oldest first',
      description: 'Admins see e-mails and last sign-ins; members see names and roles.',
    },
    async (request) => {
      const { rows, limit } = await service.listMembers(ctx, request.actor, request.query);
      return toPage(rows, limit, (row) => presentMember(row, request.actor));
    },
  );

  route(
    app,
    'PATCH /api/workspace/members/{id}',
    { tags, summary: "Change a member's role (admin); the last admin cannot be demoted" },
    async (request) => ({
      user: presentUser(await service.changeRole(ctx, request.actor, request.params.id, request.body.role)),
    }),
  );

  route(
    app,
    'DELETE /api/workspace/members/{id}',
    { tags, summary: 'Remove a member (admin): sessions and API keys end at once; comments stay, by "Former member"' },
    async (request, reply) => {
      await service.removeMember(ctx, request.actor, request.params.id);
      return reply.code(204).send(null);
    },
  );

  route(
    app,
    'GET /api/workspace/quick-access',
    { tags, summary: 'The quick-access (client) accounts, oldest first' },
    async (request) => {
      const { rows, limit } = await service.listClients(ctx, request.actor, request.query);
      return toPage(rows, limit, presentClient);
    },
  );

  route(
    app,
    'POST /api/workspace/quick-access/{id}/rotate',
    { tags, summary: "Issue a new access link; the old one and the account's sessions stop working at once" },
    async (request) => service.rotateAccessLink(ctx, request.actor, request.params.id),
  );

  route(
    app,
    'DELETE /api/workspace/quick-access/{id}',
    { tags, summary: 'Revoke a quick-access account: its link and sessions end at once; its comments stay' },
    async (request, reply) => {
      await service.revokeClient(ctx, request.actor, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
