// The API as its clients see it: for each route, the body it takes, the query it reads and the
// answer it gives, all derived from the schemas the server validates with. The CLI, the widget
// and the agent interface call the server through `ApiClient`, so a schema change that breaks a
// client breaks its build. Type-only imports: nothing of this reaches a bundle but `endpointPath`.
import type { Static, TSchema } from 'typebox';
import type {
  AddMemberBody,
  ApiKey,
  ApiKeyCreated,
  ChangePasswordBody,
  CreateApiKeyBody,
  CreateQuickAccessBody,
  EndedSessions,
  LoginBody,
  LoginResult,
  Me,
  QuickAccessCreated,
  QuickAccessSignInBody,
  Session,
  SessionResult,
  SignupBody,
  SignupResult,
  User,
} from './accounts.js';
import type { AuditEvent, AuditQuery, ExportQuery, ScreenshotsExportQuery } from './audit.js';
import type { Build, BuildReportBody, BuildReportResult, PendingDeploy } from './builds.js';
import type {
  ApplyBody,
  Comment,
  CommentChanges,
  CommentChangesQuery,
  CommentWithReplies,
  CreateCommentBody,
  FindCommentsQuery,
  ListCommentsQuery,
  RepinBody,
  Reply,
  ReplyBody,
  VerifyBody,
} from './comments.js';
import type { Insights, InsightsQuery } from './insights.js';
import type { ListNotificationsQuery, Notification, ReadAllBody, ReadAllResult, UnreadCount } from './notifications.js';
import type {
  CreateProjectBody,
  OriginCheck,
  OriginCheckQuery,
  Project,
  RefusedOrigin,
  UpdateProjectBody,
} from './projects.js';
import type { ServerInfo } from './server.js';
import type {
  PutSsoBody,
  SsoDiscovery,
  SsoDiscoveryQuery,
  SsoExchangeBody,
  SsoSettings,
  SsoStarted,
  StartSsoBody,
} from './sso.js';
import type {
  ChallengeBody,
  ConfirmTwoFactorBody,
  PasswordBody,
  RecoveryCodes,
  SecondFactorBody,
  SecondFactorResult,
  TwoFactorEnrolment,
  TwoFactorStatus,
  UpdateWorkspaceSecurityBody,
  WorkspaceSecurity,
} from './two-factor.js';
import type { ProblemDocument } from './vocabulary.js';
import type {
  AcceptInviteBody,
  AccessLink,
  CompletePasswordResetBody,
  CreateInviteBody,
  Invite,
  InviteCreated,
  Member,
  PasswordResetCreated,
  QuickAccessAccount,
  UpdateMemberBody,
  WorkspaceApiKey,
} from './workspace.js';

type Of<T extends TSchema> = Static<T>;
interface PageOf<T> {
  items: T[];
  nextCursor: string | null;
}
interface PageQuery {
  limit?: number;
  cursor?: string;
}

/** One route: what goes in (`body`, `query`) and what comes back on success (`answer`). */
interface Route<Answer, Body = undefined, Query = undefined> {
  answer: Answer;
  body: Body;
  query: Query;
}

export interface Endpoints {
  'POST /api/signup': Route<Of<typeof SignupResult>, Of<typeof SignupBody>>;
  'POST /api/auth/login': Route<Of<typeof LoginResult>, Of<typeof LoginBody>>;
  'POST /api/auth/two-factor': Route<Of<typeof SecondFactorResult>, Of<typeof SecondFactorBody>>;
  'POST /api/auth/two-factor/enrolment': Route<Of<typeof TwoFactorEnrolment>, Of<typeof ChallengeBody>>;
  'GET /api/me/two-factor': Route<Of<typeof TwoFactorStatus>>;
  'POST /api/me/two-factor/enrolment': Route<Of<typeof TwoFactorEnrolment>, Of<typeof PasswordBody>>;
  'POST /api/me/two-factor/confirm': Route<Of<typeof RecoveryCodes>, Of<typeof ConfirmTwoFactorBody>>;
  'POST /api/me/two-factor/recovery-codes': Route<Of<typeof RecoveryCodes>, Of<typeof PasswordBody>>;
  'POST /api/me/two-factor/disable': Route<null, Of<typeof PasswordBody>>;
  'GET /api/workspace/security': Route<Of<typeof WorkspaceSecurity>>;
  'PATCH /api/workspace/security': Route<Of<typeof WorkspaceSecurity>, Of<typeof UpdateWorkspaceSecurityBody>>;
  'DELETE /api/workspace/members/{id}/two-factor': Route<null>;
  'GET /api/auth/sso': Route<Of<typeof SsoDiscovery>, undefined, Of<typeof SsoDiscoveryQuery>>;
  'POST /api/auth/sso/start': Route<Of<typeof SsoStarted>, Of<typeof StartSsoBody>>;
  /** The provider's redirect back: a browser navigation, answered with a redirect to the console. */
  'GET /api/auth/sso/callback': Route<null>;
  'POST /api/auth/sso/exchange': Route<Of<typeof SessionResult>, Of<typeof SsoExchangeBody>>;
  'GET /api/workspace/sso': Route<Of<typeof SsoSettings>>;
  'PUT /api/workspace/sso': Route<Of<typeof SsoSettings>, Of<typeof PutSsoBody>>;
  'DELETE /api/workspace/sso': Route<null>;
  'POST /api/auth/quick-access': Route<Of<typeof SessionResult>, Of<typeof QuickAccessSignInBody>>;
  'POST /api/auth/logout': Route<undefined>;
  'GET /api/me': Route<Of<typeof Me>>;
  'GET /api/me/sessions': Route<{ items: Of<typeof Session>[] }>;
  'POST /api/me/sessions/end-others': Route<Of<typeof EndedSessions>>;
  'DELETE /api/me/sessions/{id}': Route<null>;
  'POST /api/me/password': Route<Of<typeof EndedSessions>, Of<typeof ChangePasswordBody>>;
  'GET /api/me/api-keys': Route<{ items: Of<typeof ApiKey>[] }>;
  'POST /api/me/api-keys': Route<Of<typeof ApiKeyCreated>, Of<typeof CreateApiKeyBody>>;
  'GET /api/projects': Route<{ items: Of<typeof Project>[] }>;
  'POST /api/projects': Route<Of<typeof Project>, Of<typeof CreateProjectBody>>;
  'GET /api/projects/{key}': Route<Of<typeof Project>>;
  'PATCH /api/projects/{key}': Route<Of<typeof Project>, Of<typeof UpdateProjectBody>>;
  'DELETE /api/projects/{key}': Route<null>;
  'GET /api/projects/{key}/refused-origins': Route<{ items: Of<typeof RefusedOrigin>[] }>;
  'GET /api/widget/origin-check': Route<Of<typeof OriginCheck>, undefined, Of<typeof OriginCheckQuery>>;
  'GET /api/comments': Route<PageOf<Of<typeof Comment>>, undefined, Of<typeof FindCommentsQuery>>;
  'GET /api/comments/changes': Route<Of<typeof CommentChanges>, undefined, Of<typeof CommentChangesQuery>>;
  'GET /api/workspace/members': Route<PageOf<Of<typeof Member>>, undefined, PageQuery>;
  'POST /api/workspace/members': Route<{ user: Of<typeof User> }, Of<typeof AddMemberBody>>;
  'PATCH /api/workspace/members/{id}': Route<{ user: Of<typeof User> }, Of<typeof UpdateMemberBody>>;
  'DELETE /api/workspace/members/{id}': Route<null>;
  'POST /api/workspace/members/{id}/password-reset': Route<Of<typeof PasswordResetCreated>>;
  'POST /api/password-reset/complete': Route<Of<typeof SessionResult>, Of<typeof CompletePasswordResetBody>>;
  'GET /api/workspace/invites': Route<PageOf<Of<typeof Invite>>, undefined, PageQuery>;
  'POST /api/workspace/invites': Route<Of<typeof InviteCreated>, Of<typeof CreateInviteBody>>;
  'DELETE /api/workspace/invites/{id}': Route<null>;
  'POST /api/invites/accept': Route<Of<typeof SessionResult>, Of<typeof AcceptInviteBody>>;
  'GET /api/workspace/quick-access': Route<PageOf<Of<typeof QuickAccessAccount>>, undefined, PageQuery>;
  'POST /api/workspace/quick-access': Route<Of<typeof QuickAccessCreated>, Of<typeof CreateQuickAccessBody>>;
  'POST /api/workspace/quick-access/{id}/rotate': Route<Of<typeof AccessLink>>;
  'DELETE /api/workspace/quick-access/{id}': Route<null>;
  'GET /api/workspace/audit': Route<PageOf<Of<typeof AuditEvent>>, undefined, Of<typeof AuditQuery>>;
  'GET /api/workspace/insights': Route<Of<typeof Insights>, undefined, Of<typeof InsightsQuery>>;
  'GET /api/workspace/export': Route<Blob, undefined, Of<typeof ExportQuery>>;
  'GET /api/workspace/export/screenshots': Route<Blob, undefined, Of<typeof ScreenshotsExportQuery>>;
  'GET /api/workspace/api-keys': Route<PageOf<Of<typeof WorkspaceApiKey>>, undefined, PageQuery>;
  'DELETE /api/workspace/api-keys/{id}': Route<null>;
  'GET /api/projects/{key}/comments': Route<PageOf<Of<typeof Comment>>, undefined, Of<typeof ListCommentsQuery>>;
  'POST /api/projects/{key}/comments': Route<Of<typeof Comment>, Of<typeof CreateCommentBody>>;
  'GET /api/projects/{key}/comments/pending-deploy': Route<PageOf<Of<typeof PendingDeploy>>, undefined, PageQuery>;
  'POST /api/projects/{key}/builds': Route<Of<typeof BuildReportResult>, Of<typeof BuildReportBody>>;
  'GET /api/projects/{key}/builds': Route<PageOf<Of<typeof Build>>, undefined, PageQuery>;
  'GET /api/comments/{id}': Route<Of<typeof CommentWithReplies>>;
  'POST /api/comments/{id}/replies': Route<Of<typeof Reply>, Of<typeof ReplyBody>>;
  'POST /api/comments/{id}/apply': Route<Of<typeof Comment>, Of<typeof ApplyBody>>;
  'POST /api/comments/{id}/reopen': Route<Of<typeof Comment>>;
  'POST /api/comments/{id}/archive': Route<Of<typeof Comment>>;
  'POST /api/comments/{id}/verify': Route<Of<typeof Comment>, Of<typeof VerifyBody>>;
  'DELETE /api/comments/{id}': Route<null>;
  'PUT /api/comments/{id}/screenshot': Route<Of<typeof Comment>, Blob>;
  'GET /api/comments/{id}/screenshot': Route<Blob>;
  'PUT /api/comments/{id}/anchor': Route<Of<typeof Comment>, Of<typeof RepinBody>>;
  'DELETE /api/me/api-keys/{id}': Route<null>;
  'GET /api/server': Route<Of<typeof ServerInfo>>;
  'GET /api/me/notifications': Route<
    PageOf<Of<typeof Notification>> & { unreadCount: number },
    undefined,
    Of<typeof ListNotificationsQuery>
  >;
  'GET /api/me/notifications/unread-count': Route<Of<typeof UnreadCount>>;
  'GET /api/me/notifications/{id}': Route<Of<typeof Notification>>;
  'POST /api/me/notifications/{id}/read': Route<Of<typeof Notification>>;
  'POST /api/me/notifications/read-all': Route<Of<typeof ReadAllResult>, Of<typeof ReadAllBody>>;
}

export type Endpoint = keyof Endpoints;
export type AnswerOf<E extends Endpoint> = Endpoints[E]['answer'];

/** The path's `{name}` placeholders of an endpoint, as an object to fill them from. */
type ParamsOf<E extends string> = E extends `${string}{${infer Name}}${infer Rest}`
  ? { [K in Name | keyof ParamsOf<Rest>]: string }
  : Record<never, never>;

/** What a call of the endpoint takes: path parameters, query and body, each only when it has them. */
export type CallOf<E extends Endpoint> = (keyof ParamsOf<E> extends never
  ? { params?: never }
  : { params: ParamsOf<E> }) &
  (Endpoints[E]['query'] extends undefined ? { query?: never } : { query?: Endpoints[E]['query'] }) &
  (Endpoints[E]['body'] extends undefined ? { body?: never } : { body: Endpoints[E]['body'] });

/**
 * The answer of a call: the typed body on success, the problem document (or nothing)
 * otherwise; `pollIntervalMs`, the wait before the next poll the server asks for
 * (`X-Poll-Interval`, on the polled unread count).
 */
export type Answer<E extends Endpoint> =
  | { ok: true; status: number; data: AnswerOf<E>; etag: string | null; pollIntervalMs?: number | null }
  | {
      ok: false;
      status: number;
      data: ProblemDocument | undefined;
      etag: string | null;
      pollIntervalMs?: number | null;
    };

/** The client shape every consumer implements over its own transport (fetch with its own errors). */
export interface ApiClient {
  call<E extends Endpoint>(endpoint: E, call: CallOf<E>, headers?: Record<string, string>): Promise<Answer<E>>;
}

/** Splits an endpoint into its method and its path with the parameters filled in and encoded, plus the query. */
export function endpointRequest(
  endpoint: Endpoint,
  call: { params?: Record<string, string>; query?: object },
): { method: string; path: string } {
  const [method, template] = endpoint.split(' ') as [string, string];
  const params = call.params ?? {};
  let path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(call.query ?? {})) {
    if (value !== undefined && value !== null) query.set(key, String(value));
  }
  if (query.size) path += `?${query}`;
  return { method, path };
}

/** Every endpoint of the map (the compiler checks the list is complete), for the server's test
 * that each one is a route it serves. */
const endpointSet = {
  'POST /api/signup': true,
  'POST /api/auth/login': true,
  'POST /api/auth/two-factor': true,
  'POST /api/auth/two-factor/enrolment': true,
  'GET /api/me/two-factor': true,
  'POST /api/me/two-factor/enrolment': true,
  'POST /api/me/two-factor/confirm': true,
  'POST /api/me/two-factor/recovery-codes': true,
  'POST /api/me/two-factor/disable': true,
  'GET /api/workspace/security': true,
  'PATCH /api/workspace/security': true,
  'DELETE /api/workspace/members/{id}/two-factor': true,
  'GET /api/auth/sso': true,
  'POST /api/auth/sso/start': true,
  'GET /api/auth/sso/callback': true,
  'POST /api/auth/sso/exchange': true,
  'GET /api/workspace/sso': true,
  'PUT /api/workspace/sso': true,
  'DELETE /api/workspace/sso': true,
  'POST /api/auth/quick-access': true,
  'POST /api/auth/logout': true,
  'GET /api/me': true,
  'GET /api/me/sessions': true,
  'POST /api/me/sessions/end-others': true,
  'DELETE /api/me/sessions/{id}': true,
  'POST /api/me/password': true,
  'GET /api/me/api-keys': true,
  'POST /api/me/api-keys': true,
  'GET /api/projects': true,
  'POST /api/projects': true,
  'GET /api/projects/{key}': true,
  'PATCH /api/projects/{key}': true,
  'DELETE /api/projects/{key}': true,
  'GET /api/projects/{key}/refused-origins': true,
  'GET /api/widget/origin-check': true,
  'GET /api/comments': true,
  'GET /api/comments/changes': true,
  'GET /api/workspace/members': true,
  'POST /api/workspace/members': true,
  'PATCH /api/workspace/members/{id}': true,
  'DELETE /api/workspace/members/{id}': true,
  'POST /api/workspace/members/{id}/password-reset': true,
  'POST /api/password-reset/complete': true,
  'GET /api/workspace/invites': true,
  'POST /api/workspace/invites': true,
  'DELETE /api/workspace/invites/{id}': true,
  'POST /api/invites/accept': true,
  'GET /api/workspace/quick-access': true,
  'POST /api/workspace/quick-access': true,
  'POST /api/workspace/quick-access/{id}/rotate': true,
  'DELETE /api/workspace/quick-access/{id}': true,
  'GET /api/workspace/audit': true,
  'GET /api/workspace/insights': true,
  'GET /api/workspace/export': true,
  'GET /api/workspace/export/screenshots': true,
  'GET /api/workspace/api-keys': true,
  'DELETE /api/workspace/api-keys/{id}': true,
  'GET /api/projects/{key}/comments': true,
  'POST /api/projects/{key}/comments': true,
  'GET /api/projects/{key}/comments/pending-deploy': true,
  'POST /api/projects/{key}/builds': true,
  'GET /api/projects/{key}/builds': true,
  'GET /api/comments/{id}': true,
  'POST /api/comments/{id}/replies': true,
  'POST /api/comments/{id}/apply': true,
  'POST /api/comments/{id}/reopen': true,
  'POST /api/comments/{id}/archive': true,
  'POST /api/comments/{id}/verify': true,
  'DELETE /api/comments/{id}': true,
  'PUT /api/comments/{id}/screenshot': true,
  'GET /api/comments/{id}/screenshot': true,
  'PUT /api/comments/{id}/anchor': true,
  'DELETE /api/me/api-keys/{id}': true,
  'GET /api/server': true,
  'GET /api/me/notifications': true,
  'GET /api/me/notifications/unread-count': true,
  'GET /api/me/notifications/{id}': true,
  'POST /api/me/notifications/{id}/read': true,
  'POST /api/me/notifications/read-all': true,
} satisfies Record<Endpoint, true>;
export const ENDPOINTS = /* @__PURE__ */ Object.keys(endpointSet) as Endpoint[];
