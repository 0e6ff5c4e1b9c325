import { type Static, Type } from 'typebox';
import { Nullable, Text, Timestamp } from './common.js';

export const Role = Type.Union([Type.Literal('admin'), Type.Literal('member'), Type.Literal('client')]);
export type Role = Static<typeof Role>;

const Email = Type.String({ format: 'email', maxLength: 254 });
const Password = Type.String({ minLength: 8, maxLength: 200, description: 'At least 8 characters' });

export const User = Type.Object({
  id: Type.String(),
  name: Type.String(),
  email: Nullable(Type.String()),
  role: Role,
  projectKey: Nullable(Type.String({ description: 'Set for a quick-access account limited to one project' })),
  createdAt: Timestamp,
});
export type User = Static<typeof User>;

export const Workspace = Type.Object({
  id: Type.String(),
  name: Type.String(),
  createdAt: Timestamp,
});
export type Workspace = Static<typeof Workspace>;

export const SignupBody = Type.Object({
  workspaceName: Text(100),
  name: Text(100),
  email: Email,
  password: Password,
});
export type SignupBody = Static<typeof SignupBody>;

export const SignupResult = Type.Object({ token: Type.String(), user: User, workspace: Workspace });

export const LoginBody = Type.Object({
  email: Type.String({ minLength: 1, maxLength: 254 }),
  password: Type.String({ minLength: 1, maxLength: 200 }),
});
export type LoginBody = Static<typeof LoginBody>;

export const SessionResult = Type.Object({ token: Type.String(), user: User });

export const QuickAccessSignInBody = Type.Object({ accessToken: Type.String({ minLength: 1, maxLength: 200 }) });

export const Me = Type.Object({ user: User, workspace: Workspace });

export const AddMemberBody = Type.Object({
  name: Text(100),
  email: Email,
  role: Type.Union([Type.Literal('admin'), Type.Literal('member')]),
  password: Password,
});
export type AddMemberBody = Static<typeof AddMemberBody>;

export const CreateQuickAccessBody = Type.Object({
  name: Text(100),
  email: Type.Optional(Email),
  projectKey: Type.Optional(Type.String({ maxLength: 40, description: 'Limit the account to this project' })),
});
export type CreateQuickAccessBody = Static<typeof CreateQuickAccessBody>;

export const QuickAccessCreated = Type.Object({
  user: User,
  accessToken: Type.String({ description: 'Shown once. Signs in until the account is removed.' }),
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

export const CreateApiKeyBody = Type.Object({ name: Text(100) });
