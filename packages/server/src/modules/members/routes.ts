import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { AddMemberBody, CreateQuickAccessBody, QuickAccessCreated, User } from '@svc/contract';
import { Type } from 'typebox';
import { problemResponses } from '../../http/problem.js';
import { presentUser } from '../auth/presenter.js';
import * as service from './service.js';

const tags = ['workspace'];

export const memberRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps = { db: app.database.db, database: app.database };

  app.post(
    '/api/workspace/members',
    {
      schema: {
        tags,
        summary: 'Add a team member (admin)',
        body: AddMemberBody,
        response: { 201: Type.Object({ user: User }), ...problemResponses(403, 409) },
      },
    },
    async (request, reply) => {
      const user = await service.addMember(deps, request.actor, request.body);
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
      const { user, accessToken } = await service.createQuickAccess(deps, request.actor, request.body);
      return reply.code(201).send({ user: presentUser(user), accessToken });
    },
  );
};
