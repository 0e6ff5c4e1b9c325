// Every endpoint of the API as one value: the key is its method and path; the value its path
// parameters, query, body, answers by status, the problems it may answer with, whether it is
// public (no token needed) and whether it answers conditionally (ETag, 304). The server
// registers each route from its value (`route()` in the server's `http/route.ts`), and the
// clients' types derive from them (`endpoints.ts`): a route cannot be served without being in
// the clients' map, nor be in the map without its schemas. Clients take only types from here.
import { type TSchema, Type } from 'typebox';
import {
  AcceptInviteBody,
  AccessLink,
  AddMemberBody,
  ApiKey,
  ApiKeyCreated,
  ApplyBody,
  AssignBody,
  AuditEvent,
  AuditQuery,
  Build,
  BuildReportBody,
  BuildReportResult,
  ChallengeBody,
  ChangePasswordBody,
  Comment,
  CommentChanges,
  CommentChangesQuery,
  CommentIdParams,
  CommentImage,
  CommentImageParams,
  CommentLabelsBody,
  CommentWithReplies,
  CompletePasswordResetBody,
  ConfirmTwoFactorBody,
  CreateAgentBody,
  CreateApiKeyBody,
  CreateCommentBody,
  CreateInviteBody,
  CreateLabelBody,
  CreateProjectBody,
  CreateQuickAccessBody,
  EndedSessions,
  ExportQuery,
  FindCommentsQuery,
  FollowingBody,
  IdParams,
  ImageQuery,
  Insights,
  InsightsQuery,
  Invite,
  InviteCreated,
  Label,
  ListCommentsQuery,
  ListNotificationsQuery,
  LoginBody,
  LoginResult,
  Me,
  Member,
  MentionablePeople,
  Notification,
  NotificationIdParams,
  NotificationPage,
  OriginCheck,
  OriginCheckQuery,
  Page,
  PageOnlyQuery,
  PasswordBody,
  PasswordResetCreated,
  PendingDeploy,
  PendingDeployQuery,
  PriorityBody,
  Project,
  ProjectFollowing,
  ProjectFollowings,
  ProjectKeyParams,
  PutSsoBody,
  QuickAccessAccount,
  QuickAccessCreated,
  QuickAccessSignInBody,
  ReadAllBody,
  ReadAllResult,
  RecoveryCodes,
  RefusedOrigin,
  RepinBody,
  Reply,
  ReplyBody,
  ScreenshotsExportQuery,
  SecondFactorBody,
  SecondFactorResult,
  ServerInfo,
  Session,
  SessionResult,
  SignupBody,
  SignupResult,
  SsoDiscovery,
  SsoDiscoveryQuery,
  SsoDomain,
  SsoDomainParams,
  SsoExchangeBody,
  SsoSettings,
  SsoStarted,
  StartSsoBody,
  TwoFactorEnrolment,
  TwoFactorStatus,
  UnreadCount,
  UpdateLabelBody,
  UpdateMeBody,
  UpdateMemberBody,
  UpdateProjectBody,
  UpdateWorkspaceBody,
  UpdateWorkspaceSecurityBody,
  User,
  VerifyBody,
  Workspace,
  WorkspaceApiKey,
  WorkspaceSecurity,
  WorkspaceStorage,
} from './index.js';

/** What an endpoint is, besides its method and path. */
export interface EndpointSpec {
  params?: TSchema;
  query?: TSchema;
  body?: TSchema;
  /** What a success answers, by status. */
  answers: Readonly<Record<number, TSchema>>;
  /** The problems it may answer with besides 400 (input refused) and 401 (no valid token). */
  problems: readonly number[];
  /** Reachable without a token. */
  public?: boolean;
  /** Answered with a weak ETag, and 304 when If-None-Match holds it. */
  conditional?: boolean;
  /** Bytes rather than JSON: the body (an image) or the answer (a file). */
  raw?: 'body' | 'answer';
  /** The content types a raw body is taken in. */
  bodyTypes?: readonly string[];
  /** The content types of the answers that are not JSON, by status. */
  types?: Readonly<Record<number, readonly string[]>>;
}

/** The image types a screenshot is stored and served as. */
export const SCREENSHOT_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;

const endpoint = <const S extends EndpointSpec>(spec: S): S => spec;

export const api = {
  'GET /api/me/api-keys': endpoint({ query: PageOnlyQuery, answers: { 200: Page(ApiKey) }, problems: [403] }),
  'POST /api/me/api-keys': endpoint({
    body: CreateApiKeyBody,
    answers: { 201: ApiKeyCreated },
    problems: [403, 409, 429],
  }),
  'DELETE /api/me/api-keys/{id}': endpoint({ params: IdParams, answers: { 204: Type.Null() }, problems: [403, 404] }),
  'GET /api/workspace/api-keys': endpoint({
    query: PageOnlyQuery,
    answers: { 200: Page(WorkspaceApiKey) },
    problems: [403],
  }),
  'DELETE /api/workspace/api-keys/{id}': endpoint({
    params: IdParams,
    answers: { 204: Type.Null() },
    problems: [403, 404],
  }),
  'GET /api/workspace/audit': endpoint({ query: AuditQuery, answers: { 200: Page(AuditEvent) }, problems: [400, 403] }),
  'POST /api/signup': endpoint({
    body: SignupBody,
    answers: { 201: SignupResult },
    problems: [403, 409, 429],
    public: true,
  }),
  'POST /api/auth/login': endpoint({
    body: LoginBody,
    answers: { 200: LoginResult },
    problems: [403, 429],
    public: true,
  }),
  'POST /api/auth/quick-access': endpoint({
    body: QuickAccessSignInBody,
    answers: { 200: SessionResult },
    problems: [429],
    public: true,
  }),
  'POST /api/auth/logout': endpoint({ answers: { 204: Type.Null() }, problems: [409] }),
  'GET /api/me': endpoint({ answers: { 200: Me }, problems: [] }),
  'PATCH /api/me': endpoint({ body: UpdateMeBody, answers: { 200: User }, problems: [400] }),
  'PATCH /api/workspace': endpoint({ body: UpdateWorkspaceBody, answers: { 200: Workspace }, problems: [400, 403] }),
  'GET /api/me/sessions': endpoint({ query: PageOnlyQuery, answers: { 200: Page(Session) }, problems: [] }),
  'DELETE /api/me/sessions/{id}': endpoint({ params: IdParams, answers: { 204: Type.Null() }, problems: [404] }),
  'POST /api/me/sessions/end-others': endpoint({ answers: { 200: EndedSessions }, problems: [] }),
  'POST /api/me/password': endpoint({
    body: ChangePasswordBody,
    answers: { 200: EndedSessions },
    problems: [403, 429],
  }),
  'POST /api/projects/{key}/builds': endpoint({
    params: ProjectKeyParams,
    body: BuildReportBody,
    answers: { 200: BuildReportResult, 201: BuildReportResult },
    problems: [403, 404, 429],
  }),
  'GET /api/projects/{key}/builds': endpoint({
    params: ProjectKeyParams,
    query: PageOnlyQuery,
    answers: { 200: Page(Build) },
    problems: [404],
  }),
  'GET /api/projects/{key}/comments/pending-deploy': endpoint({
    params: ProjectKeyParams,
    query: PendingDeployQuery,
    answers: { 200: Page(PendingDeploy) },
    problems: [404],
  }),
  'PUT /api/comments/{id}/screenshot': endpoint({
    params: CommentIdParams,
    answers: { 200: Comment },
    problems: [403, 404, 413, 415, 429],
    raw: 'body',
    bodyTypes: SCREENSHOT_TYPES,
  }),
  'PUT /api/comments/{id}/anchor': endpoint({
    params: CommentIdParams,
    body: RepinBody,
    answers: { 200: Comment },
    problems: [403, 404],
  }),
  'GET /api/comments/{id}/screenshot': endpoint({
    params: CommentIdParams,
    answers: { 200: Type.Unknown({ description: 'The image' }) },
    problems: [404],
    raw: 'answer',
    types: { 200: SCREENSHOT_TYPES },
  }),
  'POST /api/comments/{id}/images': endpoint({
    params: CommentIdParams,
    query: ImageQuery,
    answers: { 201: CommentImage },
    problems: [400, 403, 404, 409, 413, 415, 429],
    raw: 'body',
    bodyTypes: SCREENSHOT_TYPES,
  }),
  'GET /api/comments/{id}/images/{imageId}': endpoint({
    params: CommentImageParams,
    answers: { 200: Type.Unknown({ description: 'The image' }) },
    problems: [404],
    raw: 'answer',
    types: { 200: SCREENSHOT_TYPES },
  }),
  'POST /api/projects/{key}/comments': endpoint({
    params: ProjectKeyParams,
    body: CreateCommentBody,
    answers: { 201: Comment },
    problems: [403, 404, 429],
  }),
  'GET /api/projects/{key}/comments': endpoint({
    params: ProjectKeyParams,
    query: ListCommentsQuery,
    answers: { 200: Page(Comment) },
    problems: [404],
  }),
  'GET /api/projects/{key}/people': endpoint({
    params: ProjectKeyParams,
    answers: { 200: MentionablePeople },
    problems: [404],
  }),
  'GET /api/comments/changes': endpoint({
    query: CommentChangesQuery,
    answers: { 200: CommentChanges },
    problems: [404, 429],
  }),
  'GET /api/comments': endpoint({
    query: FindCommentsQuery,
    answers: { 200: Page(Comment) },
    problems: [404],
    conditional: true,
  }),
  'GET /api/comments/{id}': endpoint({
    params: CommentIdParams,
    answers: { 200: CommentWithReplies },
    problems: [404],
  }),
  'POST /api/comments/{id}/replies': endpoint({
    params: CommentIdParams,
    body: ReplyBody,
    answers: { 201: Reply },
    problems: [403, 404, 429],
  }),
  'POST /api/comments/{id}/apply': endpoint({
    params: CommentIdParams,
    body: ApplyBody,
    answers: { 200: Comment },
    problems: [403, 404, 409],
  }),
  'PUT /api/comments/{id}/assignee': endpoint({
    params: CommentIdParams,
    body: AssignBody,
    answers: { 200: Comment },
    problems: [400, 403, 404, 409],
  }),
  'POST /api/comments/{id}/claim': endpoint({
    params: CommentIdParams,
    answers: { 200: Comment },
    problems: [403, 404, 409],
  }),
  'PUT /api/comments/{id}/priority': endpoint({
    params: CommentIdParams,
    body: PriorityBody,
    answers: { 200: Comment },
    problems: [403, 404, 409],
  }),
  'PUT /api/comments/{id}/labels': endpoint({
    params: CommentIdParams,
    body: CommentLabelsBody,
    answers: { 200: Comment },
    problems: [400, 403, 404, 409],
  }),
  'GET /api/workspace/labels': endpoint({
    answers: { 200: Type.Object({ items: Type.Array(Label) }) },
    problems: [403],
  }),
  'POST /api/workspace/labels': endpoint({ body: CreateLabelBody, answers: { 201: Label }, problems: [403, 409] }),
  'PATCH /api/workspace/labels/{id}': endpoint({
    params: IdParams,
    body: UpdateLabelBody,
    answers: { 200: Label },
    problems: [403, 404, 409],
  }),
  'DELETE /api/workspace/labels/{id}': endpoint({
    params: IdParams,
    answers: { 204: Type.Null() },
    problems: [403, 404],
  }),
  'POST /api/comments/{id}/reopen': endpoint({
    params: CommentIdParams,
    answers: { 200: Comment },
    problems: [403, 404, 409],
  }),
  'POST /api/comments/{id}/archive': endpoint({
    params: CommentIdParams,
    answers: { 200: Comment },
    problems: [403, 404],
  }),
  'DELETE /api/comments/{id}': endpoint({
    params: CommentIdParams,
    answers: { 204: Type.Null() },
    problems: [403, 404],
  }),
  'GET /api/workspace/export': endpoint({
    query: ExportQuery,
    answers: { 200: Type.Unknown({ description: 'The file, streamed: JSON Lines or CSV' }) },
    problems: [400, 403, 404],
    raw: 'answer',
    types: { 200: ['application/x-ndjson', 'text/csv'] },
  }),
  'GET /api/workspace/export/screenshots': endpoint({
    query: ScreenshotsExportQuery,
    answers: { 200: Type.Unknown({ description: 'The zip archive, streamed' }) },
    problems: [400, 403, 404],
    raw: 'answer',
    types: { 200: ['application/zip'] },
  }),
  'GET /api/workspace/insights': endpoint({
    query: InsightsQuery,
    answers: { 200: Insights },
    problems: [400, 403, 404],
  }),
  'POST /api/workspace/invites': endpoint({
    body: CreateInviteBody,
    answers: { 201: InviteCreated },
    problems: [403, 409],
  }),
  'GET /api/workspace/invites': endpoint({ query: PageOnlyQuery, answers: { 200: Page(Invite) }, problems: [403] }),
  'DELETE /api/workspace/invites/{id}': endpoint({
    params: IdParams,
    answers: { 204: Type.Null() },
    problems: [403, 404],
  }),
  'POST /api/invites/accept': endpoint({
    body: AcceptInviteBody,
    answers: { 201: LoginResult },
    problems: [409, 429],
    public: true,
  }),
  'POST /api/workspace/members/{id}/password-reset': endpoint({
    params: IdParams,
    answers: { 201: PasswordResetCreated },
    problems: [403, 404],
  }),
  'POST /api/password-reset/complete': endpoint({
    body: CompletePasswordResetBody,
    answers: { 200: LoginResult },
    problems: [429],
    public: true,
  }),
  'POST /api/workspace/members': endpoint({
    body: AddMemberBody,
    answers: { 201: Type.Object({ user: User }) },
    problems: [403, 409],
  }),
  'POST /api/workspace/quick-access': endpoint({
    body: CreateQuickAccessBody,
    answers: { 201: QuickAccessCreated },
    problems: [403, 409],
  }),
  'POST /api/workspace/agents': endpoint({
    body: CreateAgentBody,
    answers: { 201: Type.Object({ agent: Member, apiKey: ApiKeyCreated }) },
    problems: [403, 409],
  }),
  'POST /api/workspace/agents/{id}/api-keys': endpoint({
    params: IdParams,
    body: CreateApiKeyBody,
    answers: { 201: ApiKeyCreated },
    problems: [403, 404, 409],
  }),
  'GET /api/workspace/members': endpoint({ query: PageOnlyQuery, answers: { 200: Page(Member) }, problems: [403] }),
  'PATCH /api/workspace/members/{id}': endpoint({
    params: IdParams,
    body: UpdateMemberBody,
    answers: { 200: Type.Object({ user: User }) },
    problems: [403, 404, 409],
  }),
  'DELETE /api/workspace/members/{id}': endpoint({
    params: IdParams,
    answers: { 204: Type.Null() },
    problems: [403, 404, 409],
  }),
  'GET /api/workspace/quick-access': endpoint({
    query: PageOnlyQuery,
    answers: { 200: Page(QuickAccessAccount) },
    problems: [403],
  }),
  'POST /api/workspace/quick-access/{id}/rotate': endpoint({
    params: IdParams,
    answers: { 200: AccessLink },
    problems: [403, 404],
  }),
  'DELETE /api/workspace/quick-access/{id}': endpoint({
    params: IdParams,
    answers: { 204: Type.Null() },
    problems: [403, 404],
  }),
  'GET /api/me/notifications/unread-count': endpoint({
    answers: { 200: UnreadCount, 304: Type.Null({ description: 'Unchanged since the ETag sent' }) },
    problems: [],
  }),
  'GET /api/me/notifications': endpoint({
    query: ListNotificationsQuery,
    answers: { 200: NotificationPage },
    problems: [],
  }),
  'POST /api/me/notifications/read-all': endpoint({
    body: ReadAllBody,
    answers: { 200: ReadAllResult },
    problems: [404],
  }),
  'GET /api/me/notifications/{id}': endpoint({
    params: NotificationIdParams,
    answers: { 200: Notification },
    problems: [404],
  }),
  'POST /api/me/notifications/{id}/read': endpoint({
    params: NotificationIdParams,
    answers: { 200: Notification },
    problems: [404],
  }),
  'GET /api/server': endpoint({ answers: { 200: ServerInfo }, problems: [], public: true }),
  'POST /api/projects': endpoint({ body: CreateProjectBody, answers: { 201: Project }, problems: [403, 409] }),
  'GET /api/projects': endpoint({ answers: { 200: Type.Object({ items: Type.Array(Project) }) }, problems: [] }),
  'GET /api/projects/{key}': endpoint({ params: ProjectKeyParams, answers: { 200: Project }, problems: [404] }),
  'PATCH /api/projects/{key}': endpoint({
    params: ProjectKeyParams,
    body: UpdateProjectBody,
    answers: { 200: Project },
    problems: [403, 404],
  }),
  'DELETE /api/projects/{key}': endpoint({
    params: ProjectKeyParams,
    answers: { 204: Type.Null() },
    problems: [403, 404],
  }),
  'GET /api/me/following': endpoint({ answers: { 200: ProjectFollowings }, problems: [403] }),
  'PUT /api/projects/{key}/following': endpoint({
    params: ProjectKeyParams,
    body: FollowingBody,
    answers: { 200: ProjectFollowing },
    problems: [403, 404],
  }),
  'GET /api/projects/{key}/refused-origins': endpoint({
    params: ProjectKeyParams,
    answers: { 200: Type.Object({ items: Type.Array(RefusedOrigin) }) },
    problems: [403, 404],
  }),
  'GET /api/widget/origin-check': endpoint({
    query: OriginCheckQuery,
    answers: { 200: OriginCheck },
    problems: [429],
    public: true,
  }),
  'GET /api/auth/sso': endpoint({
    query: SsoDiscoveryQuery,
    answers: { 200: SsoDiscovery },
    problems: [404],
    public: true,
  }),
  'POST /api/auth/sso/start': endpoint({
    body: StartSsoBody,
    answers: { 200: SsoStarted },
    problems: [404, 503],
    public: true,
  }),
  'GET /api/auth/sso/callback': endpoint({
    query: Type.Object({}, { additionalProperties: true }),
    answers: { 302: Type.Null() },
    problems: [],
    public: true,
  }),
  'POST /api/auth/sso/exchange': endpoint({
    body: SsoExchangeBody,
    answers: { 200: SessionResult },
    problems: [429],
    public: true,
  }),
  'GET /api/workspace/sso': endpoint({ answers: { 200: SsoSettings }, problems: [403] }),
  'POST /api/workspace/sso/domains/{domain}/check': endpoint({
    params: SsoDomainParams,
    answers: { 200: SsoDomain },
    problems: [403, 404, 409],
  }),
  'PUT /api/workspace/sso': endpoint({ body: PutSsoBody, answers: { 200: SsoSettings }, problems: [403, 409] }),
  'DELETE /api/workspace/sso': endpoint({ answers: { 204: Type.Null() }, problems: [403, 404] }),
  'POST /api/auth/two-factor': endpoint({
    body: SecondFactorBody,
    answers: { 200: SecondFactorResult },
    problems: [409, 429],
    public: true,
  }),
  'POST /api/auth/two-factor/enrolment': endpoint({
    body: ChallengeBody,
    answers: { 200: TwoFactorEnrolment },
    problems: [409],
    public: true,
  }),
  'GET /api/me/two-factor': endpoint({ answers: { 200: TwoFactorStatus }, problems: [] }),
  'POST /api/me/two-factor/enrolment': endpoint({
    body: PasswordBody,
    answers: { 200: TwoFactorEnrolment },
    problems: [403, 409, 429],
  }),
  'POST /api/me/two-factor/confirm': endpoint({
    body: ConfirmTwoFactorBody,
    answers: { 200: RecoveryCodes },
    problems: [409],
  }),
  'POST /api/me/two-factor/recovery-codes': endpoint({
    body: PasswordBody,
    answers: { 200: RecoveryCodes },
    problems: [403, 409, 429],
  }),
  'POST /api/me/two-factor/disable': endpoint({
    body: PasswordBody,
    answers: { 204: Type.Null() },
    problems: [403, 429],
  }),
  'GET /api/workspace/security': endpoint({ answers: { 200: WorkspaceSecurity }, problems: [403] }),
  'GET /api/workspace/storage': endpoint({ answers: { 200: WorkspaceStorage }, problems: [403] }),
  'PATCH /api/workspace/security': endpoint({
    body: UpdateWorkspaceSecurityBody,
    answers: { 200: WorkspaceSecurity },
    problems: [403],
  }),
  'DELETE /api/workspace/members/{id}/two-factor': endpoint({
    params: IdParams,
    answers: { 204: Type.Null() },
    problems: [403, 404],
  }),
  'POST /api/comments/{id}/verify': endpoint({
    params: CommentIdParams,
    body: VerifyBody,
    answers: { 200: Comment },
    problems: [403, 404, 409],
  }),
} as const;

export type Api = typeof api;

/** Every endpoint, for the server's check that each is a route it serves and each route is one. */
export const ENDPOINTS = Object.keys(api) as (keyof Api)[];
