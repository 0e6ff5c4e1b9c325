import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  AddMemberBody,
  ApiKey,
  ApiKeyCreated,
  CreateApiKeyBody,
  CreateQuickAccessBody,
  LoginBody,
  Me,
  QuickAccessCreated,
  QuickAccessSignInBody,
  SessionResult,
  SignupBody,
  SignupResult,
  User,
} from '@svc/contract';
import { Type } from 'typebox';
import { forbidden } from '../../errors.js';
import { problemResponses } from '../../http/problem.js';
import { presentApiKey, presentUser, presentWorkspace } from './presenter.js';
import * as service from './service.js';

const tags = ['accounts'];

export const authRoutes: FastifyPluginAsyncTypebox<{ allowSignup: boolean }> = async (app, { allowSignup }) => {
  const deps = { db: app.db, dialect: app.dialect };

  app.post(
    '/api/signup',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Create a workspace and its first admin',
        body: SignupBody,
        response: { 201: SignupResult, ...problemResponses(403, 409) },
      },
    },
    async (request, reply) => {
      if (!allowSignup) throw forbidden('Sign-up is turned off on this server; ask an admin to add you.');
      const { token, user, workspace } = await service.signup(deps, request.body);
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
        body: LoginBody,
        response: { 200: SessionResult, ...problemResponses() },
      },
    },
    async (request) => {
      const { token, user } = await service.login(app.db, request.body);
      return { token, user: presentUser(user) };
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
        response: { 200: SessionResult, ...problemResponses() },
      },
    },
    async (request) => {
      const { token, user } = await service.signInWithAccessToken(app.db, request.body.accessToken);
      return { token, user: presentUser(user) };
    },
  );

  app.post(
    '/api/auth/logout',
    { schema: { tags, summary: 'End the current session', response: { 204: Type.Null(), ...problemResponses(409) } } },
    async (request, reply) => {
      await service.logout(deps, request.actor);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/me',
    { schema: { tags, summary: 'The caller and their workspace', response: { 200: Me, ...problemResponses() } } },
    async (request) => {
      const { user, workspace } = await service.me(app.db, request.actor);
      return { user: presentUser(user), workspace: presentWorkspace(workspace) };
    },
  );

  app.post(
    '/api/workspace/members',
    {
      schema: {
        tags,
        summary: 'Add a team member (admin)',
        body: AddMemberBody,
        response: { 201: Type.Object({ user: User }), ...problemResponses(403, 409) },
      },
    },
    async (request, reply) => {
      const user = await service.addMember(deps, request.actor, request.body);
      return reply.code(201).send({ user: presentUser(user) });
    },
  );

  app.post(
    '/api/workspace/quick-access',
    {
      schema: {
        tags,
        summary: 'Create a quick-access (client) account and its access token',
        body: CreateQuickAccessBody,
        response: { 201: QuickAccessCreated, ...problemResponses(403, 409) },
      },
    },
    async (request, reply) => {
      const { user, accessToken } = await service.createQuickAccess(deps, request.actor, request.body);
      return reply.code(201).send({ user: presentUser(user), accessToken });
    },
  );

  app.get(
    '/api/me/api-keys',
    {
      schema: {
        tags,
        summary: 'Your API keys (never their secrets)',
        response: { 200: Type.Object({ items: Type.Array(ApiKey) }), ...problemResponses(403) },
      },
    },
    async (request) => {
      return { items: (await service.listApiKeys(app.db, request.actor)).map(presentApiKey) };
    },
  );

  app.post(
    '/api/me/api-keys',
    {
      schema: {
        tags,
        summary: 'Create an API key; the key is shown once',
        body: CreateApiKeyBody,
        response: { 201: ApiKeyCreated, ...problemResponses(403) },
      },
    },
    async (request, reply) =>
      reply.code(201).send(await service.createApiKey(app.db, request.actor, request.body.name)),
  );

  app.delete(
    '/api/me/api-keys/:id',
    {
      schema: {
        tags,
        summary: 'Revoke an API key, at once',
        params: Type.Object({ id: Type.String({ maxLength: 100 }) }),
        response: { 204: Type.Null(), ...problemResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await service.revokeApiKey(deps, request.actor, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
