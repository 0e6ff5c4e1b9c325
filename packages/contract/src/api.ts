// Every endpoint of the API as one value: the key is its method and path; the value what it
// does (its summary and description, as the API reference and the agents' tools read them), its
// path parameters, query, body, answers by status, the problems it may answer with, whether it
// is public (no token needed) and whether it answers conditionally (ETag, 304). The server
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
  CHANGES_WAIT_MAX_S,
  CHANGES_WAITS_PER_CREDENTIAL,
  CHANGES_WAITS_PER_USER,
  ChallengeBody,
  ChangePasswordBody,
  Comment,
  CommentChanges,
  CommentChangesQuery,
  CommentIdParams,
  CommentImage,
  CommentImageParams,
  CommentLabelsBody,
  CommentPatch,
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
  IMAGE_MAX_BYTES,
  IMAGE_PIXELS_MAX,
  IMAGE_SIDE_MAX_PX,
  IMAGES_PER_PERSON_MAX,
  ImageQuery,
  Insights,
  InsightsQuery,
  Invite,
  InviteCreated,
  LABELS_MAX,
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
  REPLAY_MAX_BYTES,
  REPLAY_UNPACKED_MAX_BYTES,
  ReadAllBody,
  ReadAllResult,
  RecoveryCodes,
  RefusedOrigin,
  RepinBody,
  Reply,
  ReplyBody,
  SCREENSHOT_MAX_BYTES,
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

/** The server's settings an endpoint's description states (its configuration has them). */
export interface DescribedSettings {
  auditRetentionDays: number;
}

/** What an endpoint is, besides its method and path. */
export interface EndpointSpec {
  /** What it does, in one line: the API reference's summary, and the start of an agent's tool text. */
  summary: string;
  /** What a caller needs to know besides; a function of the server's settings where it states one. */
  description?: string | ((server: DescribedSettings) => string);
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

/** How a replay is sent and served: rrweb's events as a JSON array, gzipped. */
export const REPLAY_TYPES = ['application/gzip'] as const;

/** The image types a screenshot is stored and served as. */
export const SCREENSHOT_TYPES = ['image/png', 'image/jpeg', 'image/webp'] as const;

const endpoint = <const S extends EndpointSpec>(spec: S): S => spec;

/** What recording a fix does with its commit: the apply endpoint's words, which the agents' apply_fix says too. */
export const FIX_WORDS = {
  live: 'With commitSha, the fix goes Live with the first reported build that contains the commit.',
  link: 'Without commitUrl, the link is built from the project repoUrl when it is on GitHub, GitLab, Bitbucket, Gitea or Codeberg.',
} as const;

/** What an uploaded image's header may declare, as the upload endpoints describe it. */
const DIMENSIONS = ` and at most ${IMAGE_SIDE_MAX_PX} pixels a side and ${IMAGE_PIXELS_MAX / 1_000_000} megapixels as its header declares them (413 above, before it is read further)`;
/** How uploads are paced and held to the storage quota, as the upload endpoints describe it. */
const UPLOAD_LIMITS =
  ' Uploads are paced per person, by number a minute and by megabytes an hour (429 with Retry-After past either, naming it), and held to the workspace’s storage quota (413 `storage_quota_exceeded`, nothing stored; see GET /api/workspace/storage).';

export const api = {
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
  'GET /api/workspace/audit': endpoint({
    summary: 'The audit log, newest first: sign-ins, sessions, people, links, keys and projects (admin)',
    description: (server) =>
      `Kept ${server.auditRetentionDays} days (SVC_AUDIT_RETENTION_DAYS). Filter by action, by who acted (a user id), and by time.`,
    query: AuditQuery,
    answers: { 200: Page(AuditEvent) },
    problems: [400, 403],
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
  'POST /api/projects/{key}/builds': endpoint({
    summary: 'Report a deployed build: its comments go Live',
    description:
      'Every SHA is trimmed and lowercased and must be 7-40 hex characters; one bad entry fails the whole report. A pending comment is deployed when its commit is the same commit (one SHA a prefix of the other) as sha or an entry of containsCommitShas. 201 when the sha is first seen for the project, 200 (nothing done) on a repeat. Rate limited per user.',
    params: ProjectKeyParams,
    body: BuildReportBody,
    answers: { 200: BuildReportResult, 201: BuildReportResult },
    problems: [403, 404, 429],
  }),
  'GET /api/projects/{key}/builds': endpoint({
    summary: "A project's reported builds, newest first",
    params: ProjectKeyParams,
    query: PageOnlyQuery,
    answers: { 200: Page(Build) },
    problems: [404],
  }),
  'GET /api/projects/{key}/comments/pending-deploy': endpoint({
    summary: 'Applied comments whose commit no reported build has carried yet, oldest first',
    params: ProjectKeyParams,
    query: PendingDeployQuery,
    answers: { 200: Page(PendingDeploy) },
    problems: [404],
  }),
  'PUT /api/comments/{id}/screenshot': endpoint({
    summary: "Attach the comment's screenshot (its author); replaces the one it had",
    description: `The image itself as the body: ${SCREENSHOT_TYPES.join(', ')}, at most ${SCREENSHOT_MAX_BYTES / 1024} KB (413 above)${DIMENSIONS}. The type is read from the bytes: anything else is 415.${UPLOAD_LIMITS}`,
    params: CommentIdParams,
    answers: { 200: Comment },
    problems: [403, 404, 413, 415, 429],
    raw: 'body',
    bodyTypes: SCREENSHOT_TYPES,
  }),
  'PUT /api/comments/{id}/anchor': endpoint({
    summary: "Move the comment's pin to another element (re-pin)",
    description:
      'For its author, a member or an admin (a quick-access account: its own comments only). The anchor is replaced; the status, replies and notifications stay as they are, and nobody is notified. The comment then says who moved it and when (`repinned`).',
    params: CommentIdParams,
    body: RepinBody,
    answers: { 200: Comment },
    problems: [403, 404],
  }),
  'GET /api/comments/{id}/screenshot': endpoint({
    summary: "The comment's screenshot, to whoever may read the comment",
    params: CommentIdParams,
    answers: { 200: Type.Unknown({ description: 'The image' }) },
    problems: [404],
    raw: 'answer',
    types: { 200: SCREENSHOT_TYPES },
  }),
  'PUT /api/comments/{id}/replay': endpoint({
    summary: 'Attach the replay of the moments before the comment (its author, where its project keeps replays)',
    description: `The replay the widget kept (rrweb's events as a JSON array, gzipped) as the body: ${REPLAY_TYPES.join(', ')}, at most ${REPLAY_MAX_BYTES / 1024 / 1024} MB as sent and ${REPLAY_UNPACKED_MAX_BYTES / 1024 / 1024} MB decompressed (413 above, naming which); anything that is not gzipped JSON events is 415. Stored compressed, as sent; replaces the one the comment had. Taken only while the comment's project keeps replays (409 once an admin turned them off). Served to whoever may read the comment (GET), deleted with it.${UPLOAD_LIMITS}`,
    params: CommentIdParams,
    answers: { 200: Comment },
    problems: [403, 404, 409, 413, 415, 429],
    raw: 'body',
    bodyTypes: REPLAY_TYPES,
  }),
  'GET /api/comments/{id}/replay': endpoint({
    summary: "The comment's replay (rrweb's events as JSON, gzipped), to whoever may read the comment",
    params: CommentIdParams,
    answers: { 200: Type.Unknown({ description: 'The replay, gzipped' }) },
    problems: [404],
    raw: 'answer',
    types: { 200: REPLAY_TYPES },
  }),
  'POST /api/comments/{id}/images': endpoint({
    summary: 'Attach an image to a comment, to your reply to it, to your verdict, or as the picture of now',
    description: `The image itself as the body: ${SCREENSHOT_TYPES.join(', ')}, at most ${IMAGE_MAX_BYTES / 1024 / 1024} MB (413 above)${DIMENSIONS}; the type is read from the bytes (anything else, or a file cut short, is 415). Its metadata (EXIF and its location, XMP, IPTC, comments, text chunks) is removed before it is stored. To the comment: its author, admins and members; with \`?reply=\`, to that reply: its author. Each person attaches at most ${IMAGES_PER_PERSON_MAX} to a thread, to the comment and their replies together (409 past that): a share of their own, which nobody else's images take. With \`?verdict=true\`, the element as you saw it when you gave your latest verdict (Verified or Not fixed): kept with that timeline event, once (409 when you gave none, or it has one). With \`?now=true\`, the element as it is now on your page, which your widget takes while the fix waits for your verdict (applied or Live, not yet verified; 409 otherwise), from those who may verify it (its author, an admin; 403 otherwise): the comment keeps the latest only (it replaces the one before, whose bytes are deleted, in one transaction), with the commit of the fix it was taken for (\`commitSha\`), and shows it to the team like its other images; neither it nor the verdict's picture takes a place among the ${IMAGES_PER_PERSON_MAX}. A verdict keeps it as it was (the last look before the verdict), until the next fix's picture of now replaces it; the verdict's own picture goes with \`?verdict=true\`. \`now\` goes alone (400 with \`reply\` or \`verdict\`).${UPLOAD_LIMITS}`,
    params: CommentIdParams,
    query: ImageQuery,
    answers: { 201: CommentImage },
    problems: [400, 403, 404, 409, 413, 415, 429],
    raw: 'body',
    bodyTypes: SCREENSHOT_TYPES,
  }),
  'GET /api/comments/{id}/images/{imageId}': endpoint({
    summary: "An image of the comment's thread, to whoever may read the comment",
    params: CommentImageParams,
    answers: { 200: Type.Unknown({ description: 'The image' }) },
    problems: [404],
    raw: 'answer',
    types: { 200: SCREENSHOT_TYPES },
  }),
  'POST /api/projects/{key}/comments': endpoint({
    summary: 'Pin a comment on a page',
    params: ProjectKeyParams,
    body: CreateCommentBody,
    answers: { 201: Comment },
    problems: [403, 404, 429],
  }),
  'GET /api/projects/{key}/comments': endpoint({
    summary: "A project's comments, newest first",
    params: ProjectKeyParams,
    query: ListCommentsQuery,
    answers: { 200: Page(Comment) },
    problems: [404],
  }),
  'GET /api/projects/{key}/people': endpoint({
    summary: 'Who a comment of the project may mention: whoever can read it',
    description:
      'The team (admins, members and agents) and the clients who can see the project, by name. A client limited to another project is not among them. Write `<@id>` in a comment or a reply to mention one.',
    params: ProjectKeyParams,
    answers: { 200: MentionablePeople },
    problems: [404],
  }),
  'GET /api/comments/changes': endpoint({
    summary: 'Wait for feedback: comments created or changed since a cursor (long poll)',
    description: `Without a cursor, answers at once with the cursor of now. With one, answers the comments created or changed since (oldest change first) and the next cursor; when there are none, waits up to \`wait\` seconds (at most ${CHANGES_WAIT_MAX_S}) and answers as soon as one of the project (of any project, without \`project\`) changes. Deleted comments are not reported. One user may hold ${CHANGES_WAITS_PER_USER} waits at once, one session or API key ${CHANGES_WAITS_PER_CREDENTIAL}: past that, 429.`,
    query: CommentChangesQuery,
    answers: { 200: CommentChanges },
    problems: [404, 429],
  }),
  'GET /api/comments': endpoint({
    summary: 'Find comments across your projects: by project, status, author, page, text and time',
    description:
      'Newest first (sort=oldest for the other way), keyset-paginated. q matches whole words, any case, in the comment or any of its replies, using the database full-text index. Answers a weak ETag: send it back as If-None-Match to get 304 while nothing changed.',
    query: FindCommentsQuery,
    answers: { 200: Page(Comment) },
    problems: [404],
    conditional: true,
  }),
  'GET /api/comments/{id}': endpoint({
    summary: 'A comment with its replies and its timeline',
    params: CommentIdParams,
    answers: { 200: CommentWithReplies },
    problems: [404],
  }),
  'POST /api/comments/{id}/replies': endpoint({
    summary: 'Reply to a comment',
    params: CommentIdParams,
    body: ReplyBody,
    answers: { 201: Reply },
    problems: [403, 404, 429],
  }),
  'POST /api/comments/{id}/apply': endpoint({
    summary: 'Record the fix of a comment, with its commit or without one',
    description: `${FIX_WORDS.live} Without it (a change made on the site itself, such as copy in a content system), there is nothing to deploy: the comment is Live at once. ${FIX_WORDS.link}`,
    params: CommentIdParams,
    body: ApplyBody,
    answers: { 200: Comment },
    problems: [403, 404, 409],
  }),
  'PUT /api/comments/{id}/assignee': endpoint({
    summary: 'Put someone of the team, or an agent, on a comment (null: nobody)',
    description:
      'For admins and members. The assignee is told (not when they assign themselves) and stays through apply, Live and verify; a fix sent back tells them. An archived comment is refused (409).',
    params: CommentIdParams,
    body: AssignBody,
    answers: { 200: Comment },
    problems: [400, 403, 404, 409],
  }),
  'POST /api/comments/{id}/claim': endpoint({
    summary: 'Take an open comment yourself, if nobody is on it',
    description:
      'For agents and people of the team, before they start on a comment: exactly one of those claiming at once wins. Already yours: answered as it is. Someone else on it: 409, naming them. Not open: 409.',
    params: CommentIdParams,
    answers: { 200: Comment },
    problems: [403, 404, 409],
  }),
  'PUT /api/comments/{id}/priority': endpoint({
    summary: 'Set how urgent a comment is (the team); nobody is notified',
    params: CommentIdParams,
    body: PriorityBody,
    answers: { 200: Comment },
    problems: [403, 404, 409],
  }),
  'PATCH /api/comments/{id}': endpoint({
    summary: 'Change fields of a comment: its due date (the team); nobody is notified',
    description:
      'The fields given change, the others stay. `dueOn`: a calendar day (YYYY-MM-DD), or null to clear it; a day that does not exist is 400 and nothing is written.',
    params: CommentIdParams,
    body: CommentPatch,
    answers: { 200: Comment },
    problems: [400, 403, 404],
  }),
  'PUT /api/comments/{id}/labels': endpoint({
    summary: "Set the workspace's labels a comment has (the team); nobody is notified",
    description: 'The labels it has from now on, replacing those it had; a label of no workspace of yours is 400.',
    params: CommentIdParams,
    body: CommentLabelsBody,
    answers: { 200: Comment },
    problems: [400, 403, 404, 409],
  }),
  'GET /api/workspace/labels': endpoint({
    summary: "The workspace's labels, by name (the team)",
    answers: { 200: Type.Object({ items: Type.Array(Label) }) },
    problems: [403],
  }),
  'POST /api/workspace/labels': endpoint({
    summary: 'Create a label (admin)',
    description: `A name (unique in the workspace, whatever its case) and a colour of the palette. At most ${LABELS_MAX} labels.`,
    body: CreateLabelBody,
    answers: { 201: Label },
    problems: [403, 409],
  }),
  'PATCH /api/workspace/labels/{id}': endpoint({
    summary: 'Rename a label or change its colour (admin): every comment that has it shows the change',
    params: IdParams,
    body: UpdateLabelBody,
    answers: { 200: Label },
    problems: [403, 404, 409],
  }),
  'DELETE /api/workspace/labels/{id}': endpoint({
    summary: 'Delete a label (admin): it comes off every comment',
    params: IdParams,
    answers: { 204: Type.Null() },
    problems: [403, 404],
  }),
  'POST /api/comments/{id}/reopen': endpoint({
    summary: 'Reopen an applied comment',
    params: CommentIdParams,
    answers: { 200: Comment },
    problems: [403, 404, 409],
  }),
  'POST /api/comments/{id}/archive': endpoint({
    summary: 'Archive a comment',
    params: CommentIdParams,
    answers: { 200: Comment },
    problems: [403, 404],
  }),
  'DELETE /api/comments/{id}': endpoint({
    summary: 'Delete a comment with its replies (author or admin)',
    params: CommentIdParams,
    answers: { 204: Type.Null() },
    problems: [403, 404],
  }),
  'GET /api/workspace/export': endpoint({
    summary: "The workspace's (or one project's) comments, whole, as JSON Lines or CSV (admin), streamed",
    description:
      'JSON Lines: a header line, the projects, the people named (never a secret), then one line per comment with its replies, timeline and context, oldest first. CSV: one row per comment. Recorded in the audit log.',
    query: ExportQuery,
    answers: { 200: Type.Unknown({ description: 'The file, streamed: JSON Lines or CSV' }) },
    problems: [400, 403, 404],
    raw: 'answer',
    types: { 200: ['application/x-ndjson', 'text/csv'] },
  }),
  'GET /api/workspace/export/screenshots': endpoint({
    summary: "The workspace's (or one project's) screenshots as a zip (admin), streamed",
    description:
      "One file per screenshot, `<project key>/<comment id>.png` (or .jpg, .webp), and per replay, `<project key>/<comment id>.replay.json.gz` (rrweb's events, gzipped), dated when it was taken. Recorded in the audit log.",
    query: ScreenshotsExportQuery,
    answers: { 200: Type.Unknown({ description: 'The zip archive, streamed' }) },
    problems: [400, 403, 404],
    raw: 'answer',
    types: { 200: ['application/zip'] },
  }),
  'GET /api/workspace/insights': endpoint({
    summary: 'The loop in numbers: backlog, waits, fixes sent back, first-time-right, what is stuck (team)',
    description:
      'Over the last `days` (default 30), for the workspace or one project: open comments at the end of each day (UTC), median and 90th-percentile waits from written to first fix, fix to Live and Live to verified, how many fixes were sent back and how many verified comments were right the first time, everyone’s and split by how the fix was made (signed in, API key, MCP agent); the oldest open comments and those Live but never verified.',
    query: InsightsQuery,
    answers: { 200: Insights },
    problems: [400, 403, 404],
  }),
  'POST /api/workspace/invites': endpoint({
    summary: 'Invite someone to the team (admin): a one-time link to pass on; they choose name and password',
    body: CreateInviteBody,
    answers: { 201: InviteCreated },
    problems: [403, 409],
  }),
  'GET /api/workspace/invites': endpoint({
    summary: 'Invitations not yet accepted nor expired (admin), oldest first',
    query: PageOnlyQuery,
    answers: { 200: Page(Invite) },
    problems: [403],
  }),
  'DELETE /api/workspace/invites/{id}': endpoint({
    summary: 'Withdraw an invitation (admin): its link stops working',
    params: IdParams,
    answers: { 204: Type.Null() },
    problems: [403, 404],
  }),
  'POST /api/invites/accept': endpoint({
    summary:
      "Accept an invitation: the account is created with the invitee's name and password, and signed in (or asked to enrol a second factor first, when the workspace requires one)",
    body: AcceptInviteBody,
    answers: { 201: LoginResult },
    problems: [409, 429],
    public: true,
  }),
  'POST /api/workspace/members/{id}/password-reset': endpoint({
    summary: "A one-time link to set a member's new password (admin); nothing is e-mailed",
    params: IdParams,
    answers: { 201: PasswordResetCreated },
    problems: [403, 404],
  }),
  'POST /api/password-reset/complete': endpoint({
    summary:
      "Set a new password with a reset link's token; the member's other sessions end, a new one starts (or the second factor is asked first, as at sign-in)",
    body: CompletePasswordResetBody,
    answers: { 200: LoginResult },
    problems: [429],
    public: true,
  }),
  'POST /api/workspace/members': endpoint({
    summary: 'Add a team member with a password you choose (admin; for scripts)',
    description:
      'Kept for scripts and provisioning. People should rather be invited (POST /api/workspace/invites): they choose their own password.',
    body: AddMemberBody,
    answers: { 201: Type.Object({ user: User }) },
    problems: [403, 409],
  }),
  'POST /api/workspace/quick-access': endpoint({
    summary: 'Create a quick-access (client) account and its access token',
    body: CreateQuickAccessBody,
    answers: { 201: QuickAccessCreated },
    problems: [403, 409],
  }),
  'POST /api/workspace/agents': endpoint({
    summary: 'Add an agent to the team, with its first API key (admin)',
    description:
      'An agent (a coding agent, a CI job) is an account of its own: work can be assigned to it by name, what it does is shown as its doing, and two agents claiming one comment are two claimants. It acts as a member through its API keys and never signs in; it is listed with the team (`agent: true`) and removed like a member. The key is in the answer, once.',
    body: CreateAgentBody,
    answers: { 201: Type.Object({ agent: Member, apiKey: ApiKeyCreated }) },
    problems: [403, 409],
  }),
  'POST /api/workspace/agents/{id}/api-keys': endpoint({
    summary: 'Another API key for an agent (admin); the key is in the answer, once',
    params: IdParams,
    body: CreateApiKeyBody,
    answers: { 201: ApiKeyCreated },
    problems: [403, 404, 409],
  }),
  'GET /api/workspace/members': endpoint({
    summary: 'The team (admins and members), oldest first',
    description: 'Admins see e-mails and last sign-ins; members see names and roles.',
    query: PageOnlyQuery,
    answers: { 200: Page(Member) },
    problems: [403],
  }),
  'PATCH /api/workspace/members/{id}': endpoint({
    summary: "Change a member's role (admin); the last admin cannot be demoted",
    params: IdParams,
    body: UpdateMemberBody,
    answers: { 200: Type.Object({ user: User }) },
    problems: [403, 404, 409],
  }),
  'DELETE /api/workspace/members/{id}': endpoint({
    summary: 'Remove a member (admin): sessions and API keys end at once; comments stay, by "Former member"',
    params: IdParams,
    answers: { 204: Type.Null() },
    problems: [403, 404, 409],
  }),
  'GET /api/workspace/quick-access': endpoint({
    summary: 'The quick-access (client) accounts, oldest first',
    query: PageOnlyQuery,
    answers: { 200: Page(QuickAccessAccount) },
    problems: [403],
  }),
  'POST /api/workspace/quick-access/{id}/rotate': endpoint({
    summary: "Issue a new access link; the old one and the account's sessions stop working at once",
    params: IdParams,
    answers: { 200: AccessLink },
    problems: [403, 404],
  }),
  'DELETE /api/workspace/quick-access/{id}': endpoint({
    summary: 'Revoke a quick-access account: its link and sessions end at once; its comments stay',
    params: IdParams,
    answers: { 204: Type.Null() },
    problems: [403, 404],
  }),
  'GET /api/me/notifications/unread-count': endpoint({
    summary: 'Your unread count, for the badge; poll with If-None-Match',
    description:
      'Answers a strong ETag and Cache-Control: private, no-cache; a matching If-None-Match gets 304. X-Poll-Interval: the seconds to wait before the next poll (raised while the server is busy).',
    answers: { 200: UnreadCount, 304: Type.Null({ description: 'Unchanged since the ETag sent' }) },
    problems: [],
  }),
  'GET /api/me/notifications': endpoint({
    summary: 'Your notifications, newest first',
    query: ListNotificationsQuery,
    answers: { 200: NotificationPage },
    problems: [],
  }),
  'POST /api/me/notifications/read-all': endpoint({
    summary: 'Mark your notifications read, all or up to one of them',
    body: ReadAllBody,
    answers: { 200: ReadAllResult },
    problems: [404],
  }),
  'GET /api/me/notifications/{id}': endpoint({
    summary: 'One of your notifications',
    params: NotificationIdParams,
    answers: { 200: Notification },
    problems: [404],
  }),
  'POST /api/me/notifications/{id}/read': endpoint({
    summary: 'Mark one of your notifications read',
    params: NotificationIdParams,
    answers: { 200: Notification },
    problems: [404],
  }),
  'GET /api/server': endpoint({
    summary: "The server's version and whether it is a demo server",
    answers: { 200: ServerInfo },
    problems: [],
    public: true,
  }),
  'POST /api/projects': endpoint({
    summary: 'Create a project (admin)',
    body: CreateProjectBody,
    answers: { 201: Project },
    problems: [403, 409],
  }),
  'GET /api/projects': endpoint({
    summary: "The workspace's projects",
    answers: { 200: Type.Object({ items: Type.Array(Project) }) },
    problems: [],
  }),
  'GET /api/projects/{key}': endpoint({
    summary: 'One project',
    params: ProjectKeyParams,
    answers: { 200: Project },
    problems: [404],
  }),
  'PATCH /api/projects/{key}': endpoint({
    summary: "Change a project's name, repository URL, app URL or allowed origins (admin); the key stays",
    params: ProjectKeyParams,
    body: UpdateProjectBody,
    answers: { 200: Project },
    problems: [403, 404],
  }),
  'DELETE /api/projects/{key}': endpoint({
    summary: 'Delete a project with its comments, replies, notifications, builds and limited client accounts (admin)',
    params: ProjectKeyParams,
    answers: { 204: Type.Null() },
    problems: [403, 404],
  }),
  'GET /api/me/following': endpoint({
    summary: 'The projects you follow: you are told of their new comments',
    description:
      'Every project you can see, each with `following`. Admins follow every project, and members the projects where they are on a comment, unless they chose otherwise (PUT /api/projects/{key}/following). Quick-access accounts follow nothing (403).',
    answers: { 200: ProjectFollowings },
    problems: [403],
  }),
  'PUT /api/projects/{key}/following': endpoint({
    summary: 'Follow a project, or leave it',
    description:
      'Followers are told of each new comment of the project (`CommentCreated`; those arriving while the last one is unread gather in it) and find the comments nobody is on in My work (`GET /api/comments?followed=me&assignee=none&status=open`). Your choice stands over the default; the same again changes nothing. The team only (403 for quick-access accounts).',
    params: ProjectKeyParams,
    body: FollowingBody,
    answers: { 200: ProjectFollowing },
    problems: [403, 404],
  }),
  'GET /api/projects/{key}/refused-origins': endpoint({
    summary: "Origins the project's widget was refused on in the last 30 days, still not allowed (admin)",
    params: ProjectKeyParams,
    answers: { 200: Type.Object({ items: Type.Array(RefusedOrigin) }) },
    problems: [403, 404],
  }),
  'GET /api/widget/origin-check': endpoint({
    summary: 'Whether the calling page (its Origin header) may use the widget of a project',
    description:
      "Readable from any origin. A refusal is noted for the project's admins (GET /api/projects/{key}/refused-origins) when only one project on the server has the key. Limited per client address.",
    query: OriginCheckQuery,
    answers: { 200: OriginCheck },
    problems: [429],
    public: true,
  }),
  'GET /api/auth/sso': endpoint({
    summary: 'Find the single sign-on for an e-mail (by its domain) or a workspace',
    description:
      'What the sign-in page shows as "Continue with <displayName>": the workspace whose provider serves the e-mail’s domain (one of its allowed domains), or the workspace named (its sign-in link), or the workspace of the project a widget names (by key: the project whose allowed origins hold the asking page\'s origin, so that another workspace\'s project of the same key cannot hide it). 404 when there is none.',
    query: SsoDiscoveryQuery,
    answers: { 200: SsoDiscovery },
    problems: [404],
    public: true,
  }),
  'POST /api/auth/sso/start': endpoint({
    summary: 'Begin signing in with the workspace’s provider: the URL to open',
    description:
      'Authorization code flow with PKCE, state and nonce. The provider sends the browser back to /api/auth/sso/callback, which sends it on to the console’s sign-in page with a one-time code after "#" (never in a query); the console exchanges it (POST /api/auth/sso/exchange).',
    body: StartSsoBody,
    answers: { 200: SsoStarted },
    problems: [404, 503],
    public: true,
  }),
  'GET /api/auth/sso/callback': endpoint({
    summary: 'Where the provider sends the browser back (the redirect URL to register)',
    description:
      'Redirects to the console’s sign-in page: /sign-in#sso_code=<one-time code> on success, /sign-in#sso_error=<why> otherwise; for a sign-in a widget started, to /sso/done (the same after "#", with the page’s origin), which hands it to the widget’s page and closes.',
    query: Type.Object({}, { additionalProperties: true }),
    answers: { 302: Type.Null() },
    problems: [],
    public: true,
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
  'GET /api/workspace/sso': endpoint({
    summary: 'The workspace’s single sign-on (its client secret is never returned)',
    answers: { 200: SsoSettings },
    problems: [403],
  }),
  'POST /api/workspace/sso/domains/{domain}/check': endpoint({
    summary: 'Prove an e-mail domain: the server looks up its TXT record',
    description:
      'The record is the domain’s `record` in the settings (a TXT record at _svc-verification.<domain>). Proven, the domain routes sign-ins to this workspace. 409 while the record is not found (saying what was), or when another workspace of this server proved the domain first. Idempotent once proven.',
    params: SsoDomainParams,
    answers: { 200: SsoDomain },
    problems: [403, 404, 409],
  }),
  'PUT /api/workspace/sso': endpoint({
    summary: 'Set up single sign-on with an OpenID Connect provider',
    description:
      'The issuer is discovered before anything is saved (400 naming what failed). The client secret is encrypted at rest; omit it to keep the stored one. Each e-mail domain listed gets a DNS record to publish: it routes sign-ins (found by e-mail, newcomers joining) only once proven (POST /api/workspace/sso/domains/{domain}/check). Public mail domains are refused (400). requireForMembers refuses members’ passwords; admins keep theirs.',
    body: PutSsoBody,
    answers: { 200: SsoSettings },
    problems: [403, 409],
  }),
  'DELETE /api/workspace/sso': endpoint({
    summary: 'Stop signing in with single sign-on (everyone keeps or resets a password)',
    answers: { 204: Type.Null() },
    problems: [403, 404],
  }),
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
  'GET /api/workspace/storage': endpoint({
    summary: 'What the workspace stores of images and screenshots, and its quota (admins)',
    description:
      'Every upload counts: images of comments and replies, the pictures of after and of now, screenshots. A picture replaced, a comment or a project deleted, frees its bytes. An upload that would take the workspace past its quota is 413 `storage_quota_exceeded`; the quota is the server’s (SVC_STORAGE_QUOTA_MB) unless its operator set this workspace one (`npm run admin -- set-storage-quota`).',
    answers: { 200: WorkspaceStorage },
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
  'POST /api/comments/{id}/verify': endpoint({
    summary: "The author's verdict on an applied fix",
    description:
      'ok: true sets verifiedAt and adds the automated reply "Verified ✓" (idempotent). ok: false needs a note; the comment reopens, the reply "Not fixed: <note>" is added and whoever applied it is notified. Only the author or a workspace admin; only while applied (else 409).',
    params: CommentIdParams,
    body: VerifyBody,
    answers: { 200: Comment },
    problems: [403, 404, 409],
  }),
} as const;

export type Api = typeof api;

/** Every endpoint, for the server's check that each is a route it serves and each route is one. */
export const ENDPOINTS = Object.keys(api) as (keyof Api)[];
