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

  route(app, 'POST /api/auth/login', { tags }, async (request) =>
    presentSignIn(await signInWithPassword(ctx, request.body, clientOf(request))),
  );

  route(app, 'POST /api/auth/quick-access', { tags }, async (request) => {
    const { token, user } = await signInWithAccessLink(ctx, request.body.accessToken, clientOf(request));
    return { token, user: presentUser(user) };
  });

  route(app, 'POST /api/auth/sso/exchange', { tags }, async (request) => {
    const { token, user } = await signInWithProvider(ctx, request.body, clientOf(request));
    return { token, user: presentUser(user) };
  });
};
