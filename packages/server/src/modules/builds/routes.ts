import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  Build,
  BuildReportBody,
  BuildReportResult,
  Page,
  PageOnlyQuery,
  PendingDeploy,
  PendingDeployQuery,
  ProjectKeyParams,
} from '@svc/contract';
import { toPage } from '../../http/pagination.js';
import { problemResponses } from '../../http/problem.js';
import { presentBuild, presentPendingDeploy } from './presenter.js';
import * as service from './service.js';

const tags = ['builds'];

export const buildRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  app.post(
    '/api/projects/:key/builds',
    {
      schema: {
        tags,
        summary: 'Report a deployed build: its comments go Live',
        description:
          'Every SHA is trimmed and lowercased and must be 7-40 hex characters; one bad entry fails the whole report. A pending comment is deployed when its commit is the same commit (one SHA a prefix of the other) as sha or an entry of containsCommitShas. 201 when the sha is first seen for the project, 200 (nothing done) on a repeat. Rate limited per user.',
        params: ProjectKeyParams,
        body: BuildReportBody,
        response: { 200: BuildReportResult, 201: BuildReportResult, ...problemResponses(403, 404, 429) },
      },
    },
    async (request, reply) => {
      const result = await service.reportBuild(ctx, request.actor, request.params.key, request.body);
      return reply.code(result.firstSeen ? 201 : 200).send(result);
    },
  );

  app.get(
    '/api/projects/:key/builds',
    {
      schema: {
        tags,
        summary: "A project's reported builds, newest first",
        params: ProjectKeyParams,
        querystring: PageOnlyQuery,
        response: { 200: Page(Build), ...problemResponses(404) },
      },
    },
    async (request) => {
      const { rows, limit, deployments } = await service.listBuilds(
        ctx.db,
        request.actor,
        request.params.key,
        request.query,
      );
      return toPage(rows, limit, presentBuild(deployments));
    },
  );

  app.get(
    '/api/projects/:key/comments/pending-deploy',
    {
      schema: {
        tags,
        summary: 'Applied comments whose commit no reported build has carried yet, oldest first',
        params: ProjectKeyParams,
        querystring: PendingDeployQuery,
        response: { 200: Page(PendingDeploy), ...problemResponses(404) },
      },
    },
    async (request) => {
      const { rows, limit } = await service.listPendingDeploy(ctx.db, request.actor, request.params.key, request.query);
      return toPage(rows, limit, presentPendingDeploy);
    },
  );
};
