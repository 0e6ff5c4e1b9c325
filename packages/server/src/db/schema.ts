// The database's tables as Kysely types them (`Tables`), and `Db`, a handle or a transaction.
// Those of who signs in and how are in account-tables.ts.
import type { AuditAction, TimelineKind } from '@svc/contract';
import type { Generated, Kysely, Transaction } from 'kysely';
import type {
  ApiKeyTable,
  OneTimeLinkTable,
  RecoveryCodeTable,
  SessionTable,
  SignInChallengeTable,
  SsoAttemptTable,
  SsoDomainTable,
  SsoProviderTable,
  UserTable,
  WorkspaceTable,
} from './account-tables.js';

/** Timestamps are ISO 8601 strings in both dialects (timestamptz on PostgreSQL, text on SQLite). */
type Timestamp = string;

/**
 * What insights read: measured timeline events counted per period (a day 'YYYY-MM-DD' or a
 * month 'YYYY-MM', UTC), kind, whose fix and wait bucket; appended as deltas by triggers on
 * comment_events, folded into compacted rows (see db/rollups.ts and migration 0018).
 */
export interface InsightRollupTable {
  workspace_id: string;
  /** '' : every project of the workspace (compacted rows only). */
  project_id: string;
  period: string;
  kind: string;
  /** fix_via, '' when none. */
  who: string;
  /** -1: no wait; -2: the totals of the period, kind and who; else the wait's bucket (5 % wide). */
  bucket: number;
  compacted: number;
  n: number;
  flagged: number;
  wait_sum: number;
  wait_min: number | null;
  wait_max: number | null;
}

/** A key of the server's own, sealed with SVC_SECRET_KEY (see secrets.ts), made on first use. */
export interface ServerKeyTable {
  name: string;
  sealed: string;
  created_at: Timestamp;
}

/** A label of the workspace's, put on comments by the team. */
export interface LabelTable {
  id: string;
  workspace_id: string;
  name: string;
  /** The name lowered: unique in the workspace. */
  name_key: string;
  color: string;
  created_at: Timestamp;
}

export interface CommentLabelTable {
  comment_id: string;
  label_id: string;
  workspace_id: string;
}

/** Someone a comment's text or one of its replies mentions. */
export interface CommentMentionTable {
  comment_id: string;
  user_id: string;
  workspace_id: string;
  created_at: Timestamp;
}

export interface ProjectTable {
  id: string;
  workspace_id: string;
  key: string;
  name: string;
  repo_url: string | null;
  app_url: string | null;
  /** JSON array of origins. */
  allowed_origins: string;
  /** JSON array of the query parameters that identify a page. */
  page_params: string;
  /** 1: its widget keeps a replay of the last `replay_seconds` for a reviewer's comments (see migration 0029). */
  replay_on: number;
  replay_seconds: number;
  /** 1: every text of the page is masked in its replays, not only what people type. */
  replay_mask_text: number;
  created_at: Timestamp;
}

export interface CommentTable {
  id: string;
  workspace_id: string;
  project_id: string;
  author_id: string;
  body: string;
  page_url: string;
  anchor_selector: string | null;
  anchor_x: number | null;
  anchor_y: number | null;
  /** JSON: the anchor's description of the element (everything but selector, x and y), or null. */
  anchor_detail: string | null;
  repinned_at: Timestamp | null;
  repinned_by_id: string | null;
  status: 'open' | 'applied' | 'archived';
  commit_sha: string | null;
  commit_url: string | null;
  applied_by_id: string | null;
  applied_at: Timestamp | null;
  verified_at: Timestamp | null;
  deployed_at: Timestamp | null;
  deployed_build_sha: string | null;
  reply_count: number;
  /** Who is on it (a person of the team or an agent), and since when. */
  assignee_id: string | null;
  assigned_at: Timestamp | null;
  /** 0 none, 1 low, 2 medium, 3 high, 4 urgent (see PRIORITIES). */
  priority: number;
  /** The day it should be fixed by, `YYYY-MM-DD` as written (no time zone), or null. */
  due_on: string | null;
  /** JSON: what the widget captured with the comment (CommentContext), or null. */
  context: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** A file attached to a comment (its screenshot), stored in the database. */
export interface AttachmentTable {
  id: string;
  workspace_id: string;
  comment_id: string;
  kind: 'screenshot' | 'replay';
  content_type: string;
  bytes: Buffer | Uint8Array;
  size: number;
  created_at: Timestamp;
}

/** An image of a comment's thread (see migration 0021). */
export interface ImageTable {
  id: string;
  workspace_id: string;
  comment_id: string;
  /** The reply it belongs to; null: the comment. */
  reply_id: string | null;
  /** `after`: the verdict's timeline event it was taken for. */
  event_id: string | null;
  /** `now` (one a comment at most, see migration 0022): the commit of the fix it was taken for. */
  commit_sha: string | null;
  kind: 'attachment' | 'after' | 'now';
  author_id: string | null;
  content_type: string;
  bytes: Buffer | Uint8Array;
  size: number;
  created_at: Timestamp;
}

export interface ReplyTable {
  id: string;
  workspace_id: string;
  comment_id: string;
  author_id: string | null;
  kind: 'user' | 'system';
  body: string;
  created_at: Timestamp;
}

/** One change of a comment, written in the change's transaction (see `comments/timeline.ts`). */
export interface CommentEventTable {
  id: string;
  workspace_id: string;
  project_id: string;
  comment_id: string;
  kind: TimelineKind;
  actor_id: string | null;
  via: 'person' | 'api_key' | 'mcp' | null;
  commit_sha: string | null;
  build_sha: string | null;
  note: string | null;
  /** The person the event is about (an assignment's assignee; null: unassigned). */
  subject_id: Generated<string | null>;
  /** 1 when reconstructed at the upgrade that introduced timelines, from what the comment recorded then. */
  derived: number;
  created_at: Timestamp;
  // What insights read, fixed when the comment's timeline changes (see `comments/measures.ts`).
  /** The wait this event ends, in ms: first fix since written, Live since the fix, verified since Live. */
  span_ms: number | null;
  /** A fix (applied, re-applied with a new commit): its via; Live and verified: their fix's. 'unknown' when not recorded. */
  fix_via: string | null;
  /** A fix later rejected or reopened before another fix. */
  sent_back: Generated<number>;
  /** Verified with no rejection or reopen before. */
  first_time_right: Generated<number>;
  /** Archived while open (waiting for a fix). */
  was_open: Generated<number>;
}

/** One action of the audit log (see `audit/audit.ts`). */
export interface AuditEventTable {
  id: string;
  workspace_id: string;
  action: AuditAction;
  actor_id: string | null;
  actor_name: string | null;
  address: string | null;
  target_kind: string | null;
  target_id: string | null;
  target_label: string | null;
  detail: string | null;
  created_at: Timestamp;
}

export type NotificationType =
  | 'CommentApplied'
  | 'CommentReopened'
  | 'ReplyAdded'
  | 'CommentAssigned'
  | 'CommentMentioned'
  | 'CommentCreated';

export interface NotificationTable {
  id: string;
  workspace_id: string;
  recipient_id: string;
  type: NotificationType;
  comment_id: string;
  actor_id: string | null;
  excerpt: string;
  commit_sha: string | null;
  commit_url: string | null;
  /** A CommentCreated's project: its new comments gather in this one while it is unread (`comment_id` the newest). */
  grouped_project_id: string | null;
  /** How many new comments it stands for: 1 but for a CommentCreated that gathered more. */
  comment_count: Generated<number>;
  read_at: Timestamp | null;
  created_at: Timestamp;
}

/** A person's choice to follow a project (1) or to leave it (0); without one, the defaults of `following/` hold. */
export interface ProjectFollowerTable {
  project_id: string;
  user_id: string;
  workspace_id: string;
  following: number;
  chosen_at: Timestamp;
}

export interface BuildTable {
  id: string;
  workspace_id: string;
  project_id: string;
  sha: string;
  reported_by_id: string | null;
  created_at: Timestamp;
}

export interface BuildDeploymentTable {
  build_id: string;
  comment_id: string;
  workspace_id: string;
}

/** An origin a project's widget was refused on (see `checkWidgetOrigin`). */
export interface RefusedOriginTable {
  project_id: string;
  workspace_id: string;
  origin: string;
  first_seen_at: Timestamp;
  last_seen_at: Timestamp;
  attempts: number;
}

export interface RateLimitTable {
  key: string;
  window_start: number;
  count: number;
}

/** The tables of the schema, as Kysely types its queries. */
export interface Tables {
  workspaces: WorkspaceTable;
  users: UserTable;
  sessions: SessionTable;
  api_keys: ApiKeyTable;
  projects: ProjectTable;
  comments: CommentTable;
  labels: LabelTable;
  comment_labels: CommentLabelTable;
  comment_mentions: CommentMentionTable;
  project_followers: ProjectFollowerTable;
  images: ImageTable;
  replies: ReplyTable;
  comment_events: CommentEventTable;
  audit_events: AuditEventTable;
  notifications: NotificationTable;
  builds: BuildTable;
  build_deployments: BuildDeploymentTable;
  rate_limits: RateLimitTable;
  one_time_links: OneTimeLinkTable;
  attachments: AttachmentTable;
  refused_origins: RefusedOriginTable;
  recovery_codes: RecoveryCodeTable;
  sign_in_challenges: SignInChallengeTable;
  sso_providers: SsoProviderTable;
  sso_attempts: SsoAttemptTable;
  sso_domains: SsoDomainTable;
  server_keys: ServerKeyTable;
  insight_rollups: InsightRollupTable;
}

/** A database handle or an open transaction: repository functions accept either. */
export type Db = Kysely<Tables> | Transaction<Tables>;
