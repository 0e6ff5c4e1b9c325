import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Other processes may add projects too; re-read the origins at least this often. */
const REFRESH_MS = 30_000;
const ALLOW_METHODS = 'GET, POST, PUT, PATCH, DELETE';
const ALLOW_HEADERS = 'Authorization, Content-Type, If-None-Match';
const EXPOSE_HEADERS = 'ETag, Retry-After, X-Poll-Interval';
const MAX_AGE = '600';

/** The headers that let `origin` read an answer. */
export function corsHeaders(origin: string): Record<string, string> {
  return { 'access-control-allow-origin': origin, vary: 'Origin', 'access-control-expose-headers': EXPOSE_HEADERS };
}

/**
 * The origins allowed to call the API: every project's `allowedOrigins`, read from the
 * database and kept for REFRESH_MS (or until this process changes a project).
 */
export class AllowedOrigins {
  private origins = new Set<string>();
  private loadedAt = 0;
  private loading: Promise<void> | null = null;

  /** `load` reads every origin some project allows (the projects feature knows how). */
  constructor(private readonly load: () => Promise<string[]>) {}

  /** Whether `origin` may call the API; undefined while the list is due to be re-read. */
  allows(origin: string): boolean | undefined {
    if (Date.now() - this.loadedAt > REFRESH_MS) return undefined;
    return this.origins.has(origin);
  }

  refresh(): Promise<void> {
    this.loading ??= this.load().then(
      (list) => {
        this.origins = new Set(list);
        this.loadedAt = Date.now();
        this.loading = null;
      },
      (error: unknown) => {
        this.loading = null;
        throw error;
      },
    );
    return this.loading;
  }

  /** A project's origins changed: re-read them before the next cross-origin answer. */
  readonly invalidate = (): void => {
    this.loadedAt = 0;
  };
}

/**
 * CORS for the widget: a page may call the API when its origin is in some project's
 * `allowedOrigins`. Requests carry bearer tokens, never cookies, so no credentials mode.
 *
 * Written here rather than with @fastify/cors: that plugin copies its options and builds
 * closures on every request, with or without an Origin header, which cost the polled
 * unread-count about a tenth of its throughput. Here a same-origin request costs one
 * header read, and a cross-origin one a Set lookup.
 */
export function registerCors(app: FastifyInstance, origins: AllowedOrigins): void {
  app.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void) => {
    // Every answer depends on the Origin header (allowed or not, or none): caches must know.
    reply.header('vary', 'Origin');
    const origin = request.headers.origin;
    if (origin === undefined) return done();
    const decide = (allowed: boolean) => {
      if (!allowed) return done();
      reply.headers(corsHeaders(origin));
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
    const allowed = origins.allows(origin);
    if (allowed !== undefined) return decide(allowed);
    origins.refresh().then(
      () => decide(origins.allows(origin) === true),
      (error: Error) => done(error),
    );
  });

  // Preflights need a route to land on; the hook above answers those it allows.
  app.options('*', { schema: { hide: true } }, (_request, reply) => reply.callNotFound());
}
