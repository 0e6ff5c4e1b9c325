import type { Actor } from './actor.js';
import type { AppContext } from './context.js';
import type { Database } from './db/dialect/index.js';
import type { RegisteredRoute } from './http/server.js';
import type { Readiness } from './readiness.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** What every part of the application shares (see context.ts): routes read their services' needs from it. */
    ctx: AppContext;
    /** The database: `database.db` to query, `database.changes` to hear other processes' writes. */
    database: Database;
    /** Migrating, serving or draining: what /readyz reports. */
    readiness: Readiness;
    /** Brings the schema up to date and starts serving (once; buildApp does it unless told to wait). */
    migrate: () => Promise<void>;
    /** Every route as registered, with its schema: what the generated test suites walk. */
    routeTable: readonly RegisteredRoute[];
  }
  interface FastifyRequest {
    /** The authenticated caller; set on every /api route that is not public, and on /mcp. */
    actor: Actor;
  }
  interface FastifyContextConfig {
    /** Reachable without a token (sign-up and sign-in). */
    public?: boolean;
    /** Authenticated like the /api routes although outside /api (/mcp). */
    authenticated?: boolean;
    /** Answered with a weak ETag, and 304 when If-None-Match holds it (see http/conditional.ts). */
    conditional?: boolean;
    /** The content types of its raw body: a route that takes an upload (the generated suites send it one). */
    bodyTypes?: readonly string[];
  }
}
