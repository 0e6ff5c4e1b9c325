import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ChallengeBody,
  ConfirmTwoFactorBody,
  IdParams,
  PasswordBody,
  RecoveryCodes,
  SecondFactorBody,
  SecondFactorResult,
  TwoFactorEnrolment,
  TwoFactorStatus,
  UpdateWorkspaceSecurityBody,
  WorkspaceSecurity,
} from '@svc/contract';
import { Type } from 'typebox';
import { problemResponses } from '../../http/problem.js';
import { presentUser } from '../auth/presenter.js';
import { clientOf } from '../auth/service.js';
import * as service from './service.js';

export const twoFactorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const ctx = app.ctx;
  const tags = ['accounts'];

  app.post(
    '/api/auth/two-factor',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Answer a sign-in’s second factor: a session',
        description:
          'The code of your authenticator app (each works once) or one of your recovery codes (each works once). Wrong codes count as failed sign-ins (429 past the limit) and five end the challenge (401: sign in again). After enrolling at sign-in, the answer carries your recovery codes, shown once.',
        body: SecondFactorBody,
        response: { 200: SecondFactorResult, ...problemResponses(409, 429) },
      },
    },
    async (request) => {
      const { token, user, recoveryCodes } = await service.answerSecondFactor(ctx, request.body, clientOf(request));
      return { token, user: presentUser(user), ...(recoveryCodes ? { recoveryCodes } : {}) };
    },
  );

  app.post(
    '/api/auth/two-factor/enrolment',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'Set up an authenticator app at sign-in, when the workspace requires one',
        description:
          'For a challenge of kind "enrol": the seed and its QR code for the app; then answer POST /api/auth/two-factor with the first code it shows.',
        body: ChallengeBody,
        response: { 200: TwoFactorEnrolment, ...problemResponses(409) },
      },
    },
    async (request) => service.enrolAtSignIn(ctx, request.body.challenge),
  );

  app.get(
    '/api/me/two-factor',
    {
      schema: {
        tags,
        summary: 'Your two-factor sign-in: on or off, recovery codes left, whether it is required of you',
        response: { 200: TwoFactorStatus, ...problemResponses() },
      },
    },
    async (request) => service.status(ctx, request.actor),
  );

  app.post(
    '/api/me/two-factor/enrolment',
    {
      schema: {
        tags,
        summary: 'Start setting up an authenticator app (your password asked again)',
        description: 'Scan the QR code (or type the seed), then confirm with POST /api/me/two-factor/confirm.',
        body: PasswordBody,
        response: { 200: TwoFactorEnrolment, ...problemResponses(403, 409, 429) },
      },
    },
    async (request) => service.startEnrolment(ctx, request.actor, request.body.password, clientOf(request)),
  );

  app.post(
    '/api/me/two-factor/confirm',
    {
      schema: {
        tags,
        summary: 'Turn two-factor sign-in on with the first code of your app: your recovery codes',
        body: ConfirmTwoFactorBody,
        response: { 200: RecoveryCodes, ...problemResponses(409) },
      },
    },
    async (request) => service.confirmEnrolment(ctx, request.actor, request.body.code),
  );

  app.post(
    '/api/me/two-factor/recovery-codes',
    {
      schema: {
        tags,
        summary: 'New recovery codes (the earlier ones stop working)',
        body: PasswordBody,
        response: { 200: RecoveryCodes, ...problemResponses(403, 409, 429) },
      },
    },
    async (request) => service.renewRecoveryCodes(ctx, request.actor, request.body.password, clientOf(request)),
  );

  app.post(
    '/api/me/two-factor/disable',
    {
      schema: {
        tags,
        summary: 'Turn two-factor sign-in off (refused while your workspace requires it of you)',
        body: PasswordBody,
        response: { 204: Type.Null(), ...problemResponses(403, 429) },
      },
    },
    async (request, reply) => {
      await service.disableOwn(ctx, request.actor, request.body.password, clientOf(request));
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/api/workspace/security',
    {
      schema: {
        tags: ['workspace'],
        summary: 'How the workspace signs in: who must use a second factor',
        response: { 200: WorkspaceSecurity, ...problemResponses(403) },
      },
    },
    async (request) => service.security(ctx, request.actor),
  );

  app.patch(
    '/api/workspace/security',
    {
      schema: {
        tags: ['workspace'],
        summary: 'Require a second factor of admins, of everyone, or of nobody',
        description:
          'Takes effect at each person’s next sign-in: one without a second factor is then asked to set one up before their session begins. Sessions in force go on.',
        body: UpdateWorkspaceSecurityBody,
        response: { 200: WorkspaceSecurity, ...problemResponses(403) },
      },
    },
    async (request) => service.updateSecurity(ctx, request.actor, request.body),
  );

  app.delete(
    '/api/workspace/members/:id/two-factor',
    {
      schema: {
        tags: ['workspace'],
        summary: 'Remove a member’s second factor (a lost phone)',
        description:
          'Their app and recovery codes stop working; they sign in with their password alone, or set up a new app if the workspace requires one. Audited.',
        params: IdParams,
        response: { 204: Type.Null(), ...problemResponses(403, 404) },
      },
    },
    async (request, reply) => {
      await service.resetMember(ctx, request.actor, request.params.id);
      return reply.code(204).send(null);
    },
  );
};
