import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Problem, type ServerInfo } from '@svc/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import client from 'prom-client';
import { Type } from 'typebox';
import { sendProblem } from '../../http/problem.js';
import { route } from '../../http/route.js';
import type { RouteMetrics } from '../../http/route-metrics.js';
import { signupOpen } from '../auth/service.js';

const tags = ['operations'];

/** Liveness, readiness and Prometheus metrics; not encapsulated, so every route registered after it is measured. */
const ops: FastifyPluginAsyncTypebox<{
  metrics: RouteMetrics;
  /** What GET /api/server says besides the version and whether sign-up is open. */
  server: Omit<ServerInfo, 'signup' | 'version'>;
}> = async (app, { metrics, server }) => {
  const ctx = app.ctx;
  const { metricsToken } = ctx.config;
  const expected = metricsToken === null ? null : Buffer.from(`Bearer ${metricsToken}`);
  const mayScrape = (authorization: string | undefined) => {
    if (expected === null) return true;
    const given = Buffer.from(authorization ?? '');
    return given.length === expected.length && timingSafeEqual(given, expected);
  };

  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  metrics.collectInto(registry);

  // Each route gets its own recorder when it is registered: nothing is looked up per request.
  // It runs as the response is sent (onSend): waiting for the socket to finish (onResponse)
  // cost the polled unread-count several per cent, and adds nothing but the kernel's write.
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat().join(',');
    const record = metrics.forRoute(methods, route.url);
    const onSend = (
      _request: FastifyRequest,
      reply: FastifyReply,
      payload: unknown,
      done: (error: null, payload: unknown) => void,
    ) => {
      record(reply.statusCode, reply.elapsedTime / 1000);
      done(null, payload);
    };
    route.onSend = [...[route.onSend ?? []].flat(), onSend] as typeof route.onSend;
  });

  route(app, 'GET /api/server', { tags }, async () => ({
    ...server,
    version: ctx.version,
    signup: await signupOpen(ctx.db, ctx.config.signup),
  }));

  // Probes and scrapes come every few seconds: logged only when something goes wrong.
  const logLevel = 'warn';
  app.get(
    '/healthz',
    {
      logLevel,
      schema: { tags, summary: 'The process is up', response: { 200: Type.Object({ status: Type.Literal('ok') }) } },
    },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      logLevel,
      schema: {
        tags,
        summary: 'The server takes requests: migrated, not shutting down, and the database answers',
        response: { 200: Type.Object({ status: Type.Literal('ready') }), 503: Problem },
      },
    },
    async (request, reply) => {
      const notReady = app.readiness.notReadyBecause;
      if (notReady) return sendProblem(reply, 'unavailable', notReady);
      try {
        await ctx.database.ping();
        return { status: 'ready' as const };
      } catch (error) {
        request.log.warn({ err: error }, 'readiness check failed');
        return sendProblem(reply, 'unavailable', 'The database is not reachable.');
      }
    },
  );

  app.get(
    '/metrics',
    { logLevel, schema: { tags, summary: 'Prometheus metrics', hide: true } },
    async (request, reply) => {
      if (!mayScrape(request.headers.authorization)) {
        reply.header('www-authenticate', 'Bearer');
        return sendProblem(reply, 'unauthenticated', 'Send the SVC_METRICS_TOKEN as "Authorization: Bearer <token>".');
      }
      reply.type(registry.contentType);
      return registry.metrics();
    },
  );
};

export const opsRoutes = fp(ops, { name: 'ops' });
