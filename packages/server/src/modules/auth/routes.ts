import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ChangePasswordBody,
  EndedSessions,
  IdParams,
  LoginBody,
  LoginResult,
  Me,
  Page,
  PageOnlyQuery,
  QuickAccessSignInBody,
  Session,
  SessionResult,
  SignupBody,
  SignupResult,
} from '@svc/contract';
import { Type } from 'typebox';
import { toPage } from '../../http/pagination.js';
import { problemResponses } from '../../http/problem.js';
import { refusePasswordWhenRequired } from '../sso/service.js';
import { askSecondFactor } from '../two-factor/service.js';
import { presentSession, presentUser, presentWorkspace } from './presenter.js';
import * as service from './service.js';

const tags = ['accounts'];

export const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  app.post(
    '/api/signup',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Create a workspace and its first admin',
        body: SignupBody,
        response: { 201: SignupResult, ...problemResponses(403, 409, 429) },
      },
    },
    async (request, reply) => {
      const { token, user, workspace } = await service.signup(
        ctx,
        ctx.config.signup,
        request.body,
        service.clientOf(request),
      );
      return reply.code(201).send({ token, user: presentUser(user), workspace: presentWorkspace(workspace) });
    },
  );

  app.post(
    '/api/auth/login',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Sign in with e-mail and password',
        description:
          'Failed sign-ins are limited per client address and per account; past the limit the answer is 429 with Retry-After, before the password is checked. When the account has a second factor, or its workspace requires one, the answer is a challenge instead of a session (see POST /api/auth/two-factor).',
        body: LoginBody,
        response: { 200: LoginResult, ...problemResponses(403, 429) },
      },
    },
    async (request) => {
      const signedIn = await service.login(ctx, request.body, service.clientOf(request), async (user) => {
        await refusePasswordWhenRequired(ctx.db, user);
        return askSecondFactor(ctx, user);
      });
      return 'asked' in signedIn ? signedIn.asked : { token: signedIn.token, user: presentUser(signedIn.user) };
    },
  );

  app.post(
    '/api/auth/quick-access',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Exchange an access link token for a session',
        body: QuickAccessSignInBody,
        response: { 200: SessionResult, ...problemResponses(429) },
      },
    },
    async (request) => {
      const { token, user } = await service.signInWithAccessToken(
        ctx,
        request.body.accessToken,
        service.clientOf(request),
      );
      return { token, user: presentUser(user) };
    },
  );

  app.post(
    '/api/auth/logout',
    { schema: { tags, summary: 'End the current session', response: { 204: Type.Null(), ...problemResponses(409) } } },
    async (request, reply) => {
      await service.logout(ctx, request.actor);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/me',
    { schema: { tags, summary: 'The caller and their workspace', response: { 200: Me, ...problemResponses() } } },
    async (request) => {
      const { user, workspace } = await service.me(ctx.db, request.actor);
      return { user: presentUser(user), workspace: presentWorkspace(workspace) };
    },
  );

  app.get(
    '/api/me/sessions',
    {
      schema: {
        tags,
        summary: 'Your sessions in force, newest first',
        description:
          'A session ends when unused for SVC_SESSION_IDLE_SECONDS or SVC_SESSION_MAX_AGE_SECONDS after sign-in, whichever comes first (expiresAt).',
        querystring: PageOnlyQuery,
        response: { 200: Page(Session), ...problemResponses() },
      },
    },
    async (request) => {
      const { rows, limit } = await service.listSessions(ctx, request.actor, request.query);
      return toPage(rows, limit, presentSession);
    },
  );

  app.delete(
    '/api/me/sessions/:id',
    {
      schema: {
        tags,
        summary: 'End one of your sessions, at once',
        params: IdParams,
        response: { 204: Type.Null(), ...problemResponses(404) },
      },
    },
    async (request, reply) => {
      await service.endSession(ctx, request.actor, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/me/sessions/end-others',
    {
      schema: {
        tags,
        summary: 'Sign out everywhere else: end every session but this one',
        response: { 200: EndedSessions, ...problemResponses() },
      },
    },
    async (request) => ({ ended: await service.endOtherSessions(ctx, request.actor) }),
  );

  app.post(
    '/api/me/password',
    {
      schema: {
        tags,
        summary: 'Change your password; every other session ends',
        body: ChangePasswordBody,
        response: { 200: EndedSessions, ...problemResponses(403, 429) },
      },
    },
    async (request) => ({
      ended: await service.changePassword(ctx, request.actor, request.body, service.clientOf(request)),
    }),
  );
};
