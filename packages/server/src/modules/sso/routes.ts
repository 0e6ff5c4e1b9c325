import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  PutSsoBody,
  SessionResult,
  SsoDiscovery,
  SsoDiscoveryQuery,
  SsoExchangeBody,
  SsoSettings,
  SsoStarted,
  StartSsoBody,
} from '@svc/contract';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { Clock } from '../../clock.js';
import type { SessionPolicy } from '../../config.js';
import { AppError } from '../../errors.js';
import { problemResponses } from '../../http/problem.js';
import type { RateRules } from '../../limits/rules.js';
import type { SecretBox } from '../../secrets.js';
import { presentUser } from '../auth/presenter.js';
import { clientOf } from '../auth/service.js';
import * as service from './service.js';

export const ssoRoutes: FastifyPluginAsyncTypebox<{
  sessions: SessionPolicy;
  rules: RateRules;
  secrets: SecretBox;
  clock: Clock;
  publicUrl: string | null;
}> = async (app, { sessions, rules, secrets, clock, publicUrl }) => {
  const deps: service.SsoDeps = { db: app.database.db, database: app.database, sessions, rules, secrets, clock };
  /** The address the provider sends people back to must be the one registered: the public URL when set. */
  const baseUrl = (request: FastifyRequest) => publicUrl ?? `${request.protocol}://${request.host}`;

  app.get(
    '/api/auth/sso',
    {
      config: { public: true },
      schema: {
        tags: ['accounts'],
        summary: 'Find the single sign-on for an e-mail (by its domain) or a workspace',
        description:
          'What the sign-in page shows as "Continue with <displayName>": the workspace whose provider serves the e-mail’s domain (one of its allowed domains), or the workspace named (its sign-in link). 404 when there is none.',
        querystring: SsoDiscoveryQuery,
        response: { 200: SsoDiscovery, ...problemResponses(404) },
      },
    },
    async (request) => service.discoverFor(deps, request.query),
  );

  app.post(
    '/api/auth/sso/start',
    {
      config: { public: true },
      schema: {
        tags: ['accounts'],
        summary: 'Begin signing in with the workspace’s provider: the URL to open',
        description:
          'Authorization code flow with PKCE, state and nonce. The provider sends the browser back to /api/auth/sso/callback, which sends it on to the console’s sign-in page with a one-time code after "#" (never in a query); the console exchanges it (POST /api/auth/sso/exchange).',
        body: StartSsoBody,
        response: { 200: SsoStarted, ...problemResponses(404, 503) },
      },
    },
    async (request) => {
      try {
        return await service.start(deps, request.body.workspace, baseUrl(request));
      } catch (error) {
        if (error instanceof service.ProviderUnavailable) {
          throw new AppError('unavailable', `The workspace’s sign-in provider does not answer: ${error.message}`);
        }
        throw error;
      }
    },
  );

  app.get(
    service.CALLBACK_PATH,
    {
      config: { public: true },
      schema: {
        tags: ['accounts'],
        summary: 'Where the provider sends the browser back (the redirect URL to register)',
        description:
          'Redirects to the console’s sign-in page: /sign-in#sso_code=<one-time code> on success, /sign-in#sso_error=<why> otherwise.',
        querystring: Type.Object({}, { additionalProperties: true }),
        response: { 302: Type.Null() },
      },
    },
    async (request, reply) => {
      const base = baseUrl(request);
      const url = new URL(request.url, base);
      let fragment: string;
      try {
        fragment = `sso_code=${encodeURIComponent(await service.callback(deps, url))}`;
      } catch (error) {
        if (!(error instanceof service.Refused)) throw error;
        request.log.info({ reason: error.message }, 'single sign-on refused');
        fragment = `sso_error=${encodeURIComponent(error.message)}`;
      }
      reply.header('cache-control', 'no-store');
      return reply.redirect(`${base}/sign-in#${fragment}`, 302);
    },
  );

  app.post(
    '/api/auth/sso/exchange',
    {
      config: { public: true },
      schema: {
        tags: ['accounts'],
        summary: 'Trade the one-time code of a single sign-on for a session',
        description: 'The code works once, for 2 minutes; wrong codes count as failed sign-ins of the address.',
        body: SsoExchangeBody,
        response: { 200: SessionResult, ...problemResponses(429) },
      },
    },
    async (request) => {
      const { token, user } = await service.exchange(deps, request.body.code, clientOf(request));
      return { token, user: presentUser(user) };
    },
  );

  app.get(
    '/api/workspace/sso',
    {
      schema: {
        tags: ['workspace'],
        summary: 'The workspace’s single sign-on (its client secret is never returned)',
        response: { 200: SsoSettings, ...problemResponses(403) },
      },
    },
    async (request) => service.settings(deps, request.actor, baseUrl(request)),
  );

  app.put(
    '/api/workspace/sso',
    {
      schema: {
        tags: ['workspace'],
        summary: 'Set up single sign-on with an OpenID Connect provider',
        description:
          'The issuer is discovered before anything is saved (400 naming what failed). The client secret is encrypted at rest; omit it to keep the stored one. An e-mail domain belongs to one workspace’s single sign-on (409). requireForMembers refuses members’ passwords; admins keep theirs.',
        body: PutSsoBody,
        response: { 200: SsoSettings, ...problemResponses(403, 409) },
      },
    },
    async (request) => service.saveSettings(deps, request.actor, request.body, baseUrl(request)),
  );

  app.delete(
    '/api/workspace/sso',
    {
      schema: {
        tags: ['workspace'],
        summary: 'Stop signing in with single sign-on (everyone keeps or resets a password)',
        response: { 204: Type.Null(), ...problemResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await service.removeSettings(deps, request.actor);
      return reply.code(204).send(null);
    },
  );
};
