import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { clientOf } from '../../http/client.js';
import { route } from '../../http/route.js';
import { presentSignIn, presentUser } from '../auth/presenter.js';
import { signInWithAccessLink, signInWithPassword, signInWithProvider } from './service.js';

const tags = ['accounts'];

/**
 * The ways in that answer a session, or a second factor to answer first (see two-factor/);
 * accepting an invitation and completing a reset end in the same place (see invitations/).
 */
export const signInRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;

  route(
    app,
    'POST /api/auth/login',
    {
      tags,
      summary: 'Sign in with e-mail and password',
      description:
        'Failed sign-ins are limited per client address and per account; past the limit the answer is 429 with Retry-After, before the password is checked. When the account has a second factor, or its workspace requires one, the answer is a challenge instead of a session (see POST /api/auth/two-factor).',
    },
    async (request) => presentSignIn(await signInWithPassword(ctx, request.body, clientOf(request))),
  );

  route(
    app,
    'POST /api/auth/quick-access',
    { tags, summary: 'Exchange an access link token for a session' },
    async (request) => {
      const { token, user } = await signInWithAccessLink(ctx, request.body.accessToken, clientOf(request));
      return { token, user: presentUser(user) };
    },
  );

  route(
    app,
    'POST /api/auth/sso/exchange',
    {
      tags,
      summary: 'Trade the one-time code of a single sign-on for a session',
      description:
        'The code works once, for 2 minutes, and only with the binding its start answered (kept by the browser that started it); wrong codes count as failed sign-ins of the address.',
    },
    async (request) => {
      const { token, user } = await signInWithProvider(ctx, request.body, clientOf(request));
      return { token, user: presentUser(user) };
    },
  );
};
