import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import type { IncomingMessage } from 'node:http';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { createCaches } from './caches.js';
import { type Clock, systemClock } from './clock.js';
import type { Config } from './config.js';
import { openDatabase } from './db/dialect/index.js';
import { migrateToLatest } from './db/migrate.js';
import { AppError } from './errors.js';
import { registerConditionalGet } from './http/conditional.js';
import { AllowedOrigins, registerCors } from './http/cors.js';
import { FastPath } from './http/fast-path.js';
import { PollPace } from './http/poll-pace.js';
import { clientErrorResponse, registerProblemHandlers, sendFrameworkError } from './http/problem.js';
import { RouteMetrics } from './http/route-metrics.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { registerJsonParser, registerValidators } from './http/validation.js';
import { rateRules } from './limits/rules.js';
import { requestForLog } from './logging.js';
import { apiKeyRoutes } from './modules/api-keys/routes.js';
import { auditRoutes } from './modules/audit/routes.js';
import { registerAuthentication } from './modules/auth/authenticate.js';
import { authRoutes } from './modules/auth/routes.js';
import { signupOpen } from './modules/auth/service.js';
import { buildRoutes } from './modules/builds/routes.js';
import { cliRoutes, readCliBundle } from './modules/cli/routes.js';
import type { CommentEventSink } from './modules/comments/events.js';
import { commentRoutes } from './modules/comments/routes.js';
import { CommentWatch, commentChangeKey } from './modules/comments/watch.js';
import { consoleRoutes } from './modules/console/routes.js';
import { demoRoutes } from './modules/demo/routes.js';
import { exportRoutes } from './modules/export/routes.js';
import { insightsRoutes } from './modules/insights/routes.js';
import { invitationRoutes } from './modules/invitations/routes.js';
import { mcpRoutes } from './modules/mcp/routes.js';
import { memberRoutes } from './modules/members/routes.js';
import { notificationRoutes } from './modules/notifications/routes.js';
import { notificationSink } from './modules/notifications/service.js';
import { opsRoutes } from './modules/ops/routes.js';
import { listAllowedOrigins } from './modules/projects/repo.js';
import { projectRoutes } from './modules/projects/routes.js';
import { ssoRoutes } from './modules/sso/routes.js';
import { twoFactorRoutes } from './modules/two-factor/routes.js';
import { verificationRoutes } from './modules/verification/routes.js';
import { widgetRoutes } from './modules/widget/routes.js';
import { Readiness } from './readiness.js';
import { openSecretBox } from './secrets.js';
import type { RegisteredRoute } from './types.js';

export type { Config } from './config.js';
export { loadConfig } from './config.js';

/** The HTML pages the server renders: they get a Content-Security-Policy that lets them run. */
const HTML_PAGES = ['/demo', '/docs', '/sso'];
/** The server package's version: in the API reference and GET /api/server. */
const SERVER_VERSION = (
  JSON.parse(fs.readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

/** Answered in every phase of the process's life, for supervisors and load balancers. */
const PROBES = ['/healthz', '/readyz'];

/** Request bodies are small JSON documents; anything larger is refused with 413. */
export const BODY_LIMIT = 64 * 1024;

/** A client's X-Request-Id is kept only when it is a short token of safe characters. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

/**
 * Request ids: the client's X-Request-Id when it is safe to log, else one unique across
 * processes (a random process prefix and a counter, cheap per request).
 */
function requestIds(): (request: IncomingMessage) => string {
  const prefix = randomBytes(4).toString('hex');
  let next = 0;
  return (request) => {
    const given = request.headers['x-request-id'];
    return typeof given === 'string' && SAFE_REQUEST_ID.test(given) ? given : `${prefix}-${(next++).toString(36)}`;
  };
}

/**
 * A route that logs only warnings and worse (the polled unread-count) shares one logger
 * instead of creating a child per request; its error logs carry the request id themselves.
 */
function quietRouteLoggers(): Parameters<FastifyInstance['setChildLoggerFactory']>[0] {
  const shared = new Map<string, FastifyBaseLogger>();
  return function childLogger(logger, bindings, options) {
    const level = options.level;
    if (level === 'warn' || level === 'error') {
      const quiet = shared.get(level) ?? logger.child({}, { level });
      shared.set(level, quiet);
      return quiet;
    }
    return logger.child(bindings, options);
  };
}

/** Fastify's trustProxy for the configured proxies: a number of hops counts from the socket inwards. */
function trustedProxies(trust: number | string[]): string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

const HEADERS_TIMEOUT_MS = 15_000;
const REQUEST_TIMEOUT_MS = 90_000;

export interface AppOptions {
  /** Where log lines go; standard output (written synchronously) when not given. */
  logStream?: { write(line: string): void };
  /**
   * Leave the migrations to `app.migrate()`, for a server that listens first: until then
   * /readyz says why it is not ready and every other route answers 503.
   */
  deferMigrations?: boolean;
  /** What time it is for sessions' timeouts; the system's unless a test moves its own. */
  clock?: Clock;
}

/**
 * Builds the application: opens the database, migrates it, registers every route.
 * Listens on nothing; `server.ts` does that.
 */
export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  const database = openDatabase(config.database);
  const caches = createCaches(database);
  const origins = new AllowedOrigins(() => listAllowedOrigins(database.db));
  // A project's origins changed, in this process or another: re-read them before the next answer.
  database.changes.subscribe((change) => {
    if (change === 'reset' || change.kind === 'origins') origins.invalidate();
  });
  const metrics = new RouteMetrics();
  const fastPath = new FastPath(origins, (method, url) => metrics.forRoute(method, url));
  const app = Fastify({
    serverFactory: fastPath.serverFactory,
    bodyLimit: BODY_LIMIT,
    // Behind the configured proxies, request.ip (the throttles' client address) and
    // request.protocol come from X-Forwarded-For and -Proto; otherwise from the socket.
    ...(config.trustProxy === null ? {} : { trustProxy: trustedProxies(config.trustProxy) }),
    // genReqId reads (and checks) the header itself.
    requestIdHeader: false,
    genReqId: requestIds(),
    // A path Fastify cannot decode (bad percent-encoding, an over-long id) is answered
    // like every other error.
    frameworkErrors: (error, _request, reply) => sendFrameworkError(reply, error),
    // What Node cannot read as HTTP at all is answered as problem details too.
    clientErrorHandler: (error, socket) => {
      if (socket.writable) socket.end(clientErrorResponse(error));
      else socket.destroy(error);
    },
    // Requests are logged with their method, URL and addresses, never headers or bodies; a
    // secret someone put in a URL's query (an old access link to a page we serve) is masked.
    logger: {
      level: config.logLevel,
      serializers: { req: requestForLog },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
  }).withTypeProvider<TypeBoxTypeProvider>();

  // Slow clients hold no socket for ever: the headers within 15 s, the whole request (a long
  // poll waits up to 60 s) within 90 s.
  app.server.headersTimeout = HEADERS_TIMEOUT_MS;
  app.server.requestTimeout = REQUEST_TIMEOUT_MS;
  app.setChildLoggerFactory(quietRouteLoggers());
  const routeTable: RegisteredRoute[] = [];
  app.decorate('routeTable', routeTable);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) {
      if (method === 'HEAD') continue;
      routeTable.push({
        method,
        url: route.url,
        schema: route.schema,
        public: route.config?.public === true,
        hidden: route.schema?.hide === true,
      });
    }
  });
  app.decorate('database', database);
  app.decorateRequest('actor', null as never);
  app.addHook('preClose', async () => fastPath.close());
  app.addHook('onClose', () => database.close());

  const readiness = new Readiness();
  app.decorate('readiness', readiness);
  app.decorate('migrate', async () => {
    await database.withStartupLock(async () => migrateToLatest(database.db, await database.currentSchema()));
    readiness.phase = 'serving';
  });
  if (options.deferMigrations) {
    app.addHook('onRequest', async (request, reply) => {
      if (readiness.phase !== 'migrating' || PROBES.includes(request.url)) return;
      reply.header('retry-after', '5');
      throw new AppError('unavailable', readiness.notReadyBecause ?? '');
    });
  } else {
    try {
      await app.migrate();
    } catch (error) {
      await database.close();
      throw error;
    }
  }

  registerValidators(app);
  registerJsonParser(app);
  registerProblemHandlers(app);
  registerSecurityHeaders(app, HTML_PAGES);
  registerConditionalGet(app);
  // The OpenAPI document hears of every route registered after this, operations included.
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Feedback comments API',
        version: SERVER_VERSION,
        description:
          'Comments pinned on a web app, applied with a commit, verified by their author and marked Live by deploy reports. Authenticate with `Authorization: Bearer <token>`: a session token (svc_sess_…) or an API key (svc_key_…). Errors are RFC 9457 problem details with a stable `code`.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
  });
  const cli = readCliBundle();
  await app.register(opsRoutes, {
    metrics,
    metricsToken: config.metricsToken,
    server: {
      version: SERVER_VERSION,
      demo: config.demo,
      cli: cli ? { url: '/cli/svc-cli.mjs', sha256: cli.sha256 } : null,
    },
    signupOpen: () => signupOpen(database.db, config.signup),
  });
  const clock = options.clock ?? systemClock;
  registerAuthentication(app, database.db, caches.actors, config.sessions, clock);

  await app.register(swaggerUi, {
    routePrefix: '/docs',
    // Swagger UI finds its document relative to the page's address, query string included:
    // `/docs?x` would fetch `/docs?x/./json`. The page takes no parameters, so drop them.
    uiHooks: {
      onRequest: (request, reply, done) => {
        const [path, query] = request.url.split('?');
        if (query !== undefined && (path === '/docs' || path === '/docs/')) reply.redirect(path, 302);
        else done();
      },
    },
  });
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  registerCors(app, origins);

  const rules = rateRules(config.limits);
  const secrets = openSecretBox(config, (message) => app.log.warn(message));
  await app.register(authRoutes, { signup: config.signup, sessions: config.sessions, rules, secrets, clock });
  await app.register(twoFactorRoutes, { sessions: config.sessions, rules, secrets, clock });
  await app.register(ssoRoutes, { sessions: config.sessions, rules, secrets, clock, publicUrl: config.publicUrl });
  await app.register(memberRoutes);
  await app.register(auditRoutes, { retentionDays: config.auditRetentionDays, clock });
  await app.register(exportRoutes, { version: SERVER_VERSION });
  await app.register(insightsRoutes, { clock });
  await app.register(invitationRoutes, {
    deps: { sessions: config.sessions, rules, links: config.links },
    publicUrl: config.publicUrl,
  });
  await app.register(apiKeyRoutes, { rules });
  await app.register(projectRoutes, { rules, clock });
  const notifications = notificationSink(database);
  const events: CommentEventSink = {
    raise: notifications.raise,
    changed: (trx, where) => database.changes.publish(trx, { kind: 'comments', key: commentChangeKey(where) }),
  };
  const watch = new CommentWatch(database.changes);
  // Waiting requests answer at once when the server closes, so that closing does not wait for them.
  app.addHook('preClose', async () => watch.close());
  await app.register(commentRoutes, { events, rules, watch });
  await app.register(verificationRoutes, { events });
  const pace = new PollPace(config.pollFloorSeconds, config.pollAdaptive);
  app.addHook('onClose', () => pace.close());
  await app.register(notificationRoutes, { caches, fastPath, clock, pace });
  await app.register(buildRoutes, { reportsPerMinute: config.buildRateLimit, events });
  await app.register(mcpRoutes, { publicUrl: config.publicUrl, version: SERVER_VERSION, watch });
  await app.register(widgetRoutes);
  await app.register(cliRoutes, { bundle: cli });
  await app.register(consoleRoutes);
  await app.register(demoRoutes);

  return app;
}
