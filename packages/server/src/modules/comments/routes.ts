import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { IMAGE_MAX_BYTES, IMAGES_PER_PERSON_MAX, SCREENSHOT_MAX_BYTES } from '@svc/contract';
import { SCREENSHOT_TYPES } from '@svc/contract/api';
import { toPage } from '../../http/pagination.js';
import { route } from '../../http/route.js';
import { consumeRateLimit } from '../../limits/rate-limit.js';
import { assignComment, claimComment } from './assignment.js';
import { IMAGE_PIXELS_MAX, IMAGE_SIDE_MAX_PX } from './image-dimensions.js';
import { attachImage, getImage } from './images.js';
import { mentionablePeople } from './mentions.js';
import { presentComment, presentCommentWithReplies, presentReply } from './presenter.js';
import * as service from './service.js';
import { setLabels, setPriority } from './triage.js';

const tags = ['comments'];
const DIMENSIONS = ` and at most ${IMAGE_SIDE_MAX_PX} pixels a side and ${IMAGE_PIXELS_MAX / 1_000_000} megapixels as its header declares them (413 above, before it is read further)`;
const UPLOAD_LIMITS =
  ' Uploads are paced per person, by number a minute and by megabytes an hour (429 with Retry-After past either, naming it), and held to the workspace’s storage quota (413 `storage_quota_exceeded`, nothing stored; see GET /api/workspace/storage).';

export const commentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  const { watch } = ctx;
  // Screenshots and images arrive as the image itself; the service reads its type from the
  // bytes. Each route says how large (a screenshot's limit is the smaller).
  app.addContentTypeParser(
    [...SCREENSHOT_TYPES],
    { parseAs: 'buffer', bodyLimit: IMAGE_MAX_BYTES },
    (_request, body, done) => done(null, body),
  );

  route(
    app,
    'POST /api/comments/{id}/images',
    {
      bodyLimit: IMAGE_MAX_BYTES,
      tags,
      summary: 'Attach an image to a comment, to your reply to it, to your verdict, or as the picture of now',
      description: `The image itself as the body: ${SCREENSHOT_TYPES.join(', ')}, at most ${IMAGE_MAX_BYTES / 1024 / 1024} MB (413 above)${DIMENSIONS}; the type is read from the bytes (anything else, or a file cut short, is 415). Its metadata (EXIF and its location, XMP, IPTC, comments, text chunks) is removed before it is stored. To the comment: its author, admins and members; with \`?reply=\`, to that reply: its author. Each person attaches at most ${IMAGES_PER_PERSON_MAX} to a thread, to the comment and their replies together (409 past that): a share of their own, which nobody else's images take. With \`?verdict=true\`, the element as you saw it when you gave your latest verdict (Verified or Not fixed): kept with that timeline event, once (409 when you gave none, or it has one). With \`?now=true\`, the element as it is now on your page, which your widget takes while the fix waits for your verdict (applied or Live, not yet verified; 409 otherwise), from those who may verify it (its author, an admin; 403 otherwise): the comment keeps the latest only (it replaces the one before, whose bytes are deleted, in one transaction), with the commit of the fix it was taken for (\`commitSha\`), and shows it to the team like its other images; neither it nor the verdict's picture takes a place among the ${IMAGES_PER_PERSON_MAX}. A verdict keeps it as it was (the last look before the verdict), until the next fix's picture of now replaces it; the verdict's own picture goes with \`?verdict=true\`. \`now\` goes alone (400 with \`reply\` or \`verdict\`).${UPLOAD_LIMITS}`,
    },
    async (request, reply) =>
      reply.code(201).send(await attachImage(ctx, request.actor, request.params.id, request.body, request.query)),
  );

  route(
    app,
    'GET /api/comments/{id}/images/{imageId}',
    { tags, summary: "An image of the comment's thread, to whoever may read the comment" },
    async (request, reply) => {
      const image = await getImage(ctx, request.actor, request.params.id, request.params.imageId);
      return reply
        .header('cache-control', 'private, max-age=3600')
        .header('content-type', image.content_type)
        .send(Buffer.from(image.bytes));
    },
  );

  route(
    app,
    'PUT /api/comments/{id}/screenshot',
    {
      bodyLimit: SCREENSHOT_MAX_BYTES,
      tags,
      summary: "Attach the comment's screenshot (its author); replaces the one it had",
      description: `The image itself as the body: ${SCREENSHOT_TYPES.join(', ')}, at most ${SCREENSHOT_MAX_BYTES / 1024} KB (413 above)${DIMENSIONS}. The type is read from the bytes: anything else is 415.${UPLOAD_LIMITS}`,
    },
    async (request) =>
      presentComment(await service.putScreenshot(ctx, request.actor, request.params.id, request.body), request.actor),
  );

  route(
    app,
    'PUT /api/comments/{id}/anchor',
    {
      tags,
      summary: "Move the comment's pin to another element (re-pin)",
      description:
        'For its author, a member or an admin (a quick-access account: its own comments only). The anchor is replaced; the status, replies and notifications stay as they are, and nobody is notified. The comment then says who moved it and when (`repinned`).',
    },
    async (request) =>
      presentComment(await service.repin(ctx, request.actor, request.params.id, request.body), request.actor),
  );

  route(
    app,
    'GET /api/comments/{id}/screenshot',
    { tags, summary: "The comment's screenshot, to whoever may read the comment" },
    async (request, reply) => {
      const shot = await service.getScreenshot(ctx, request.actor, request.params.id);
      return reply
        .header('cache-control', 'private, max-age=3600')
        .header('content-type', shot.content_type)
        .send(Buffer.from(shot.bytes));
    },
  );

  route(
    app,
    'POST /api/projects/{key}/comments',
    { tags, summary: 'Pin a comment on a page' },
    async (request, reply) => {
      const row = await service.createComment(
        ctx,
        request.actor,
        request.params.key,
        request.body,
        request.headers['user-agent'],
      );
      return reply.code(201).send(presentComment(row, request.actor));
    },
  );

  route(
    app,
    'GET /api/projects/{key}/comments',
    { tags, summary: "A project's comments, newest first" },
    async (request) => {
      const { rows, limit } = await service.listComments(ctx, request.actor, request.params.key, request.query);
      return toPage(rows, limit, (row) => presentComment(row, request.actor));
    },
  );

  route(
    app,
    'GET /api/projects/{key}/people',
    {
      tags,
      summary: 'Who a comment of the project may mention: whoever can read it',
      description:
        'The team (admins, members and agents) and the clients who can see the project, by name. A client limited to another project is not among them. Write `<@id>` in a comment or a reply to mention one.',
    },
    async (request) => ({ items: await mentionablePeople(ctx, request.actor, request.params.key) }),
  );

  route(
    app,
    'GET /api/comments/changes',
    {
      tags,
      summary: 'Wait for feedback: comments created or changed since a cursor (long poll)',
      description:
        'Without a cursor, answers at once with the cursor of now. With one, answers the comments created or changed since (oldest change first) and the next cursor; when there are none, waits up to `wait` seconds (at most 60) and answers as soon as one of the project (of any project, without `project`) changes. Deleted comments are not reported. One user may hold 10 waits at once, one session or API key 5: past that, 429.',
    },
    async (request, reply) => {
      const { actor, query } = request;
      let page = await service.changesSince(ctx, actor, query);
      if (page.rows.length === 0 && query.cursor !== undefined && (query.wait ?? 0) > 0) {
        // Stop waiting when the client goes away (the response closes before it is sent).
        const gone = new AbortController();
        const onClose = () => gone.abort();
        reply.raw.once('close', onClose);
        const projectId = query.project === undefined ? null : page.projectId;
        const until = Date.now() + (query.wait ?? 0) * 1000;
        // Woken with nothing new to show (the late notice of a write from before the wait, a
        // comment deleted since), it waits out the rest of its time: an empty answer means none came.
        while (page.rows.length === 0 && !watch.closed && !gone.signal.aborted && Date.now() < until) {
          await watch.wait(
            { workspaceId: actor.workspaceId, projectId },
            { userId: actor.id, credentialId: actor.credential.id },
            until - Date.now(),
            gone.signal,
          );
          page = await service.changesSince(ctx, actor, query);
        }
        reply.raw.off('close', onClose);
        // Answered because the server is closing: the connection must not linger as keep-alive.
        if (watch.closed) reply.header('connection', 'close');
      }
      return { items: page.rows.map((row) => presentComment(row, actor)), cursor: page.cursor };
    },
  );

  route(
    app,
    'GET /api/comments',
    {
      tags,
      summary: 'Find comments across your projects: by project, status, author, page, text and time',
      description:
        'Newest first (sort=oldest for the other way), keyset-paginated. q matches whole words, any case, in the comment or any of its replies, using the database full-text index. Answers a weak ETag: send it back as If-None-Match to get 304 while nothing changed.',
    },
    async (request) => {
      // A text search reads the full-text index: limited per user, as the other heavy reads are.
      if (request.query.q !== undefined) {
        await consumeRateLimit(ctx.db, ctx.rules.searches, request.actor.id, ctx.clock.now());
      }
      const { rows, limit } = await service.findComments(ctx.database, request.actor, request.query);
      return toPage(rows, limit, (row) => presentComment(row, request.actor));
    },
  );

  route(
    app,
    'GET /api/comments/{id}',
    { tags, summary: 'A comment with its replies and its timeline' },
    async (request) => {
      const { comment, replies, timeline, images } = await service.getComment(ctx, request.actor, request.params.id);
      return presentCommentWithReplies(comment, replies, timeline, images, request.actor);
    },
  );

  route(app, 'POST /api/comments/{id}/replies', { tags, summary: 'Reply to a comment' }, async (request, reply) =>
    reply
      .code(201)
      .send(presentReply(await service.addReply(ctx, request.actor, request.params.id, request.body.body))),
  );

  route(
    app,
    'POST /api/comments/{id}/apply',
    {
      tags,
      summary: 'Record the fix of a comment, with its commit or without one',
      description:
        'With commitSha, the fix goes Live with the first reported build that contains the commit. Without it (a change made on the site itself, such as copy in a content system), there is nothing to deploy: the comment is Live at once. Without commitUrl, the link is built from the project repoUrl when it is on GitHub, GitLab, Bitbucket, Gitea or Codeberg.',
    },
    async (request) =>
      presentComment(await service.applyComment(ctx, request.actor, request.params.id, request.body), request.actor),
  );

  route(
    app,
    'PUT /api/comments/{id}/assignee',
    {
      tags,
      summary: 'Put someone of the team, or an agent, on a comment (null: nobody)',
      description:
        'For admins and members. The assignee is told (not when they assign themselves) and stays through apply, Live and verify; a fix sent back tells them. An archived comment is refused (409).',
    },
    async (request) =>
      presentComment(
        await assignComment(ctx, request.actor, request.params.id, request.body.assigneeId),
        request.actor,
      ),
  );

  route(
    app,
    'POST /api/comments/{id}/claim',
    {
      tags,
      summary: 'Take an open comment yourself, if nobody is on it',
      description:
        'For agents and people of the team, before they start on a comment: exactly one of those claiming at once wins. Already yours: answered as it is. Someone else on it: 409, naming them. Not open: 409.',
    },
    async (request) => presentComment(await claimComment(ctx, request.actor, request.params.id), request.actor),
  );

  route(
    app,
    'PUT /api/comments/{id}/priority',
    { tags, summary: 'Set how urgent a comment is (the team); nobody is notified' },
    async (request) =>
      presentComment(await setPriority(ctx, request.actor, request.params.id, request.body.priority), request.actor),
  );

  route(
    app,
    'PUT /api/comments/{id}/labels',
    {
      tags,
      summary: "Set the workspace's labels a comment has (the team); nobody is notified",
      description: 'The labels it has from now on, replacing those it had; a label of no workspace of yours is 400.',
    },
    async (request) =>
      presentComment(await setLabels(ctx, request.actor, request.params.id, request.body.labelIds), request.actor),
  );

  route(app, 'POST /api/comments/{id}/reopen', { tags, summary: 'Reopen an applied comment' }, async (request) =>
    presentComment(await service.reopenComment(ctx, request.actor, request.params.id), request.actor),
  );

  route(app, 'POST /api/comments/{id}/archive', { tags, summary: 'Archive a comment' }, async (request) =>
    presentComment(await service.archiveComment(ctx, request.actor, request.params.id), request.actor),
  );

  route(
    app,
    'DELETE /api/comments/{id}',
    { tags, summary: 'Delete a comment with its replies (author or admin)' },
    async (request, reply) => {
      await service.deleteComment(ctx, request.actor, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
