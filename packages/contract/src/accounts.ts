import { type Static, Type } from 'typebox';
import { Line, Name, Nullable, Timestamp } from './common.js';
import { LOCALES, type Locale as LocaleTag } from './i18n.js';

/** A language of the apps' catalogues (see i18n.ts). */
export const Locale = Type.Unsafe<LocaleTag>({
  type: 'string',
  enum: [...LOCALES],
  description: 'A language of the widget and the console',
});

export const Role = Type.Union([Type.Literal('admin'), Type.Literal('member'), Type.Literal('client')]);
export type Role = Static<typeof Role>;

/** Passwords: at least this long, and not one of the commonly used ones. */
export const PASSWORD_MIN_LENGTH = 10;

export const Email = Line({ format: 'email', maxLength: 254 });
export const Password = Line({
  minLength: PASSWORD_MIN_LENGTH,
  maxLength: 200,
  description: `At least ${PASSWORD_MIN_LENGTH} characters, not a commonly used password`,
});

export const User = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Nullable(Type.String()),
  role: Role,
  projectKey: Nullable(Type.String({ description: 'Set for a quick-access account limited to one project' })),
  locale: Nullable(Locale, {
    description: 'The language this person reads the widget and the console in; null: as their page or browser says',
  }),
  createdAt: Timestamp,
});
export type User = Static<typeof User>;

export const TwoFactorRequired = Type.Union([Type.Literal('none'), Type.Literal('admins'), Type.Literal('everyone')], {
  description:
    'Who must sign in with a second factor (a code from an authenticator app): nobody, admins, or every admin and member. Client accounts sign in by link and are never asked.',
});
export type TwoFactorRequired = Static<typeof TwoFactorRequired>;

export const Workspace = Type.Object({
  id: Type.String(),
  name: Type.String(),
  createdAt: Timestamp,
  twoFactorRequired: TwoFactorRequired,
  defaultLocale: Nullable(Locale, {
    description: 'The language of those whose browser speaks none of the apps’ languages; null: English',
  }),
});
export type Workspace = Static<typeof Workspace>;

export const UpdateMeBody = Type.Object(
  { locale: Nullable(Locale, { description: 'null: as the page or browser says' }) },
  { examples: [{ locale: 'de' }] },
);
export type UpdateMeBody = Static<typeof UpdateMeBody>;

export const UpdateWorkspaceBody = Type.Object(
  { defaultLocale: Nullable(Locale, { description: 'null: English' }) },
  { examples: [{ defaultLocale: 'fr' }] },
);
export type UpdateWorkspaceBody = Static<typeof UpdateWorkspaceBody>;

export const SignupBody = Type.Object(
  {
    workspaceName: Name(100),
    name: Name(100),
    email: Email,
    password: Password,
  },
  {
    examples: [
      { workspaceName: 'Northwind', name: 'Ada Admin', email: 'ada@example.com', password: 'a long passphrase' },
    ],
  },
);
export type SignupBody = Static<typeof SignupBody>;

export const SignupResult = Type.Object({ token: Type.String(), user: User, workspace: Workspace });

export const LoginBody = Type.Object(
  {
    email: Line({ minLength: 1, maxLength: 254 }),
    password: Line({ minLength: 1, maxLength: 200 }),
  },
  { examples: [{ email: 'ada@example.com', password: 'a long passphrase' }] },
);
export type LoginBody = Static<typeof LoginBody>;

export const SessionResult = Type.Object({ token: Type.String(), user: User });

export const SecondFactorAsked = Type.Object(
  {
    secondFactor: Type.Union([Type.Literal('code'), Type.Literal('enrol')], {
      description:
        'code: answer with a code of your authenticator app or a recovery code; enrol: the workspace requires a second factor you have not set up (POST /api/auth/two-factor/enrolment, then answer with its first code)',
    }),
    challenge: Type.String({ description: 'Shown once; good for 10 minutes and 5 wrong codes' }),
    expiresAt: Timestamp,
  },
  { description: 'The password was right; the session comes with the second factor (POST /api/auth/two-factor)' },
);
export type SecondFactorAsked = Static<typeof SecondFactorAsked>;

/** A sign-in with a password: a session, or the question of a second factor. */
export const LoginResult = Type.Union([SessionResult, SecondFactorAsked]);
export type LoginResult = Static<typeof LoginResult>;

export const QuickAccessSignInBody = Type.Object(
  { accessToken: Line({ minLength: 1, maxLength: 200 }) },
  { examples: [{ accessToken: 'svc_acc_…' }] },
);

/**
 * What the caller may do in their workspace, as the server's policy says (the same rules guard
 * the routes): clients show what these allow, and never decide by a role. What they may do with
 * one comment, reply or label comes with it (its `can`).
 */
export const WorkspaceAbilities = Type.Object(
  {
    useConsole: Type.Boolean({
      description: "The console's screens: the team's (a quick-access account comments from the site)",
    }),
    listMembers: Type.Boolean({ description: 'See the team' }),
    manageMembers: Type.Boolean({ description: 'Invite, change the role of, or remove people of the team' }),
    manageClients: Type.Boolean({ description: 'Make and revoke quick-access links' }),
    manageAgents: Type.Boolean({ description: 'Add agents and give them keys' }),
    readLabels: Type.Boolean(),
    manageLabels: Type.Boolean({ description: 'Create, change and delete labels' }),
    readAudit: Type.Boolean(),
    readInsights: Type.Boolean(),
    export: Type.Boolean({ description: "Export and import the workspace's comments" }),
    manageSecurity: Type.Boolean({ description: 'How the workspace signs in: two-factor rule, single sign-on' }),
    manageSettings: Type.Boolean({ description: "The workspace's settings (its default language)" }),
    readStorage: Type.Boolean({ description: 'What the workspace stores, against its quota' }),
    holdApiKeys: Type.Boolean({ description: 'Make and revoke API keys of their own' }),
    manageAllApiKeys: Type.Boolean({ description: "See and revoke everyone's API keys" }),
    changePassword: Type.Boolean(),
    manageProjects: Type.Boolean({ description: 'Create, change and delete projects' }),
    followProjects: Type.Boolean(),
    comment: Type.Boolean({ description: 'Write comments' }),
    applyComments: Type.Boolean({ description: 'Record fixes (and so read their commits)' }),
    assignComments: Type.Boolean({ description: 'Put people on comments: the team divides the work' }),
    reportBuilds: Type.Boolean({ description: 'Tell the server which build a page comes from' }),
  },
  { description: 'What the caller may do in the workspace: clients show these and decide by no role' },
);
export type WorkspaceAbilities = Static<typeof WorkspaceAbilities>;

export const Me = Type.Object({ user: User, workspace: Workspace, can: WorkspaceAbilities });
export type Me = Static<typeof Me>;

export const AddMemberBody = Type.Object(
  {
    name: Name(100),
    email: Email,
    role: Type.Union([Type.Literal('admin'), Type.Literal('member')]),
    password: Password,
  },
  { examples: [{ name: 'Mo Member', email: 'mo@example.com', role: 'member', password: 'another passphrase' }] },
);
export type AddMemberBody = Static<typeof AddMemberBody>;

export const CreateQuickAccessBody = Type.Object(
  {
    name: Name(100),
    email: Type.Optional(Email),
    projectKey: Type.Optional(Line({ maxLength: 40, description: 'Limit the account to this project' })),
  },
  { examples: [{ name: 'Cleo Client' }] },
);
export type CreateQuickAccessBody = Static<typeof CreateQuickAccessBody>;

export const QuickAccessCreated = Type.Object({
  user: User,
  accessToken: Type.String({ description: 'Shown once. Signs in until the link is rotated or the account revoked.' }),
  accessUrl: Nullable(
    Type.String({
      description:
        "The app URL of the account's project (or of the workspace's first project with one) with ?svc_access=<token>. Null when there is none.",
    }),
  ),
});

export const ApiKey = Type.Object({
  id: Type.String(),
  name: Type.String(),
  lastFour: Type.String({ description: 'The last four characters of the key, to tell keys apart' }),
  createdAt: Timestamp,
  lastUsedAt: Nullable(Timestamp),
});

export const ApiKeyCreated = Type.Object({
  id: Type.String(),
  name: Type.String(),
  key: Type.String({ description: 'Shown once' }),
  createdAt: Timestamp,
});

export const CreateApiKeyBody = Type.Object({ name: Name(100) }, { examples: [{ name: 'CI deploy' }] });

export const Session = Type.Object({
  id: Type.String(),
  createdAt: Timestamp,
  lastSeenAt: Timestamp,
  expiresAt: Timestamp,
  userAgent: Nullable(Type.String({ description: 'The client that signed in, as it introduced itself' })),
  current: Type.Boolean({ description: 'The session this request was made with' }),
});
export type Session = Static<typeof Session>;

export const EndedSessions = Type.Object({ ended: Type.Integer({ description: 'How many sessions were ended' }) });

export const ChangePasswordBody = Type.Object(
  {
    currentPassword: Line({ minLength: 1, maxLength: 200 }),
    newPassword: Password,
  },
  { examples: [{ currentPassword: 'a long passphrase', newPassword: 'an even longer passphrase' }] },
);
export type ChangePasswordBody = Static<typeof ChangePasswordBody>;
