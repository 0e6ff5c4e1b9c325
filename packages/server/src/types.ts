import type { Kysely } from 'kysely';
import type { DialectSupport } from './db/dialect/index.js';
import type { Database } from './db/schema.js';
import type { Actor } from './modules/auth/actor.js';

declare module 'fastify' {
  interface FastifyInstance {
    db: Kysely<Database>;
    dialect: DialectSupport;
  }
  interface FastifyRequest {
    /** The authenticated caller; set on every /api route that is not public. */
    actor: Actor;
  }
  interface FastifyContextConfig {
    /** Reachable without a token (sign-up and sign-in). */
    public?: boolean;
  }
}
