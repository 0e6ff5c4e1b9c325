import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { clientOf } from '../../http/client.js';
import { toPage } from '../../http/pagination.js';
import { route } from '../../http/route.js';
import { presentSession, presentUser, presentWorkspace } from './presenter.js';
import * as service from './service.js';

const tags = ['accounts'];

export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  route(
    app,
    'POST /api/signup',
    { tags, summary: 'Create a workspace and its first admin' },
    async (request, reply) => {
      const { token, user, workspace } = await service.signup(ctx, ctx.config.signup, request.body, clientOf(request));
      return reply.code(201).send({ token, user: presentUser(user), workspace: presentWorkspace(workspace) });
    },
  );

  route(app, 'POST /api/auth/logout', { tags, summary: 'End the current session' }, async (request, reply) => {
    await service.logout(ctx, request.actor);
    return reply.code(204).send(null);
  });

  route(app, 'GET /api/me', { tags, summary: 'The caller and their workspace' }, async (request) => {
    const { user, workspace } = await service.me(ctx, request.actor);
    return { user: presentUser(user), workspace: presentWorkspace(workspace) };
  });

  route(
    app,
    'PATCH /api/me',
    {
      tags,
      summary: 'Your settings: the language you read the widget and the console in',
      description: 'For every account, client accounts included. null: as your page or browser says.',
    },
    async (request) => presentUser(await service.updateMe(ctx, request.actor, request.body)),
  );

  route(
    app,
    'PATCH /api/workspace',
    {
      tags: ['workspace'],
      summary: 'The workspace’s settings: its default language',
      description:
        'The language of the widget and the console for those who chose none and whose page and browser name none of the ten the apps speak. null: English.',
    },
    async (request) => presentWorkspace(await service.updateWorkspace(ctx, request.actor, request.body)),
  );

  route(
    app,
    'GET /api/me/sessions',
    {
      tags,
      summary: 'Your sessions in force, newest first',
      description:
        'A session ends when unused for SVC_SESSION_IDLE_SECONDS or SVC_SESSION_MAX_AGE_SECONDS after sign-in, whichever comes first (expiresAt).',
    },
    async (request) => {
      const { rows, limit } = await service.listSessions(ctx, request.actor, request.query);
      return toPage(rows, limit, presentSession);
    },
  );

  route(
    app,
    'DELETE /api/me/sessions/{id}',
    { tags, summary: 'End one of your sessions, at once' },
    async (request, reply) => {
      await service.endSession(ctx, request.actor, request.params.id);
      return reply.code(204).send(null);
    },
  );

  route(
    app,
    'POST /api/me/sessions/end-others',
    { tags, summary: 'Sign out everywhere else: end every session but this one' },
    async (request) => ({ ended: await service.endOtherSessions(ctx, request.actor) }),
  );

  route(
    app,
    'POST /api/me/password',
    { tags, summary: 'Change your password; every other session ends' },
    async (request) => ({
      ended: await service.changePassword(ctx, request.actor, request.body, clientOf(request)),
    }),
  );
};
