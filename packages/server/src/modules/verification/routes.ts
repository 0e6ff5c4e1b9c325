import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { route } from '../../http/route.js';
import { presentComment } from '../comments/presenter.js';
import { verifyComment } from './service.js';

export const verificationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  route(
    app,
    'POST /api/comments/{id}/verify',
    {
      tags: ['comments'],
      summary: "The author's verdict on an applied fix",
      description:
        'ok: true sets verifiedAt and adds the automated reply "Verified ✓" (idempotent). ok: false needs a note; the comment reopens, the reply "Not fixed: <note>" is added and whoever applied it is notified. Only the author or a workspace admin; only while applied (else 409).',
    },
    async (request) =>
      presentComment(await verifyComment(ctx, request.actor, request.params.id, request.body), request.actor),
  );
};
