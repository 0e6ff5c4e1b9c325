import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { clientOf } from '../../http/client.js';
import { route } from '../../http/route.js';
import { presentUser } from '../auth/presenter.js';
import * as service from './service.js';

export const twoFactorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  const tags = ['accounts'];

  route(app, 'POST /api/auth/two-factor', { tags }, async (request) => {
    const { token, user, recoveryCodes } = await service.answerSecondFactor(ctx, request.body, clientOf(request));
    return { token, user: presentUser(user), ...(recoveryCodes ? { recoveryCodes } : {}) };
  });

  route(app, 'POST /api/auth/two-factor/enrolment', { tags }, async (request) =>
    service.enrolAtSignIn(ctx, request.body.challenge),
  );

  route(app, 'GET /api/me/two-factor', { tags }, async (request) => service.status(ctx, request.actor));

  route(app, 'POST /api/me/two-factor/enrolment', { tags }, async (request) =>
    service.startEnrolment(ctx, request.actor, request.body.password, clientOf(request)),
  );

  route(app, 'POST /api/me/two-factor/confirm', { tags }, async (request) =>
    service.confirmEnrolment(ctx, request.actor, request.body.code),
  );

  route(app, 'POST /api/me/two-factor/recovery-codes', { tags }, async (request) =>
    service.renewRecoveryCodes(ctx, request.actor, request.body.password, clientOf(request)),
  );

  route(app, 'POST /api/me/two-factor/disable', { tags }, async (request, reply) => {
    await service.disableOwn(ctx, request.actor, request.body.password, clientOf(request));
    return reply.code(204).send(null);
  });

  route(app, 'GET /api/workspace/security', { tags: ['workspace'] }, async (request) =>
    service.security(ctx, request.actor),
  );

  route(app, 'PATCH /api/workspace/security', { tags: ['workspace'] }, async (request) =>
    service.updateSecurity(ctx, request.actor, request.body),
  );

  route(app, 'DELETE /api/workspace/members/{id}/two-factor', { tags: ['workspace'] }, async (request, reply) => {
    await service.resetMember(ctx, request.actor, request.params.id);
    return reply.code(204).send(null);
  });
};
