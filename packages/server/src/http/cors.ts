import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/schema.js';
import { listAllowedOrigins } from '../modules/projects/repo.js';

/** Other processes may add projects too; re-read the origins at least this often. */
const REFRESH_MS = 30_000;
const ALLOW_METHODS = 'GET, POST, DELETE';
const ALLOW_HEADERS = 'Authorization, Content-Type, If-None-Match';
const EXPOSE_HEADERS = 'ETag, Retry-After';
const MAX_AGE = '600';

/**
 * CORS for the widget: a page may call the API when its origin is in some project's
 * `allowedOrigins`. Requests carry bearer tokens, never cookies, so no credentials mode.
 *
 * Written here rather than with @fastify/cors: that plugin copies its options and builds
 * closures on every request, with or without an Origin header, which cost the polled
 * unread-count about a tenth of its throughput. Here a same-origin request costs one
 * header read, and a cross-origin one a Set lookup.
 */
export function registerCors(app: FastifyInstance, db: Db): { invalidate: () => void } {
  let origins = new Set<string>();
  let loadedAt = 0;
  let loading: Promise<void> | null = null;
  const refresh = () => {
    loading ??= listAllowedOrigins(db).then(
      (list) => {
        origins = new Set(list);
        loadedAt = Date.now();
        loading = null;
      },
      (error: unknown) => {
        loading = null;
        throw error;
      },
    );
    return loading;
  };

  const allow = (reply: FastifyReply, origin: string) => {
    reply.header('access-control-allow-origin', origin).header('vary', 'Origin');
    reply.header('access-control-expose-headers', EXPOSE_HEADERS);
  };

  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    const origin = request.headers.origin;
    if (origin === undefined) return done();
    const decide = () => {
      if (!origins.has(origin)) return done();
      allow(reply, origin);
      if (request.method === 'OPTIONS' && request.headers['access-control-request-method']) {
        reply
          .header('access-control-allow-methods', ALLOW_METHODS)
          .header('access-control-allow-headers', ALLOW_HEADERS)
          .header('access-control-max-age', MAX_AGE)
          .code(204)
          .send();
        return;
      }
      done();
    };
    if (Date.now() - loadedAt <= REFRESH_MS) return decide();
    refresh().then(decide, (error: Error) => done(error));
  });

  // Preflights need a route to land on; the hook above answers those it allows.
  app.options('*', { schema: { hide: true } }, (_request, reply) => reply.callNotFound());

  return {
    invalidate: () => {
      loadedAt = 0;
    },
  };
}
