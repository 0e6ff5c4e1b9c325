// Workspace administration: its people, their invitations and password resets, the client
// (quick-access) accounts and every API key.
import { type Static, Type } from 'typebox';
import { Email, Password, Role } from './accounts.js';
import { Line, Name, Nullable, Timestamp } from './common.js';

const TeamRole = Type.Union([Type.Literal('admin'), Type.Literal('member')]);

export const Member = Type.Object({
  id: Type.String(),
  name: Type.String(),
  role: Role,
  agent: Type.Boolean({
    description: 'An agent (a coding agent, a CI job): it acts through its API keys and never signs in',
  }),
  email: Type.Optional(Type.String({ description: 'Shown to admins only' })),
  createdAt: Type.Optional(Timestamp),
  lastSignInAt: Type.Optional(Nullable(Timestamp)),
  twoFactor: Type.Optional(
    Type.Boolean({ description: 'Shown to admins only: whether they sign in with a second factor' }),
  ),
});
export type Member = Static<typeof Member>;

export const CreateAgentBody = Type.Object(
  { name: Name(100) },
  {
    description:
      'An agent of the team: a name to assign work to and to show on what it does, and an API key to act with',
    examples: [{ name: 'CI agent' }],
  },
);
export type CreateAgentBody = Static<typeof CreateAgentBody>;

export const UpdateMemberBody = Type.Object({ role: TeamRole }, { examples: [{ role: 'admin' }] });

export const CreateInviteBody = Type.Object(
  { email: Email, role: TeamRole },
  { examples: [{ email: 'new.dev@example.com', role: 'member' }] },
);
export type CreateInviteBody = Static<typeof CreateInviteBody>;

export const Invite = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: TeamRole,
  invitedBy: Nullable(Type.Object({ id: Type.String(), name: Type.String() })),
  createdAt: Timestamp,
  expiresAt: Timestamp,
});

export const InviteCreated = Type.Object({
  id: Type.String(),
  email: Type.String(),
  role: TeamRole,
  inviteUrl: Type.String({ description: 'Shown once: pass it on to the person invited. Works once, until expiresAt.' }),
  expiresAt: Timestamp,
});

export const AcceptInviteBody = Type.Object(
  { token: Line({ minLength: 1, maxLength: 200 }), name: Name(100), password: Password },
  { examples: [{ token: 'svc_inv_…', name: 'Nia Newcomer', password: 'a long passphrase' }] },
);
export type AcceptInviteBody = Static<typeof AcceptInviteBody>;

export const PasswordResetCreated = Type.Object({
  resetUrl: Type.String({ description: 'Shown once: pass it on. Works once, until expiresAt; sets a new password.' }),
  expiresAt: Timestamp,
});

export const CompletePasswordResetBody = Type.Object(
  { token: Line({ minLength: 1, maxLength: 200 }), password: Password },
  { examples: [{ token: 'svc_rst_…', password: 'a new long passphrase' }] },
);
export type CompletePasswordResetBody = Static<typeof CompletePasswordResetBody>;

export const QuickAccessAccount = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Nullable(Type.String()),
  projectKey: Nullable(Type.String({ description: 'The one project the account may see, or null for all' })),
  createdAt: Timestamp,
  lastSignInAt: Nullable(Timestamp),
});

export const AccessLink = Type.Object({
  accessToken: Type.String({ description: 'Shown once. Signs in until the link is rotated or the account revoked.' }),
  accessUrl: Nullable(
    Type.String({
      description:
        "The project's app URL with ?svc_access=<token>: opening it signs the client in. Null when no project has an app URL.",
    }),
  ),
});

export const WorkspaceApiKey = Type.Object({
  id: Type.String(),
  name: Type.String(),
  lastFour: Type.String(),
  owner: Type.Object({ id: Type.String(), name: Type.String() }),
  createdAt: Timestamp,
  lastUsedAt: Nullable(Timestamp),
});

export const WorkspaceStorage = Type.Object({
  usedBytes: Type.Integer({ description: 'What its uploads (images and screenshots) take, in bytes' }),
  quotaBytes: Type.Integer({
    description:
      'What they may take at most: the quota the operator set for this workspace, else the server’s (SVC_STORAGE_QUOTA_MB). An upload past it is 413 storage_quota_exceeded; deleting comments frees their images',
  }),
});
export type WorkspaceStorage = Static<typeof WorkspaceStorage>;
