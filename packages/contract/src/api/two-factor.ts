// Two-factor sign-in: the second step of signing in, enrolling, recovery codes, and the
// workspace's security settings that require it (served by the server's modules/two-factor).
import { Type } from 'typebox';
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
} from '../index.js';
import { endpoint } from './endpoint.js';

export const twoFactorEndpoints = {
  'POST /api/auth/two-factor': endpoint({
    summary: 'Answer a sign-in’s second factor: a session',
    description:
      'The code of your authenticator app (each works once) or one of your recovery codes (each works once). Wrong codes count as failed sign-ins (429 past the limit) and five end the challenge (401: sign in again). After enrolling at sign-in, the answer carries your recovery codes, shown once.',
    body: SecondFactorBody,
    answers: { 200: SecondFactorResult },
    problems: [409, 429],
    public: true,
  }),
  'POST /api/auth/two-factor/enrolment': endpoint({
    summary: 'Set up an authenticator app at sign-in, when the workspace requires one',
    description:
      'For a challenge of kind "enrol": the seed and its QR code for the app; then answer POST /api/auth/two-factor with the first code it shows.',
    body: ChallengeBody,
    answers: { 200: TwoFactorEnrolment },
    problems: [409],
    public: true,
  }),
  'GET /api/me/two-factor': endpoint({
    summary: 'Your two-factor sign-in: on or off, recovery codes left, whether it is required of you',
    answers: { 200: TwoFactorStatus },
    problems: [],
  }),
  'POST /api/me/two-factor/enrolment': endpoint({
    summary: 'Start setting up an authenticator app (your password asked again)',
    description: 'Scan the QR code (or type the seed), then confirm with POST /api/me/two-factor/confirm.',
    body: PasswordBody,
    answers: { 200: TwoFactorEnrolment },
    problems: [403, 409, 429],
  }),
  'POST /api/me/two-factor/confirm': endpoint({
    summary: 'Turn two-factor sign-in on with the first code of your app: your recovery codes',
    body: ConfirmTwoFactorBody,
    answers: { 200: RecoveryCodes },
    problems: [409],
  }),
  'POST /api/me/two-factor/recovery-codes': endpoint({
    summary: 'New recovery codes (the earlier ones stop working)',
    body: PasswordBody,
    answers: { 200: RecoveryCodes },
    problems: [403, 409, 429],
  }),
  'POST /api/me/two-factor/disable': endpoint({
    summary: 'Turn two-factor sign-in off (refused while your workspace requires it of you)',
    body: PasswordBody,
    answers: { 204: Type.Null() },
    problems: [403, 429],
  }),
  'GET /api/workspace/security': endpoint({
    summary: 'How the workspace signs in: who must use a second factor',
    answers: { 200: WorkspaceSecurity },
    problems: [403],
  }),
  'PATCH /api/workspace/security': endpoint({
    summary: 'Require a second factor of admins, of everyone, or of nobody',
    description:
      'Takes effect at each person’s next sign-in: one without a second factor is then asked to set one up before their session begins. Sessions in force go on.',
    body: UpdateWorkspaceSecurityBody,
    answers: { 200: WorkspaceSecurity },
    problems: [403],
  }),
  'DELETE /api/workspace/members/{id}/two-factor': endpoint({
    summary: 'Remove a member’s second factor (a lost phone)',
    description:
      'Their app and recovery codes stop working; they sign in with their password alone, or set up a new app if the workspace requires one. Audited.',
    params: IdParams,
    answers: { 204: Type.Null() },
    problems: [403, 404],
  }),
} as const;
