import type { FastifyInstance } from 'fastify';
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import { migrateToLatest } from './db/migrate.js';
import { AppError } from './errors.js';
import { runWhileServing } from './http/background.js';
import { registerCors } from './http/cors.js';
import { FastPath } from './http/fast-path.js';
import { registerOpenApi } from './http/openapi.js';
import { RouteMetrics } from './http/route-metrics.js';
import { createHttpServer, type HttpOptions, registerPlumbing } from './http/server.js';
import { apiKeyRoutes } from './modules/api-keys/routes.js';
import { auditRoutes } from './modules/audit/routes.js';
import { registerAuthentication } from './modules/auth/authenticate.js';
import { authRoutes } from './modules/auth/routes.js';
import { buildRoutes } from './modules/builds/routes.js';
import { cliRoutes, readCliBundle } from './modules/cli/routes.js';
import { commentRoutes } from './modules/comments/routes.js';
import { consoleRoutes } from './modules/console/routes.js';
import { demoRoutes } from './modules/demo/routes.js';
import { exportRoutes } from './modules/export/routes.js';
import { EXTENSION_PAGE, extensionRoutes } from './modules/extension/routes.js';
import { followingRoutes } from './modules/following/routes.js';
import { insightsRoutes } from './modules/insights/routes.js';
import { invitationRoutes } from './modules/invitations/routes.js';
import { labelRoutes } from './modules/labels/routes.js';
import { mcpRoutes } from './modules/mcp/routes.js';
import { memberRoutes } from './modules/members/routes.js';
import { notificationRoutes } from './modules/notifications/routes.js';
import { opsRoutes } from './modules/ops/routes.js';
import { projectRoutes } from './modules/projects/routes.js';
import { signInRoutes } from './modules/sign-in/routes.js';
import { ssoRoutes } from './modules/sso/routes.js';
import { storageRoutes } from './modules/storage/routes.js';
import { twoFactorRoutes } from './modules/two-factor/routes.js';
import { verificationRoutes } from './modules/verification/routes.js';
import { widgetRoutes } from './modules/widget/routes.js';
import { Readiness } from './readiness.js';
import { closeContext, createContext, stopWaiting } from './wiring.js';

export type { Config } from './config.js';
export { loadConfig } from './config.js';

/** The HTML pages the server renders: they get a Content-Security-Policy that lets them run. */
const HTML_PAGES = ['/demo', '/docs', '/sso', EXTENSION_PAGE];

/** How long what a deletion left outside the live pages (SQLite's write-ahead log) may stay there. */
const ERASE_DELETED_EVERY_MS = 60_000;

/** Answered in every phase of the process's life, for supervisors and load balancers. */
const PROBES = ['/healthz', '/readyz'];

export interface AppOptions extends HttpOptions {
  /**
   * Leave the migrations to `app.migrate()`, for a server that listens first: until then
   * /readyz says why it is not ready and every other route answers 503.
   */
  deferMigrations?: boolean;
  /** What time it is for the rules that depend on it; the system's unless a test moves its own. */
  clock?: Clock;
}

/**
 * Builds the application: the context every part shares, the HTTP server, the database
 * migrated, every route. Listens on nothing; `server.ts` does that.
 */
export async function buildApp(config: Config, options: AppOptions = {}): Promise<FastifyInstance> {
  const warnings: string[] = [];
  const ctx = createContext(config, { clock: options.clock, warn: (message) => warnings.push(message) });
  const metrics = new RouteMetrics();
  const fastPath = new FastPath(ctx.origins, (method, url) => metrics.forRoute(method, url));
  const app = createHttpServer(config, fastPath, options);
  for (const message of warnings) app.log.warn(message);
  app.decorate('ctx', ctx);
  app.decorate('database', ctx.database);
  // Waiting requests answer at once when the server closes, so that closing does not wait for them.
  app.addHook('preClose', async () => stopWaiting(ctx));
  app.addHook('onClose', () => closeContext(ctx));

  const readiness = new Readiness();
  app.decorate('readiness', readiness);
  app.decorate('migrate', async () => {
    await ctx.database.withStartupLock(async () => migrateToLatest(ctx.db, await ctx.database.currentSchema()));
    readiness.serve();
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
      await closeContext(ctx);
      throw error;
    }
  }

  registerPlumbing(app, HTML_PAGES);
  runWhileServing(
    app,
    ERASE_DELETED_EVERY_MS,
    () => ctx.database.eraseDeleted(),
    'erasing what deletions left in the write-ahead log failed',
  );
  // The OpenAPI document hears of every route registered after this, operations included.
  await registerOpenApi(app, ctx.version);
  const cli = readCliBundle();
  await app.register(opsRoutes, {
    metrics,
    server: { demo: config.demo, cli: cli ? { url: '/cli/svc-cli.mjs', sha256: cli.sha256 } : null },
  });
  registerAuthentication(app, ctx);
  registerCors(app, ctx.origins);

  for (const routes of [
    authRoutes,
    signInRoutes,
    twoFactorRoutes,
    ssoRoutes,
    memberRoutes,
    labelRoutes,
    auditRoutes,
    storageRoutes,
    exportRoutes,
    insightsRoutes,
    invitationRoutes,
    apiKeyRoutes,
    projectRoutes,
    followingRoutes,
    commentRoutes,
    verificationRoutes,
    buildRoutes,
    mcpRoutes,
    widgetRoutes,
    consoleRoutes,
    demoRoutes,
    extensionRoutes,
  ]) {
    await app.register(routes);
  }
  await app.register(notificationRoutes, { fastPath });
  await app.register(cliRoutes, { bundle: cli });
  return app;
}
