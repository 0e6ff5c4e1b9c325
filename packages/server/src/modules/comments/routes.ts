import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IMAGE_MAX_BYTES, REPLAY_MAX_BYTES, SCREENSHOT_MAX_BYTES } from '@svc/contract';
import { REPLAY_TYPES, SCREENSHOT_TYPES } from '@svc/contract/api';
import { toPage } from '../../http/pagination.js';
import { route } from '../../http/route.js';
import { consumeRateLimit } from '../../limits/rate-limit.js';
import { assignComment, claimComment } from './assignment.js';
import { attachImage, getImage } from './images.js';
import { waitForChanges } from './long-poll.js';
import { mentionablePeople } from './mentions.js';
import { presentComment, presentCommentWithReplies, presentReply } from './presenter.js';
import { getReplay, putReplay } from './replays.js';
import * as service from './service.js';
import { patchComment, setLabels, setPriority } from './triage.js';

const tags = ['comments'];

export const commentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  // Screenshots and images arrive as the image itself; the service reads its type from the
  // bytes. Each route says how large (a screenshot's limit is the smaller).
  app.addContentTypeParser(
    [...SCREENSHOT_TYPES],
    { parseAs: 'buffer', bodyLimit: IMAGE_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );

  route(app, 'POST /api/comments/{id}/images', { bodyLimit: IMAGE_MAX_BYTES, tags }, async (request, reply) =>
    reply.code(201).send(await attachImage(ctx, request.actor, request.params.id, request.body, request.query)),
  );

  route(app, 'GET /api/comments/{id}/images/{imageId}', { tags }, async (request, reply) => {
    const image = await getImage(ctx, request.actor, request.params.id, request.params.imageId);
    return reply
      .header('cache-control', 'private, max-age=3600')
      .header('content-type', image.content_type)
      .send(Buffer.from(image.bytes));
  });

  route(app, 'PUT /api/comments/{id}/screenshot', { bodyLimit: SCREENSHOT_MAX_BYTES, tags }, async (request) =>
    presentComment(await service.putScreenshot(ctx, request.actor, request.params.id, request.body), request.actor),
  );

  // A replay arrives gzipped, as the widget kept it; the service reads it once to refuse what is none.
  app.addContentTypeParser(
    [...REPLAY_TYPES],
    { parseAs: 'buffer', bodyLimit: REPLAY_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );

  route(app, 'PUT /api/comments/{id}/replay', { bodyLimit: REPLAY_MAX_BYTES, tags }, async (request) =>
    presentComment(await putReplay(ctx, request.actor, request.params.id, request.body), request.actor),
  );

  route(app, 'GET /api/comments/{id}/replay', { tags }, async (request, reply) => {
    const replay = await getReplay(ctx, request.actor, request.params.id);
    return reply
      .header('cache-control', 'private, max-age=3600')
      .header('content-type', replay.content_type)
      .send(Buffer.from(replay.bytes));
  });

  route(app, 'PUT /api/comments/{id}/anchor', { tags }, async (request) =>
    presentComment(await service.repin(ctx, request.actor, request.params.id, request.body), request.actor),
  );

  route(app, 'GET /api/comments/{id}/screenshot', { tags }, async (request, reply) => {
    const shot = await service.getScreenshot(ctx, request.actor, request.params.id);
    return reply
      .header('cache-control', 'private, max-age=3600')
      .header('content-type', shot.content_type)
      .send(Buffer.from(shot.bytes));
  });

  route(app, 'POST /api/projects/{key}/comments', { tags }, async (request, reply) => {
    const row = await service.createComment(
      ctx,
      request.actor,
      request.params.key,
      request.body,
      request.headers['user-agent'],
    );
    return reply.code(201).send(presentComment(row, request.actor));
  });

  route(app, 'GET /api/projects/{key}/comments', { tags }, async (request) => {
    const { rows, limit } = await service.listComments(ctx, request.actor, request.params.key, request.query);
    return toPage(rows, limit, (row) => presentComment(row, request.actor));
  });

  route(app, 'GET /api/projects/{key}/people', { tags }, async (request) => ({
    items: await mentionablePeople(ctx, request.actor, request.params.key),
  }));

  route(app, 'GET /api/comments/changes', { tags }, async (request, reply) => {
    const page = await waitForChanges(ctx, request.actor, request.query, reply);
    return { items: page.rows.map((row) => presentComment(row, request.actor)), cursor: page.cursor };
  });

  route(app, 'GET /api/comments', { tags }, async (request) => {
    // A text search reads the full-text index: limited per user, as the other heavy reads are.
    if (request.query.q !== undefined) {
      await consumeRateLimit(ctx.db, ctx.rules.searches, request.actor.id, ctx.clock.now());
    }
    const { rows, limit } = await service.findComments(ctx, request.actor, request.query);
    return toPage(rows, limit, (row) => presentComment(row, request.actor));
  });

  route(app, 'GET /api/comments/{id}', { tags }, async (request) => {
    const { comment, replies, timeline, images } = await service.getComment(ctx, request.actor, request.params.id);
    return presentCommentWithReplies(comment, replies, timeline, images, request.actor);
  });

  route(app, 'POST /api/comments/{id}/replies', { tags }, async (request, reply) =>
    reply
      .code(201)
      .send(
        presentReply(await service.addReply(ctx, request.actor, request.params.id, request.body.body), request.actor),
      ),
  );

  route(app, 'POST /api/comments/{id}/apply', { tags }, async (request) =>
    presentComment(await service.applyComment(ctx, request.actor, request.params.id, request.body), request.actor),
  );

  route(app, 'PUT /api/comments/{id}/assignee', { tags }, async (request) =>
    presentComment(await assignComment(ctx, request.actor, request.params.id, request.body.assigneeId), request.actor),
  );

  route(app, 'POST /api/comments/{id}/claim', { tags }, async (request) =>
    presentComment(await claimComment(ctx, request.actor, request.params.id), request.actor),
  );

  route(app, 'PUT /api/comments/{id}/priority', { tags }, async (request) =>
    presentComment(await setPriority(ctx, request.actor, request.params.id, request.body.priority), request.actor),
  );

  route(app, 'PATCH /api/comments/{id}', { tags }, async (request) =>
    presentComment(await patchComment(ctx, request.actor, request.params.id, request.body), request.actor),
  );

  route(app, 'PUT /api/comments/{id}/labels', { tags }, async (request) =>
    presentComment(await setLabels(ctx, request.actor, request.params.id, request.body.labelIds), request.actor),
  );

  route(app, 'POST /api/comments/{id}/reopen', { tags }, async (request) =>
    presentComment(await service.reopenComment(ctx, request.actor, request.params.id), request.actor),
  );

  route(app, 'POST /api/comments/{id}/archive', { tags }, async (request) =>
    presentComment(await service.archiveComment(ctx, request.actor, request.params.id), request.actor),
  );

  route(app, 'DELETE /api/comments/{id}', { tags }, async (request, reply) => {
    await service.deleteComment(ctx, request.actor, request.params.id);
    return reply.code(204).send(null);
  });
};
