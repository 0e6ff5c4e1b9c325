import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CoherentCache } from '../../cache/coherent-cache.js';
import type { Db } from '../../db/schema.js';
import { unauthenticated } from '../../errors.js';
import type { Actor } from './actor.js';
import * as repo from './repo.js';
import { findActor } from './service.js';
import { hashToken, tokenKind } from './tokens.js';

/** API keys record when they were last used, at most this often, to keep requests read-only. */
const KEY_USE_RESOLUTION_MS = 10 * 60 * 1000;

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
 * cached by token hash; logout and revocation drop them in every process.
 */
export async function authenticate(db: Db, actors: CoherentCache<Actor>, header: string | undefined): Promise<Actor> {
  const token = bearerToken(header);
  if (!token) throw unauthenticated();
  const hash = hashToken(token);
  const actor = actors.get(hash) ?? (await actors.load(hash, () => findActor(db, tokenKind(token), hash)));
  if (!actor) throw refusal(token);
  await recordKeyUse(db, actor);
  return actor;
}

/** An API key whose use has not been recorded for a while; sessions record nothing. */
const keyUseDue = (actor: Actor) =>
  actor.credential.kind === 'apiKey' && Date.now() - actor.credential.lastUsedAt > KEY_USE_RESOLUTION_MS;

async function recordKeyUse(db: Db, actor: Actor): Promise<void> {
  if (!keyUseDue(actor)) return;
  actor.credential.lastUsedAt = Date.now();
  await repo.touchApiKey(db, actor.credential.id, new Date(actor.credential.lastUsedAt).toISOString());
}

/**
 * The caller of `header` when it is cached and nothing needs recording: no I/O, no promise.
 * Undefined means "ask `authenticate`", not "refused".
 */
export function cachedCaller(actors: CoherentCache<Actor>, header: string | undefined): Actor | undefined {
  const token = bearerToken(header);
  const cached = token ? actors.get(hashToken(token)) : undefined;
  return cached && !keyUseDue(cached) ? cached : undefined;
}

/**
 * Every /api route but the public ones (sign-up, sign-in) authenticates in onRequest,
 * before the body is read: an anonymous caller learns nothing about input rules. The
 * hook is attached per route, and a cached session answers without a promise.
 */
export function registerAuthentication(app: FastifyInstance, db: Db, actors: CoherentCache<Actor>): void {
  const hook = (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void) => {
    const header = request.headers.authorization;
    const cached = cachedCaller(actors, header);
    if (cached) {
      request.actor = cached;
      done();
      return;
    }
    authenticate(db, actors, header).then(
      (actor) => {
        request.actor = actor;
        done();
      },
      (error: Error) => done(error),
    );
  };
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || route.config?.public) return;
    route.onRequest = [hook, ...[route.onRequest ?? []].flat()] as typeof route.onRequest;
  });
}
