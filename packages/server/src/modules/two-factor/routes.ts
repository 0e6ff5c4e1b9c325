import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { clientOf } from '../../http/client.js';
import { route } from '../../http/route.js';
import { presentUser } from '../auth/presenter.js';
import * as service from './service.js';

export const twoFactorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  const tags = ['accounts'];

  route(
    app,
    'POST /api/auth/two-factor',
    {
      tags,
      summary: 'Answer a sign-in’s second factor: a session',
      description:
        'The code of your authenticator app (each works once) or one of your recovery codes (each works once). Wrong codes count as failed sign-ins (429 past the limit) and five end the challenge (401: sign in again). After enrolling at sign-in, the answer carries your recovery codes, shown once.',
    },
    async (request) => {
      const { token, user, recoveryCodes } = await service.answerSecondFactor(ctx, request.body, clientOf(request));
      return { token, user: presentUser(user), ...(recoveryCodes ? { recoveryCodes } : {}) };
    },
  );

  route(
    app,
    'POST /api/auth/two-factor/enrolment',
    {
      tags,
      summary: 'Set up an authenticator app at sign-in, when the workspace requires one',
      description:
        'For a challenge of kind "enrol": the seed and its QR code for the app; then answer POST /api/auth/two-factor with the first code it shows.',
    },
    async (request) => service.enrolAtSignIn(ctx, request.body.challenge),
  );

  route(
    app,
    'GET /api/me/two-factor',
    { tags, summary: 'Your two-factor sign-in: on or off, recovery codes left, whether it is required of you' },
    async (request) => service.status(ctx, request.actor),
  );

  route(
    app,
    'POST /api/me/two-factor/enrolment',
    {
      tags,
      summary: 'Start setting up an authenticator app (your password asked again)',
      description: 'Scan the QR code (or type the seed), then confirm with POST /api/me/two-factor/confirm.',
    },
    async (request) => service.startEnrolment(ctx, request.actor, request.body.password, clientOf(request)),
  );

  route(
    app,
    'POST /api/me/two-factor/confirm',
    { tags, summary: 'Turn two-factor sign-in on with the first code of your app: your recovery codes' },
    async (request) => service.confirmEnrolment(ctx, request.actor, request.body.code),
  );

  route(
    app,
    'POST /api/me/two-factor/recovery-codes',
    { tags, summary: 'New recovery codes (the earlier ones stop working)' },
    async (request) => service.renewRecoveryCodes(ctx, request.actor, request.body.password, clientOf(request)),
  );

  route(
    app,
    'POST /api/me/two-factor/disable',
    { tags, summary: 'Turn two-factor sign-in off (refused while your workspace requires it of you)' },
    async (request, reply) => {
      await service.disableOwn(ctx, request.actor, request.body.password, clientOf(request));
      return reply.code(204).send(null);
    },
  );

  route(
    app,
    'GET /api/workspace/security',
    { tags: ['workspace'], summary: 'How the workspace signs in: who must use a second factor' },
    async (request) => service.security(ctx, request.actor),
  );

  route(
    app,
    'PATCH /api/workspace/security',
    {
      tags: ['workspace'],
      summary: 'Require a second factor of admins, of everyone, or of nobody',
      description:
        'Takes effect at each person’s next sign-in: one without a second factor is then asked to set one up before their session begins. Sessions in force go on.',
    },
    async (request) => service.updateSecurity(ctx, request.actor, request.body),
  );

  route(
    app,
    'DELETE /api/workspace/members/{id}/two-factor',
    {
      tags: ['workspace'],
      summary: 'Remove a member’s second factor (a lost phone)',
      description:
        'Their app and recovery codes stop working; they sign in with their password alone, or set up a new app if the workspace requires one. Audited.',
    },
    async (request, reply) => {
      await service.resetMember(ctx, request.actor, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
