import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { route } from '../../http/route.js';
import * as service from './service.js';

const tags = ['projects'];

export const followingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  route(
    app,
    'GET /api/me/following',
    {
      tags,
      summary: 'The projects you follow: you are told of their new comments',
      description:
        'Every project you can see, each with `following`. Admins follow every project, and members the projects where they are on a comment, unless they chose otherwise (PUT /api/projects/{key}/following). Quick-access accounts follow nothing (403).',
    },
    async (request) => ({ items: await service.listFollowing(ctx, request.actor) }),
  );

  route(
    app,
    'PUT /api/projects/{key}/following',
    {
      tags,
      summary: 'Follow a project, or leave it',
      description:
        'Followers are told of each new comment of the project (`CommentCreated`; those arriving while the last one is unread gather in it) and find the comments nobody is on in My work (`GET /api/comments?followed=me&assignee=none&status=open`). Your choice stands over the default; the same again changes nothing. The team only (403 for quick-access accounts).',
    },
    async (request) => service.setFollowing(ctx, request.actor, request.params.key, request.body.following),
  );
};
