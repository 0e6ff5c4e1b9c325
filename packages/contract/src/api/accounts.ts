// Accounts and signing in: signing up, in and out, who you are, your sessions and password, and
// API keys (served by the server's modules/auth, sign-in and api-keys).
import { Type } from 'typebox';
import {
  ApiKey,
  ApiKeyCreated,
  ChangePasswordBody,
  CreateApiKeyBody,
  EndedSessions,
  IdParams,
  LoginBody,
  LoginResult,
  Me,
  Page,
  PageOnlyQuery,
  QuickAccessSignInBody,
  Session,
  SessionResult,
  SignupBody,
  SignupResult,
  SsoExchangeBody,
  UpdateMeBody,
  UpdateWorkspaceBody,
  User,
  Workspace,
  WorkspaceApiKey,
} from '../index.js';
import { endpoint } from './endpoint.js';

export const accountEndpoints = {
  'GET /api/me/api-keys': endpoint({
    summary: 'Your API keys (never their secrets), newest first',
    query: PageOnlyQuery,
    answers: { 200: Page(ApiKey) },
    problems: [403],
  }),
  'POST /api/me/api-keys': endpoint({
    summary: 'Create an API key; the key is shown once',
    description:
      'At most SVC_API_KEYS_PER_USER live keys per person (409 past it), created at most SVC_API_KEYS_PER_HOUR an hour (429).',
    body: CreateApiKeyBody,
    answers: { 201: ApiKeyCreated },
    problems: [403, 409, 429],
  }),
  'DELETE /api/me/api-keys/{id}': endpoint({
    summary: 'Revoke an API key, at once',
    params: IdParams,
    answers: { 204: Type.Null() },
    problems: [403, 404],
  }),
  'GET /api/workspace/api-keys': endpoint({
    summary: 'Every API key of the workspace with its owner, newest first (admin; never the secrets)',
    query: PageOnlyQuery,
    answers: { 200: Page(WorkspaceApiKey) },
    problems: [403],
  }),
  'DELETE /api/workspace/api-keys/{id}': endpoint({
    summary: "Revoke anyone's API key (admin), at once",
    params: IdParams,
    answers: { 204: Type.Null() },
    problems: [403, 404],
  }),
  'POST /api/signup': endpoint({
    summary: 'Create a workspace and its first admin',
    body: SignupBody,
    answers: { 201: SignupResult },
    problems: [403, 409, 429],
    public: true,
  }),
  'POST /api/auth/login': endpoint({
    summary: 'Sign in with e-mail and password',
    description:
      'Failed sign-ins are limited per client address and per account; past the limit the answer is 429 with Retry-After, before the password is checked. When the account has a second factor, or its workspace requires one, the answer is a challenge instead of a session (see POST /api/auth/two-factor).',
    body: LoginBody,
    answers: { 200: LoginResult },
    problems: [403, 429],
    public: true,
  }),
  'POST /api/auth/quick-access': endpoint({
    summary: 'Exchange an access link token for a session',
    body: QuickAccessSignInBody,
    answers: { 200: SessionResult },
    problems: [429],
    public: true,
  }),
  'POST /api/auth/logout': endpoint({
    summary: 'End the current session',
    answers: { 204: Type.Null() },
    problems: [409],
  }),
  'GET /api/me': endpoint({ summary: 'The caller and their workspace', answers: { 200: Me }, problems: [] }),
  'PATCH /api/me': endpoint({
    summary: 'Your settings: the language you read the widget and the console in',
    description: 'For every account, client accounts included. null: as your page or browser says.',
    body: UpdateMeBody,
    answers: { 200: User },
    problems: [400],
  }),
  'PATCH /api/workspace': endpoint({
    summary: 'The workspace’s settings: its default language',
    description:
      'The language of the widget and the console for those who chose none and whose page and browser name none of the ten the apps speak. null: English.',
    body: UpdateWorkspaceBody,
    answers: { 200: Workspace },
    problems: [400, 403],
  }),
  'GET /api/me/sessions': endpoint({
    summary: 'Your sessions in force, newest first',
    description:
      'A session ends when unused for SVC_SESSION_IDLE_SECONDS or SVC_SESSION_MAX_AGE_SECONDS after sign-in, whichever comes first (expiresAt).',
    query: PageOnlyQuery,
    answers: { 200: Page(Session) },
    problems: [],
  }),
  'DELETE /api/me/sessions/{id}': endpoint({
    summary: 'End one of your sessions, at once',
    params: IdParams,
    answers: { 204: Type.Null() },
    problems: [404],
  }),
  'POST /api/me/sessions/end-others': endpoint({
    summary: 'Sign out everywhere else: end every session but this one',
    answers: { 200: EndedSessions },
    problems: [],
  }),
  'POST /api/me/password': endpoint({
    summary: 'Change your password; every other session ends',
    body: ChangePasswordBody,
    answers: { 200: EndedSessions },
    problems: [403, 429],
  }),
  'POST /api/auth/sso/exchange': endpoint({
    summary: 'Trade the one-time code of a single sign-on for a session',
    description:
      'The code works once, for 2 minutes, and only with the binding its start answered (kept by the browser that started it); wrong codes count as failed sign-ins of the address.',
    body: SsoExchangeBody,
    answers: { 200: SessionResult },
    problems: [429],
    public: true,
  }),
} as const;
