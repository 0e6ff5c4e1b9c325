import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Problem } from '@svc/contract';
import fp from 'fastify-plugin';
import client from 'prom-client';
import { Type } from 'typebox';
import { sendProblem } from '../../http/problem.js';

const tags = ['operations'];

/** Liveness, readiness and Prometheus metrics; not encapsulated, so its timing hook sees every route. */
const ops: FastifyPluginAsyncTypebox = async (app) => {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const requests = new client.Counter({
    name: 'svc_http_requests_total',
    help: 'HTTP requests answered, by route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const duration = new client.Histogram({
    name: 'svc_http_request_duration_seconds',
    help: 'Time to answer HTTP requests, by route',
    labelNames: ['method', 'route'],
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });

  app.addHook('onResponse', async (request, reply) => {
    // Unmatched URLs share one label so that scanners cannot blow up the series count.
    const route = request.routeOptions.url ?? 'unmatched';
    requests.inc({ method: request.method, route, status: reply.statusCode });
    duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
  });

  app.get(
    '/healthz',
    { schema: { tags, summary: 'The process is up', response: { 200: Type.Object({ status: Type.Literal('ok') }) } } },
    async () => ({ status: 'ok' as const }),
  );

  app.get(
    '/readyz',
    {
      schema: {
        tags,
        summary: 'The database answers',
        response: { 200: Type.Object({ status: Type.Literal('ready') }), 503: Problem },
      },
    },
    async (request, reply) => {
      try {
        await app.dialect.ping();
        return { status: 'ready' as const };
      } catch (error) {
        request.log.warn({ err: error }, 'readiness check failed');
        return sendProblem(reply, 'unavailable', 'The database is not reachable.');
      }
    },
  );

  app.get('/metrics', { schema: { tags, summary: 'Prometheus metrics', hide: true } }, async (_request, reply) => {
    reply.type(registry.contentType);
    return registry.metrics();
  });
};

export const opsRoutes = fp(ops, { name: 'ops' });
