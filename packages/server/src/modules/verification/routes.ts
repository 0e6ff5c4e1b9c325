import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { route } from '../../http/route.js';
import { presentComment } from '../comments/presenter.js';
import { verifyComment } from './service.js';

export const verificationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  route(app, 'POST /api/comments/{id}/verify', { tags: ['comments'] }, async (request) =>
    presentComment(await verifyComment(ctx, request.actor, request.params.id, request.body), request.actor),
  );
};
