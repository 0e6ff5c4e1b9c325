import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** If-None-Match holds one or more entity tags; weak comparison, as RFC 9110 asks for GET. */
export function matchesEtag(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const bare = etag.replace(/^W\//, '');
  if (header === etag || header === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === bare);
}

/**
 * Conditional GET for the routes that ask for it (`config: { conditional: true }`): a weak
 * ETag of the answer's body, `Cache-Control: private, no-cache`, and a 304 without a body
 * when the client already holds that answer. An open widget re-reads its list at the poll's
 * cadence: unchanged, that costs a few hundred bytes instead of the list.
 */
export function registerConditionalGet(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (route.config?.conditional !== true) return;
    route.onSend = [...[route.onSend ?? []].flat(), answerConditionally] as typeof route.onSend;
  });
}

function answerConditionally(
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: null, payload: unknown) => void,
) {
  if (reply.statusCode !== 200 || typeof payload !== 'string') return done(null, payload);
  const etag = `W/"${createHash('sha256').update(payload).digest('base64url').slice(0, 27)}"`;
  reply.header('etag', etag).header('cache-control', 'private, no-cache');
  if (!matchesEtag(request.headers['if-none-match'], etag)) return done(null, payload);
  reply.code(304);
  done(null, '');
}
