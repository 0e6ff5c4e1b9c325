import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { toPage } from '../../http/pagination.js';
import { route } from '../../http/route.js';
import { presentBuild, presentPendingDeploy } from './presenter.js';
import * as service from './service.js';

const tags = ['builds'];

export const buildRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  route(
    app,
    'POST /api/projects/{key}/builds',
    {
      tags,
      summary: 'Report a deployed build: its comments go Live',
      description:
        'Every SHA is trimmed and lowercased and must be 7-40 hex characters; one bad entry fails the whole report. A pending comment is deployed when its commit is the same commit (one SHA a prefix of the other) as sha or an entry of containsCommitShas. 201 when the sha is first seen for the project, 200 (nothing done) on a repeat. Rate limited per user.',
    },
    async (request, reply) => {
      const result = await service.reportBuild(ctx, request.actor, request.params.key, request.body);
      return reply.code(result.firstSeen ? 201 : 200).send(result);
    },
  );

  route(
    app,
    'GET /api/projects/{key}/builds',
    { tags, summary: "A project's reported builds, newest first" },
    async (request) => {
      const { rows, limit, deployments } = await service.listBuilds(
        ctx,
        request.actor,
        request.params.key,
        request.query,
      );
      return toPage(rows, limit, presentBuild(deployments));
    },
  );

  route(
    app,
    'GET /api/projects/{key}/comments/pending-deploy',
    { tags, summary: 'Applied comments whose commit no reported build has carried yet, oldest first' },
    async (request) => {
      const { rows, limit } = await service.listPendingDeploy(ctx, request.actor, request.params.key, request.query);
      return toPage(rows, limit, presentPendingDeploy);
    },
  );
};
