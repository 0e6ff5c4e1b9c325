import { VIA_HEADER } from '@svc/contract/rules';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Actor } from '../../actor.js';
import type { CoherentCache } from '../../cache/coherent-cache.js';
import type { Clock } from '../../clock.js';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/schema.js';
import { unauthenticated } from '../../errors.js';
import * as repo from './repo.js';
import { findActor } from './service.js';
import { hashToken, tokenKind } from './tokens.js';

/**
 * Credentials record when they were last used at most this often, to keep requests
 * read-only: API keys every 10 minutes, sessions every tenth of their idle timeout (so a
 * session may end up to a tenth early, never late).
 */
const USE_RESOLUTION_MS = 10 * 60 * 1000;

const useDue = (actor: Actor, now: number) =>
  now - actor.credential.lastUsedAt > Math.min(USE_RESOLUTION_MS, actor.credential.idleMs / 10);

const expired = (actor: Actor, now: number) =>
  now >= actor.credential.expiresAt || now - actor.credential.lastUsedAt > actor.credential.idleMs;

function bearerToken(header: string | undefined): string | undefined {
  // The common spelling first; the scheme is case-insensitive (RFC 9110).
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || undefined;
  return /^bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1];
}

function refusal(token: string) {
  return unauthenticated(
    tokenKind(token) === 'apiKey'
      ? 'The API key is not valid or has been revoked.'
      : 'The session has ended or the token is not valid; sign in again.',
  );
}

/**
 * Resolves an `Authorization` header to the calling user, or throws 401. Callers are
 * cached by token hash; logout, revocation and removal drop them in every process. A
 * session that looks expired here is checked against the database, where another process
 * may have recorded a later use; one that is expired there too is deleted.
 */
export async function authenticate(
  ctx: Pick<AppContext, 'db' | 'caches' | 'sessions' | 'clock'>,
  header: string | undefined,
): Promise<Actor> {
  const { db, sessions, clock } = ctx;
  const actors = ctx.caches.actors;
  const token = bearerToken(header);
  if (!token) throw unauthenticated();
  const hash = hashToken(token);
  const load = () => findActor(db, tokenKind(token), hash, sessions);
  let actor = actors.get(hash) ?? (await actors.load(hash, load));
  const now = clock.now();
  if (actor && expired(actor, now)) {
    actors.delete(hash);
    actor = await load();
    if (actor && expired(actor, now)) {
      await repo.deleteSession(db, actor.workspaceId, actor.id, actor.credential.id);
      actor = undefined;
    }
  }
  if (!actor) throw refusal(token);
  await recordUse(db, actor, now);
  return actor;
}

async function recordUse(db: Db, actor: Actor, now: number): Promise<void> {
  if (!useDue(actor, now)) return;
  actor.credential.lastUsedAt = now;
  const at = new Date(now).toISOString();
  if (actor.credential.kind === 'apiKey') await repo.touchApiKey(db, actor.credential.id, at);
  else await repo.touchSession(db, actor.credential.id, at);
}

/**
 * The caller of `header` when it is cached, has not expired and nothing needs recording:
 * no I/O, no promise. Undefined means "ask `authenticate`", not "refused".
 */
export function cachedCaller(
  actors: CoherentCache<Actor>,
  header: string | undefined,
  clock: Clock,
): Actor | undefined {
  const token = bearerToken(header);
  const cached = token ? actors.get(hashToken(token)) : undefined;
  if (cached === undefined) return undefined;
  const now = clock.now();
  return useDue(cached, now) || now >= cached.credential.expiresAt ? undefined : cached;
}

/**
 * Every /api route but the public ones (sign-up, sign-in), and every route marked
 * `authenticated`, authenticates in onRequest, before the body is read: an anonymous caller
 * learns nothing about input rules. The hook is attached per route, and a cached session
 * answers without a promise.
 */
export function registerAuthentication(app: FastifyInstance, ctx: AppContext): void {
  const { clock } = ctx;
  const actors = ctx.caches.actors;
  // Cached callers are shared between requests: each request gets a copy that says where it came from.
  const callerOf = (request: FastifyRequest, actor: Actor): Actor => ({
    ...actor,
    address: request.ip,
    ...(request.headers[VIA_HEADER] === 'mcp' ? { via: 'mcp' as const } : {}),
  });
  const hook = (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    const header = request.headers.authorization;
    const cached = cachedCaller(actors, header, clock);
    if (cached) {
      request.actor = callerOf(request, cached);
      done();
      return;
    }
    authenticate(ctx, header).then(
      (actor) => {
        request.actor = callerOf(request, actor);
        done();
      },
      (error: Error) => done(error),
    );
  };
  app.addHook('onRoute', (route) => {
    const guarded = route.url.startsWith('/api/') || route.config?.authenticated;
    if (!guarded || route.config?.public) return;
    route.onRequest = [hook, ...[route.onRequest ?? []].flat()] as typeof route.onRequest;
  });
}
