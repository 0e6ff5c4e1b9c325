import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Problem } from '@svc/contract';
import type { FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import client from 'prom-client';
import { Type } from 'typebox';
import { sendProblem } from '../../http/problem.js';
import { RouteMetrics } from './route-metrics.js';

const tags = ['operations'];

/** Liveness, readiness and Prometheus metrics; not encapsulated, so every route registered after it is measured. */
const ops: FastifyPluginAsyncTypebox = async (app) => {
  const registry = new client.Registry();
  client.collectDefaultMetrics({ register: registry });
  const metrics = new RouteMetrics(registry);

  // Each route gets its own recorder when it is registered: nothing is looked up per request.
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat().join(',');
    const record = metrics.forRoute(methods, route.url);
    const onResponse = (_request: FastifyRequest, reply: FastifyReply, done: () => void) => {
      record(reply.statusCode, reply.elapsedTime / 1000);
      done();
    };
    route.onResponse = [...[route.onResponse ?? []].flat(), onResponse] as typeof route.onResponse;
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
