// Two-factor sign-in: a code from an authenticator app (TOTP, RFC 6238) after the password,
// with single-use recovery codes; what a workspace requires of whom.
import { type Static, Type } from 'typebox';
import { SessionResult, TwoFactorRequired } from './accounts.js';
import { Line, Nullable, Timestamp } from './common.js';

const Code = Line({
  minLength: 6,
  maxLength: 20,
  description: 'The 6 digits your authenticator app shows, or one of your recovery codes (xxxxx-xxxxx)',
});

export const TwoFactorStatus = Type.Object({
  enabled: Type.Boolean(),
  enabledAt: Nullable(Timestamp),
  recoveryCodesLeft: Type.Integer({ minimum: 0, description: 'Unused recovery codes' }),
  required: Type.Boolean({ description: 'Whether your workspace requires it of you: then it cannot be turned off' }),
});
export type TwoFactorStatus = Static<typeof TwoFactorStatus>;

export const TwoFactorEnrolment = Type.Object({
  secret: Type.String({ description: 'The seed in base32, to type into an app that cannot scan' }),
  uri: Type.String({ description: 'The otpauth:// address the QR code holds' }),
  qrSvg: Type.String({ description: 'The QR code, as an SVG image' }),
});
export type TwoFactorEnrolment = Static<typeof TwoFactorEnrolment>;

export const PasswordBody = Type.Object(
  { password: Line({ minLength: 1, maxLength: 200, description: 'Your current password' }) },
  { examples: [{ password: 'a long passphrase' }] },
);
export type PasswordBody = Static<typeof PasswordBody>;

export const ConfirmTwoFactorBody = Type.Object(
  { code: Type.String({ pattern: '^[0-9]{6}$', description: 'The first code your app shows' }) },
  { examples: [{ code: '123456' }] },
);
export type ConfirmTwoFactorBody = Static<typeof ConfirmTwoFactorBody>;

export const RecoveryCodes = Type.Object({
  recoveryCodes: Type.Array(Type.String(), {
    description:
      'Shown once: each signs in once in place of a code (keep them where your phone is not). Any earlier ones no longer work.',
  }),
});
export type RecoveryCodes = Static<typeof RecoveryCodes>;

export const ChallengeBody = Type.Object(
  { challenge: Line({ minLength: 1, maxLength: 200 }) },
  { examples: [{ challenge: 'svc_chl_…' }] },
);
export type ChallengeBody = Static<typeof ChallengeBody>;

export const SecondFactorBody = Type.Object(
  { challenge: Line({ minLength: 1, maxLength: 200 }), code: Code },
  { examples: [{ challenge: 'svc_chl_…', code: '123456' }] },
);
export type SecondFactorBody = Static<typeof SecondFactorBody>;

export const SecondFactorResult = Type.Intersect([
  SessionResult,
  Type.Object({
    recoveryCodes: Type.Optional(
      Type.Array(Type.String(), { description: 'After enrolling at sign-in: your recovery codes, shown once' }),
    ),
  }),
]);
export type SecondFactorResult = Static<typeof SecondFactorResult>;

export const WorkspaceSecurity = Type.Object({ twoFactorRequired: TwoFactorRequired });
export type WorkspaceSecurity = Static<typeof WorkspaceSecurity>;

export const UpdateWorkspaceSecurityBody = Type.Object(
  { twoFactorRequired: TwoFactorRequired },
  { examples: [{ twoFactorRequired: 'admins' }] },
);
export type UpdateWorkspaceSecurityBody = Static<typeof UpdateWorkspaceSecurityBody>;
