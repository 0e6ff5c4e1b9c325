import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { scopeOf } from '../../actor.js';
import { clientOf } from '../../http/client.js';
import { route } from '../../http/route.js';
import { consumeRateLimit } from '../../limits/rate-limit.js';
import { presentProject } from './presenter.js';
import { listProjects } from './repo.js';
import * as service from './service.js';

const tags = ['projects'];

export const projectRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  route(app, 'POST /api/projects', { tags }, async (request, reply) =>
    reply.code(201).send(presentProject(await service.createProject(ctx, request.actor, request.body))),
  );

  route(app, 'GET /api/projects', { tags }, async (request) => ({
    items: (await listProjects(ctx.db, scopeOf(request.actor))).map(presentProject),
  }));

  route(app, 'GET /api/projects/{key}', { tags }, async (request) =>
    presentProject(await service.getProject(ctx, request.actor, request.params.key)),
  );

  route(app, 'PATCH /api/projects/{key}', { tags }, async (request) =>
    presentProject(await service.updateProject(ctx, request.actor, request.params.key, request.body)),
  );

  route(app, 'DELETE /api/projects/{key}', { tags }, async (request, reply) => {
    await service.deleteProject(ctx, request.actor, request.params.key);
    return reply.code(204).send(null);
  });

  route(app, 'GET /api/projects/{key}/refused-origins', { tags }, async (request) => ({
    items: (await service.refusedOrigins(ctx, request.actor, request.params.key, ctx.clock.now())).map((row) => ({
      origin: row.origin,
      firstSeenAt: row.first_seen_at,
      lastSeenAt: row.last_seen_at,
      attempts: row.attempts,
    })),
  }));

  // Any page may ask, signed in or not: a widget on an origin no project allows cannot call
  // anything else, and says which origin to add only with this answer.
  route(app, 'GET /api/widget/origin-check', { tags }, async (request, reply) => {
    reply.header('access-control-allow-origin', '*');
    await consumeRateLimit(ctx.db, ctx.rules.originChecksPerAddress, clientOf(request).address, ctx.clock.now());
    return service.checkWidgetOrigin(ctx, request.query.project, request.headers.origin);
  });
};
