import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  CreateProjectBody,
  OriginCheck,
  OriginCheckQuery,
  Project,
  ProjectKeyParams,
  RefusedOrigin,
  UpdateProjectBody,
} from '@svc/contract';
import { Type } from 'typebox';
import { problemResponses } from '../../http/problem.js';
import { consumeRateLimit } from '../../limits/rate-limit.js';
import { scopeOf } from '../auth/actor.js';
import { clientOf } from '../auth/service.js';
import { presentProject } from './presenter.js';
import { listProjects } from './repo.js';
import * as service from './service.js';

const tags = ['projects'];

export const projectRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  app.post(
    '/api/projects',
    {
      schema: {
        tags,
        summary: 'Create a project (admin)',
        body: CreateProjectBody,
        response: { 201: Project, ...problemResponses(403, 409) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(presentProject(await service.createProject(ctx, request.actor, request.body))),
  );

  app.get(
    '/api/projects',
    {
      schema: {
        tags,
        summary: "The workspace's projects",
        response: { 200: Type.Object({ items: Type.Array(Project) }), ...problemResponses() },
      },
    },
    async (request) => ({ items: (await listProjects(ctx.db, scopeOf(request.actor))).map(presentProject) }),
  );

  app.get(
    '/api/projects/:key',
    {
      schema: {
        tags,
        summary: 'One project',
        params: ProjectKeyParams,
        response: { 200: Project, ...problemResponses(404) },
      },
    },
    async (request) => presentProject(await service.getProject(ctx.db, request.actor, request.params.key)),
  );

  app.patch(
    '/api/projects/:key',
    {
      schema: {
        tags,
        summary: "Change a project's name, repository URL, app URL or allowed origins (admin); the key stays",
        params: ProjectKeyParams,
        body: UpdateProjectBody,
        response: { 200: Project, ...problemResponses(403, 404) },
      },
    },
    async (request) =>
      presentProject(await service.updateProject(ctx, request.actor, request.params.key, request.body)),
  );

  app.delete(
    '/api/projects/:key',
    {
      schema: {
        tags,
        summary:
          'Delete a project with its comments, replies, notifications, builds and limited client accounts (admin)',
        params: ProjectKeyParams,
        response: { 204: Type.Null(), ...problemResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await service.deleteProject(ctx, request.actor, request.params.key);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/projects/:key/refused-origins',
    {
      schema: {
        tags,
        summary: "Origins the project's widget was refused on in the last 30 days, still not allowed (admin)",
        params: ProjectKeyParams,
        response: { 200: Type.Object({ items: Type.Array(RefusedOrigin) }), ...problemResponses(403, 404) },
      },
    },
    async (request) => ({
      items: (await service.refusedOrigins(ctx.db, request.actor, request.params.key, ctx.clock.now())).map((row) => ({
        origin: row.origin,
        firstSeenAt: row.first_seen_at,
        lastSeenAt: row.last_seen_at,
        attempts: row.attempts,
      })),
    }),
  );

  // Any page may ask, signed in or not: a widget on an origin no project allows cannot call
  // anything else, and says which origin to add only with this answer.
  app.get(
    '/api/widget/origin-check',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Whether the calling page (its Origin header) may use the widget of a project',
        description:
          "Readable from any origin. A refusal is noted for the project's admins (GET /api/projects/{key}/refused-origins) when only one project on the server has the key. Limited per client address.",
        querystring: OriginCheckQuery,
        response: { 200: OriginCheck, ...problemResponses(429) },
      },
    },
    async (request, reply) => {
      reply.header('access-control-allow-origin', '*');
      await consumeRateLimit(ctx.db, ctx.rules.originChecksPerAddress, clientOf(request).address, ctx.clock.now());
      return service.checkWidgetOrigin(ctx, request.query.project, request.headers.origin);
    },
  );
};
