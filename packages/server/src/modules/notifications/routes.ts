import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Caches } from '../../caches.js';
import type { Clock } from '../../clock.js';
import { matchesEtag } from '../../http/conditional.js';
import type { FastAnswer, FastAnswerer, FastPath } from '../../http/fast-path.js';
import { toPage } from '../../http/pagination.js';
import type { PollPace } from '../../http/poll-pace.js';
import { route, routePath } from '../../http/route.js';
import { apiSecurityHeaders } from '../../http/security-headers.js';
import { cachedCaller } from '../auth/authenticate.js';
import { presentNotification } from './presenter.js';
import * as service from './service.js';

const tags = ['notifications'];

interface CountAnswers {
  etag: string;
  ok: FastAnswer;
  notModified: FastAnswer;
}

/**
 * The 200 and 304 answers for `count`; the count is its own strong validator. Header
 * objects are written out whole: built with a spread (`{ ...common, more }`), V8 kept every
 * answer alive past the next minor GC, which cost a third of the throughput.
 */
function countAnswers(count: number, pollSeconds: number): CountAnswers {
  const etag = `"${count}"`;
  const pollInterval = String(pollSeconds);
  const cacheControl = 'private, no-cache';
  const body = JSON.stringify({ count });
  return {
    etag,
    ok: {
      status: 200,
      headers: Object.assign(
        {
          'cache-control': cacheControl,
          etag,
          'x-poll-interval': pollInterval,
          vary: 'Origin',
          'content-type': 'application/json; charset=utf-8',
          'content-length': String(body.length),
        },
        apiSecurityHeaders,
      ),
      body,
    },
    notModified: {
      status: 304,
      headers: Object.assign(
        { 'cache-control': cacheControl, etag, 'x-poll-interval': pollInterval, vary: 'Origin' },
        apiSecurityHeaders,
      ),
    },
  };
}

/** Counts up to this have their answers built once per pace and shared: a badge rarely shows more. */
const SHARED_COUNT_ANSWERS = 1000;
const sharedAnswers = new Map<number, CountAnswers[]>();

function answersFor(count: number, pollSeconds: number): CountAnswers {
  if (count > SHARED_COUNT_ANSWERS) return countAnswers(count, pollSeconds);
  let byCount = sharedAnswers.get(pollSeconds);
  if (byCount === undefined) {
    byCount = [];
    sharedAnswers.set(pollSeconds, byCount);
  }
  let answers = byCount[count];
  if (answers === undefined) {
    answers = countAnswers(count, pollSeconds);
    byCount[count] = answers;
  }
  return answers;
}

function answerCount(request: FastifyRequest, reply: FastifyReply, count: number, pace: PollPace): void {
  const answers = answersFor(count, pace.seconds);
  // Both answers carry the validators; a 304 carries no body at all, not even `null`.
  reply.headers(answers.notModified.headers);
  if (matchesEtag(request.headers['if-none-match'], answers.etag)) reply.code(304).send();
  else reply.send({ count });
}

/** The same answers as the route, when the caller and their count are both in memory. */
function unreadCountFromMemory(caches: Caches, clock: Clock, pace: PollPace): FastAnswerer {
  return (request) => {
    const actor = cachedCaller(caches.actors, request.headers.authorization, clock);
    const count = actor ? caches.unreadCounts.get(actor.id) : undefined;
    if (count === undefined) return undefined;
    const answers = answersFor(count, pace.seconds);
    return matchesEtag(request.headers['if-none-match'], answers.etag) ? answers.notModified : answers.ok;
  };
}

const UNREAD_COUNT = 'GET /api/me/notifications/unread-count';

export const notificationRoutes: FastifyPluginAsyncTypebox<{ fastPath: FastPath }> = async (app, { fastPath }) => {
  const ctx = app.ctx;
  const { caches, clock, pace } = ctx;

  // Polled by every open widget: answered before routing when it can be (see FastPath).
  fastPath.add(routePath(UNREAD_COUNT), unreadCountFromMemory(caches, clock, pace));
  route(
    app,
    UNREAD_COUNT,
    {
      // Polled every few seconds by every open tab: one log line per poll would drown the rest.
      logLevel: 'warn',
      tags,
    },
    (request, reply) => {
      // A cached count answers synchronously: no promise on the hot path.
      const count = service.unreadCount(ctx, request.actor);
      if (typeof count === 'number') return answerCount(request, reply as FastifyReply, count, pace);
      return count.then((n) => answerCount(request, reply as FastifyReply, n, pace));
    },
  );

  route(app, 'GET /api/me/notifications', { tags }, async (request) => {
    const { rows, limit, unreadCount } = await service.listNotifications(ctx, request.actor, request.query);
    return { ...toPage(rows, limit, presentNotification), unreadCount };
  });

  route(app, 'POST /api/me/notifications/read-all', { tags }, async (request) =>
    service.markAllRead(ctx, request.actor, request.body.upTo),
  );

  route(app, 'GET /api/me/notifications/{id}', { tags }, async (request) =>
    presentNotification(await service.getNotification(ctx, request.actor, request.params.id)),
  );

  route(app, 'POST /api/me/notifications/{id}/read', { tags }, async (request) =>
    presentNotification(await service.markRead(ctx, request.actor, request.params.id)),
  );
};
