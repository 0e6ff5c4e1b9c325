import cors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/schema.js';
import { listAllowedOrigins } from '../modules/projects/repo.js';

/** Other processes may add projects too; re-read the origins at least this often. */
const REFRESH_MS = 30_000;

/**
 * CORS for the widget: a page may call the API when its origin is in some project's
 * `allowedOrigins`. Requests carry bearer tokens, never cookies, so no credentials mode.
 */
export async function registerCors(app: FastifyInstance, db: Db): Promise<{ invalidate: () => void }> {
  let origins: Set<string> | null = null;
  let loadedAt = 0;
  const allowed = async (origin: string) => {
    if (!origins || Date.now() - loadedAt > REFRESH_MS) {
      origins = new Set(await listAllowedOrigins(db));
      loadedAt = Date.now();
    }
    return origins.has(origin);
  };
  await app.register(cors, {
    origin: (origin, callback) => {
      if (!origin) return callback(null, false);
      allowed(origin).then(
        (ok) => callback(null, ok),
        (error: Error) => callback(error, false),
      );
    },
    methods: ['GET', 'POST', 'DELETE'],
    allowedHeaders: ['Authorization', 'Content-Type', 'If-None-Match'],
    exposedHeaders: ['ETag', 'Retry-After'],
    maxAge: 600,
  });
  return {
    invalidate: () => {
      origins = null;
    },
  };
}
