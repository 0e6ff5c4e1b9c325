import type { CommentStatusFilter, Label } from '@svc/contract';
import { type RawBuilder, sql } from 'kysely';
import type { Scope } from '../../actor.js';
import type { Database } from '../../db/dialect/index.js';
import type { AttachmentTable, CommentTable, Db, ReplyTable } from '../../db/schema.js';
import { labelsOf } from '../labels/repo.js';

/**
 * The number the widget draws on a comment's pin: its place by age (then id) among the comments
 * of its page pinned to an element and not archived; null for one pinned to nothing or archived.
 * Counted here rather than by each client, so that a filtered list numbers as the whole page does
 * (the project and page index narrows it to the page).
 */
const pinNumber = sql<number | string | null>`case
  when comments.anchor_selector is not null and comments.status <> 'archived' then (
    select count(*) from comments as pinned
    where pinned.project_id = comments.project_id and pinned.page_url = comments.page_url
      and pinned.anchor_selector is not null and pinned.status <> 'archived'
      and (pinned.created_at < comments.created_at or (pinned.created_at = comments.created_at and pinned.id <= comments.id))
  )
end`;

/**
 * How many images people attached to a comment and its replies (the pictures of now and after
 * aside): a list says so before the thread is opened. The comment index narrows it.
 */
const attachedImages = sql<number | string>`(
  select count(*) from images where images.comment_id = comments.id and images.kind = 'attachment'
)`;

/**
 * A comment row with what its presenter needs from the project and the people involved. The
 * people other than its author are read by subqueries, not joins: each join was one more
 * relation for PostgreSQL's planner to order, and with seven a page of 21 comments took 8 ms
 * to plan for 0.5 ms to run.
 */
const selectComments = (db: Db, scope: Scope) => {
  let query = db
    .selectFrom('comments')
    .innerJoin('projects', 'projects.id', 'comments.project_id')
    .innerJoin('users as author', 'author.id', 'comments.author_id')
    .leftJoin('attachments as shot', (join) =>
      join.onRef('shot.comment_id', '=', 'comments.id').on('shot.kind', '=', 'screenshot'),
    )
    .leftJoin('attachments as replay', (join) =>
      join.onRef('replay.comment_id', '=', 'comments.id').on('replay.kind', '=', 'replay'),
    )
    .selectAll('comments')
    .select((eb) => {
      const person = (id: 'applied_by_id' | 'repinned_by_id' | 'assignee_id', column: 'name' | 'kind') =>
        eb.selectFrom('users as person').select(`person.${column}`).whereRef('person.id', '=', `comments.${id}`);
      return [
        'projects.key as project_key',
        'projects.repo_url as repo_url',
        'author.name as author_name',
        'author.role as author_role',
        person('applied_by_id', 'name').as('applied_by_name'),
        person('repinned_by_id', 'name').as('repinned_by_name'),
        person('assignee_id', 'name').as('assignee_name'),
        person('assignee_id', 'kind').as('assignee_kind'),
        'shot.content_type as screenshot_type',
        'shot.size as screenshot_size',
        'shot.created_at as screenshot_at',
        'replay.size as replay_size',
        'replay.created_at as replay_at',
        pinNumber.as('pin_number'),
        attachedImages.as('image_count'),
      ];
    })
    .where('comments.workspace_id', '=', scope.workspaceId);
  if (scope.projectId) query = query.where('comments.project_id', '=', scope.projectId);
  return query;
};

type SelectedRow = Awaited<ReturnType<ReturnType<typeof selectComments>['executeTakeFirstOrThrow']>>;
export type CommentRow = SelectedRow & { labels: Label[] };

/** The rows with their labels: one more query, by the comments' ids. */
async function withLabels(db: Db, scope: Scope, rows: SelectedRow[]): Promise<CommentRow[]> {
  const labels = await labelsOf(
    db,
    scope.workspaceId,
    rows.map((row) => row.id),
  );
  return rows.map((row) => ({ ...row, labels: labels.get(row.id) ?? [] }));
}

export async function findComment(db: Db, scope: Scope, id: string): Promise<CommentRow | undefined> {
  const row = await selectComments(db, scope).where('comments.id', '=', id).executeTakeFirst();
  return row ? ((await withLabels(db, scope, [row]))[0] as CommentRow) : undefined;
}

export interface CommentFilter {
  projectId?: string;
  /** Only comments of these projects (none: no comment). */
  projectIds?: string[];
  status?: CommentStatusFilter;
  authorId?: string;
  /** Someone's id, or null: assigned to nobody. */
  assigneeId?: string | null;
  /** 0 none … 4 urgent. */
  priority?: number;
  /** Comments that have this label. */
  labelId?: string;
  /** Comments whose text or replies mention this person. */
  mentionedId?: string;
  /** The page URLs that mean one page (see `samePageUrls`). */
  pageUrls?: string[];
  updatedSince?: string;
  /** Only comments due on or before this day (YYYY-MM-DD). */
  dueBy?: string;
  /** Only open comments due before this day: today's, for those overdue. */
  dueBefore?: string;
  /** For each word searched, the condition that the comment holds it (the dialect's full-text lookup). */
  matching?: RawBuilder<boolean>[];
  /** Newest first (the default) or oldest first; `after` is the keyset position in that order. */
  oldestFirst?: boolean;
  /** A field of the comment first (see `LEADING_KEYS`), the newest first within each value; `after` is then at `afterKey`. */
  sortBy?: LeadingKey;
  afterKey?: number | string;
  after?: string;
  limit: number;
}

/**
 * The orders that lead with a field of the comment: the most urgent first; the soonest due first,
 * those without a due date after all others (a day no date reaches, so that both dialects put
 * them at the same place and a cursor compares them as any other), the most urgent first within
 * a day (its priority as one digit after it, 0 urgent … 4 none, so that one key sorts by both).
 */
export type LeadingKey = 'priority' | 'due';
const LEADING_KEYS: Record<LeadingKey, { key: RawBuilder<number | string>; direction: 'asc' | 'desc' }> = {
  priority: { key: sql`comments.priority`, direction: 'desc' },
  due: { key: sql`coalesce(comments.due_on, '9999-12-31') || ' ' || (4 - comments.priority)`, direction: 'asc' },
};

/** The value a leading order has at comment `id` (where a page that ended there goes on), or undefined: no such comment. */
export async function leadingKeyAt(db: Db, workspaceId: string, sortBy: LeadingKey, id: string) {
  const row = await db
    .selectFrom('comments')
    .select(LEADING_KEYS[sortBy].key.as('key'))
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row?.key;
}

/** Comments of the scope's visible projects (or one project), newest first unless asked otherwise. */
export async function listComments(db: Db, scope: Scope, filter: CommentFilter): Promise<CommentRow[]> {
  let query = selectComments(db, scope);
  if (filter.projectId) query = query.where('comments.project_id', '=', filter.projectId);
  if (filter.projectIds) {
    if (filter.projectIds.length === 0) return [];
    query = query.where('comments.project_id', 'in', filter.projectIds);
  }
  switch (filter.status) {
    case undefined:
      break;
    case 'live':
      query = query.where('comments.status', '=', 'applied').where('comments.deployed_at', 'is not', null);
      break;
    case 'verified':
      query = query.where('comments.status', '=', 'applied').where('comments.verified_at', 'is not', null);
      break;
    default:
      query = query.where('comments.status', '=', filter.status);
  }
  if (filter.authorId) query = query.where('comments.author_id', '=', filter.authorId);
  if (filter.priority !== undefined) query = query.where('comments.priority', '=', filter.priority);
  // By label, the label's own index leads, in the list's order: its rows are walked newest
  // first and each joined to its comment until the page is full (an `in (…)` of the label's
  // comments made SQLite gather and sort all of them first: 6x the unfiltered list).
  const labelId = filter.labelId;
  query = query.$if(labelId !== undefined, (qb) =>
    qb.innerJoin('comment_labels as cl', (join) =>
      join.onRef('cl.comment_id', '=', 'comments.id').on('cl.label_id', '=', labelId as string),
    ),
  );
  const order = sql.ref<string>(labelId === undefined ? 'comments.id' : 'cl.comment_id');
  if (filter.assigneeId !== undefined)
    query = query.where('comments.assignee_id', filter.assigneeId === null ? 'is' : '=', filter.assigneeId);
  if (filter.mentionedId !== undefined) {
    const mentioning = db
      .selectFrom('comment_mentions')
      .select('comment_mentions.comment_id')
      .where('comment_mentions.user_id', '=', filter.mentionedId);
    query = query.where('comments.id', 'in', mentioning);
  }
  if (filter.pageUrls?.length) query = query.where('comments.page_url', 'in', filter.pageUrls);
  if (filter.updatedSince) query = query.where('comments.updated_at', '>=', filter.updatedSince);
  if (filter.dueBy) query = query.where('comments.due_on', '<=', filter.dueBy);
  if (filter.dueBefore)
    query = query.where('comments.status', '=', 'open').where('comments.due_on', '<', filter.dueBefore);
  for (const hasWord of filter.matching ?? []) query = query.where(hasWord);
  if (filter.sortBy) {
    const { key, direction } = LEADING_KEYS[filter.sortBy];
    const { after, afterKey } = filter;
    if (after !== undefined && afterKey !== undefined) {
      query = query.where((eb) =>
        eb.or([
          eb(key, direction === 'desc' ? '<' : '>', afterKey),
          eb.and([eb(key, '=', afterKey), eb(order, '<', after)]),
        ]),
      );
    }
    query = query.orderBy(key, direction);
  } else if (filter.after) {
    query = query.where(order, filter.oldestFirst ? '>' : '<', filter.after);
  }
  const rows = await query
    .orderBy(order, filter.oldestFirst ? 'asc' : 'desc')
    .limit(filter.limit)
    .execute();
  return withLabels(db, scope, rows);
}

/**
 * What a new comment holds until something changes it: a column added to comments gets its
 * start here, and every insert (a comment written, a comment imported) takes it.
 */
const NEW_COMMENT = {
  anchor_selector: null,
  anchor_x: null,
  anchor_y: null,
  anchor_detail: null,
  repinned_at: null,
  repinned_by_id: null,
  status: 'open',
  commit_sha: null,
  commit_url: null,
  applied_by_id: null,
  applied_at: null,
  verified_at: null,
  deployed_at: null,
  deployed_build_sha: null,
  reply_count: 0,
  assignee_id: null,
  assigned_at: null,
  priority: 0,
  due_on: null,
  context: null,
} as const satisfies Partial<CommentTable>;

/** A comment to insert: what no default gives, and any column that differs from `NEW_COMMENT`. */
export type NewComment = Omit<CommentTable, keyof typeof NEW_COMMENT> & Partial<CommentTable>;

/** Inserts the comments, each column not given at its start (`NEW_COMMENT`); the number written. */
export async function insertComments(db: Db, rows: readonly NewComment[]): Promise<number> {
  const [written] = await db
    .insertInto('comments')
    .values(rows.map((row) => ({ ...NEW_COMMENT, ...row })))
    .execute();
  return Number(written?.numInsertedOrUpdatedRows ?? 0);
}

/** The columns a change may write: all but who it is, where, by whom and when it was written. */
export type CommentChanges = Partial<
  Omit<CommentTable, 'id' | 'workspace_id' | 'project_id' | 'author_id' | 'created_at'>
>;

export async function updateComment(db: Db, workspaceId: string, id: string, changes: CommentChanges) {
  await db.updateTable('comments').set(changes).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
}

/** Its replies and notifications go with it (foreign key cascade). */
export async function deleteComment(db: Db, workspaceId: string, id: string) {
  await db.deleteFrom('comments').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
}

/** The writes of a reply: the reply, and its comment's count and time of change. */
export const replyWrites = (db: Db, row: ReplyTable) => [
  db.insertInto('replies').values(row),
  db
    .updateTable('comments')
    .set((eb) => ({ reply_count: eb('reply_count', '+', 1), updated_at: row.created_at }))
    .where('workspace_id', '=', row.workspace_id)
    .where('id', '=', row.comment_id),
];

export async function insertReply(db: Db, row: ReplyTable) {
  for (const write of replyWrites(db, row)) await write.execute();
}

/** The replies of several comments at once, oldest first (each row names its comment). */
export const listRepliesOf = (db: Db, workspaceId: string, commentIds: readonly string[]) =>
  db
    .selectFrom('replies')
    .leftJoin('users', 'users.id', 'replies.author_id')
    .selectAll('replies')
    .select(['users.name as author_name', 'users.role as author_role'])
    .where('replies.workspace_id', '=', workspaceId)
    .where('replies.comment_id', 'in', commentIds)
    .orderBy('replies.id', 'asc')
    .execute();

export const listReplies = (db: Db, workspaceId: string, commentId: string) =>
  listRepliesOf(db, workspaceId, [commentId]);

export type ReplyRow = Awaited<ReturnType<typeof listReplies>>[number];

/**
 * Stamps every pending comment of the project whose commit is the same commit as one of
 * the reported SHAs, in one statement. "Same" means one SHA is a prefix of the other. Both
 * kinds of match sort between the SHA's first 7 characters and the SHA followed by "g"
 * (hex sorts below "g"), so each reported SHA is one range scan of the indexed commit_sha
 * column, and the prefix test keeps only true matches.
 */
export async function stampDeployedComments(
  db: Db,
  database: Database,
  target: { workspaceId: string; projectId: string; buildSha: string; at: string },
  reported: readonly string[],
): Promise<string[]> {
  const ranges = reported.map((sha) => ({ lo: sha.slice(0, 7), hi: `${sha}g`, sha }));
  // A literal, not a parameter: SQLite uses a partial index only when the query implies its condition.
  const applied = sql.lit('applied' as const);
  const rows = await db
    .updateTable('comments')
    .set({ deployed_at: target.at, deployed_build_sha: target.buildSha, updated_at: target.at })
    .where('workspace_id', '=', target.workspaceId)
    .where('project_id', '=', target.projectId)
    .where('status', '=', applied)
    .where('deployed_at', 'is', null)
    .where('id', 'in', (eb) =>
      // Ranges first (a cross join keeps that order): one index range scan per reported SHA.
      eb
        .selectFrom(database.rangesTable(ranges).as('r'))
        .crossJoin('comments as c')
        .select('c.id')
        .where('c.project_id', '=', target.projectId)
        .where('c.status', '=', applied)
        .where('c.deployed_at', 'is', null)
        .where('c.commit_sha', 'is not', null)
        .whereRef('c.commit_sha', '>=', 'r.lo')
        .whereRef('c.commit_sha', '<', 'r.hi')
        .where(
          sql<boolean>`(substr(c.commit_sha, 1, length(r.sha)) = r.sha or substr(r.sha, 1, length(c.commit_sha)) = c.commit_sha)`,
        ),
    )
    // The commit again, on the row being stamped: a comment applied with another commit while
    // this statement waited for its row is checked as it is now (PostgreSQL re-reads the row,
    // not the list of ids found before), so it does not go Live with a build that lacks it.
    .where(
      sql<boolean>`exists (select 1 from ${database.rangesTable(ranges)} as r2 where substr(comments.commit_sha, 1, length(r2.sha)) = r2.sha or substr(r2.sha, 1, length(comments.commit_sha)) = comments.commit_sha)`,
    )
    .returning('id')
    .execute();
  return rows.map((row) => row.id).sort();
}

/** Stores the comment's screenshot, replacing the one it had. */
export async function putScreenshot(db: Db, row: Omit<AttachmentTable, 'kind'>) {
  await db
    .deleteFrom('attachments')
    .where('comment_id', '=', row.comment_id)
    .where('kind', '=', 'screenshot')
    .execute();
  await db
    .insertInto('attachments')
    .values({ ...row, kind: 'screenshot' })
    .execute();
}

export const findScreenshot = (db: Db, workspaceId: string, commentId: string) =>
  db
    .selectFrom('attachments')
    .select(['content_type', 'bytes', 'size'])
    .where('workspace_id', '=', workspaceId)
    .where('comment_id', '=', commentId)
    .where('kind', '=', 'screenshot')
    .executeTakeFirst();

/** Comments changed after `after` (updated_at, then id), oldest change first. */
export async function changedSince(
  db: Db,
  scope: Scope,
  projectId: string | undefined,
  after: { updated_at: string; id: string },
  limit: number,
) {
  let query = selectComments(db, scope);
  // An empty position (the workspace had no comment yet) is before everything.
  if (after.updated_at) {
    query = query.where((eb) =>
      eb.or([
        eb('comments.updated_at', '>', after.updated_at),
        eb.and([eb('comments.updated_at', '=', after.updated_at), eb('comments.id', '>', after.id)]),
      ]),
    );
  }
  if (projectId) query = query.where('comments.project_id', '=', projectId);
  const rows = await query.orderBy('comments.updated_at').orderBy('comments.id').limit(limit).execute();
  return withLabels(db, scope, rows);
}

/** The most recent change in the scope: where a watch that starts now begins. */
export function latestChange(db: Db, scope: Scope, projectId: string | undefined) {
  let query = db.selectFrom('comments').select(['updated_at', 'id']).where('workspace_id', '=', scope.workspaceId);
  if (scope.projectId) query = query.where('project_id', '=', scope.projectId);
  if (projectId) query = query.where('project_id', '=', projectId);
  return query.orderBy('updated_at', 'desc').orderBy('id', 'desc').limit(1).executeTakeFirst();
}
