import {
  type Anchor,
  ApplyBody,
  type CaptureContext,
  type CommentContext,
  CreateCommentBody,
  deriveCommitUrl,
  type FindCommentsQuery,
  type ListCommentsQuery,
  mentionedIds,
  normalizeSha,
  PRIORITIES,
  pageOf,
  type RepinBody,
  samePageUrls,
  stepsToReproduce,
  type TimelineKind,
} from '@svc/contract';
import { UAParser } from 'ua-parser-js';
import { type Actor, scopeOf } from '../../actor.js';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/schema.js';
import { inTransaction, readThenWrite, unlessGone, writeBeforeCommit } from '../../db/transaction.js';
import { invalidField, notFound } from '../../errors.js';
import { pageRequest } from '../../http/pagination.js';
import { requireStoredLength, requireText } from '../../http/validation.js';
import { newId, nowIso } from '../../ids.js';
import { consumeRateLimit } from '../../limits/rate-limit.js';
import { authorize } from '../../policy.js';
import { followedProjectIds } from '../following/repo.js';
import { getProject, pageParamsOfProject, parseHttpUrl } from '../projects/service.js';
import { holdToQuota, lockStoredCount, paceUpload, storeUpload } from '../storage/uploads.js';
import { excerpt } from './excerpt.js';
import { listImagesOf, storableImage } from './image-store.js';
import * as lifecycle from './lifecycle.js';
import { lockMentioned, mention, resolveMentions } from './mentions.js';
import { authorizeRole, guardComment } from './policy.js';
import { anchorColumns } from './presenter.js';
import * as repo from './repo.js';
import { type EventDetail, listTimeline, recordEvent, unmeasuredEventWrite } from './timeline.js';

/** What changing a comment needs: the database (its handle and its dialect) and where its events go. */
export type CommentDeps = Pick<AppContext, 'db' | 'database' | 'events' | 'clock'>;

/** Writing comments and replies also counts them per user: far above what a person writes. */
export type CommentWriteDeps = CommentDeps & Pick<AppContext, 'rules'>;

/** The comment in the caller's scope, or 404. */
export async function requireComment(db: Db, actor: Actor, id: string) {
  const comment = await repo.findComment(db, scopeOf(actor), id);
  if (!comment) throw notFound('Comment');
  return comment;
}

export async function createComment(
  deps: CommentWriteDeps,
  actor: Actor,
  projectKey: string,
  input: CreateCommentBody,
  userAgent?: string,
) {
  authorize(actor, 'comments.create');
  const project = await getProject(deps, actor, projectKey);
  const page = pageOf(input.pageUrl, pageParamsOfProject(project));
  if (!page) throw invalidField('/pageUrl', 'must be an http(s) URL');
  requireStoredLength(page, CreateCommentBody.properties.pageUrl, '/pageUrl');
  const typed = requireText(input.body, '/body');
  // A mention refused is refused before it counts; it is resolved again under the people's locks.
  await resolveMentions(deps.db, actor, project.id, typed);
  await consumeRateLimit(deps.db, deps.rules.comments, actor.id, deps.clock.now());
  const now = nowIso(deps.clock);
  const id = newId('cmt');
  // Every other column starts as every comment's does (`repo.insertComments`).
  const row = {
    id,
    workspace_id: actor.workspaceId,
    project_id: project.id,
    author_id: actor.id,
    body: typed,
    page_url: page,
    ...anchorColumns(input.anchor),
    context: input.context
      ? JSON.stringify(withSteps(withSoftware(input.context, userAgent), input.anchor ?? null))
      : null,
    created_at: now,
    updated_at: now,
  };
  // The project deleted meanwhile: the comment is refused as it would be a moment later.
  const write = () =>
    inTransaction(deps.db, async (trx) => {
      await lockMentioned(deps.database, trx, actor.workspaceId, typed);
      const { text: body, mentioned } = await resolveMentions(trx, actor, project.id, typed);
      await repo.insertComments(trx, [{ ...row, body }]);
      await recordEvent(trx, row, 'created', actor, {}, now);
      await mention(deps, trx, actor, id, mentioned, body, now);
      await deps.events.raise(trx, {
        type: 'CommentCreated',
        workspaceId: actor.workspaceId,
        commentId: id,
        projectId: project.id,
        actorId: actor.id,
        mentionedIds: mentioned,
        excerpt: excerpt(body),
      });
      await deps.events.changed(trx, { workspaceId: actor.workspaceId, projectId: project.id });
      return requireComment(trx, actor, id);
    });
  return unlessGone(deps.database, write, () => notFound('Project'));
}

/**
 * The captured context with its steps to reproduce, read from the reviewer's actions and the
 * page's requests and errors when the widget kept them (a signed-in reviewer's), and the pin.
 */
function withSteps(context: CommentContext, anchor: Anchor | null): CommentContext {
  return context.actions ? { ...context, steps: stepsToReproduce(context, anchor) } : context;
}

/** The captured context with the browser and OS of the request that sent it (parsed here, not shipped to every page). */
function withSoftware(context: CaptureContext, userAgent: string | undefined): CommentContext {
  const parsed = new UAParser(userAgent ?? '').getResult();
  const software = (part: { name?: string; version?: string }) =>
    part.name ? { name: part.name, version: part.version ?? null } : null;
  return { ...context, browser: software(parsed.browser), os: software(parsed.os) };
}

/**
 * Stores a comment's screenshot (its author only; a new one replaces the old). The type is read
 * from the bytes, not taken from the request; refused uploads write nothing. Paced per person
 * (429), held to the workspace's quota (413), the screenshot it replaces freed.
 */
export async function putScreenshot(deps: CommentWriteDeps, actor: Actor, commentId: string, bytes: unknown) {
  const comment = await requireComment(deps.db, actor, commentId);
  guardComment(actor, 'attachScreenshot', comment);
  await paceUpload(deps, actor, bytes);
  const { bytes: stored, contentType } = storableImage(bytes);
  // Two at once replace one another rather than both finding no screenshot to replace.
  return storeUpload(deps, actor.workspaceId, comment.id, async (trx) => {
    const now = nowIso(deps.clock);
    await repo.putScreenshot(trx, {
      id: newId('att'),
      workspace_id: actor.workspaceId,
      comment_id: comment.id,
      content_type: contentType,
      bytes: stored,
      size: stored.length,
      created_at: now,
    });
    await holdToQuota(trx, deps, actor.workspaceId, stored.length);
    // A change of the comment: an agent waiting on it (woken by its creation a moment before) hears of its screenshot.
    await repo.updateComment(trx, actor.workspaceId, comment.id, { updated_at: now });
    await recordEvent(trx, comment, 'screenshot_added', actor, {}, now);
    await deps.events.changed(trx, { workspaceId: actor.workspaceId, projectId: comment.project_id });
    return requireComment(trx, actor, commentId);
  });
}

export async function getScreenshot({ db }: Pick<AppContext, 'db'>, actor: Actor, commentId: string) {
  await requireComment(db, actor, commentId);
  const shot = await repo.findScreenshot(db, actor.workspaceId, commentId);
  if (!shot) throw notFound('Screenshot');
  return shot;
}

/** Where a page sorted by a field (priority, due date) that ended at comment `after` goes on. */
async function leadingKeyAt(db: Db, actor: Actor, sortBy: repo.LeadingKey, after: string) {
  const key = await repo.leadingKeyAt(db, actor.workspaceId, sortBy, after);
  if (key === undefined) throw invalidField('/cursor', 'is not a cursor this API returned');
  return key;
}

/** The assignee a list's filter names: `me`, `none` (null: nobody), or someone's id as given. */
function assigneeOf(actor: Actor, filter: string | undefined): string | null | undefined {
  if (filter === undefined) return undefined;
  if (filter === 'me') return actor.id;
  return filter === 'none' ? null : filter;
}

/** What listing needs: the database (its handles, its full-text lookup) and today. */
type ListDeps = Pick<AppContext, 'db' | 'database' | 'clock'>;

/** A project's comments (the widget's list: not a long read), filtered as every list is (`commentFilterOf`). */
export const listComments = (deps: ListDeps, actor: Actor, projectKey: string, query: ListCommentsQuery) =>
  commentsBy(deps, deps.db, actor, { ...query, project: projectKey });

/**
 * A list's query as the repository's filter: every filter and order of both lists, read here
 * once. `project`: the one it names (its page parameters read a page URL).
 */
async function commentFilterOf(
  { database, clock }: ListDeps,
  db: Db,
  actor: Actor,
  query: FindCommentsQuery,
  project: { id: string; page_params: string } | undefined,
): Promise<repo.CommentFilter> {
  const { after, fetch } = pageRequest(query);
  const sortBy = query.sort === 'priority' || query.sort === 'due' ? query.sort : undefined;
  return {
    projectId: project?.id,
    projectIds: query.followed === 'me' ? await followedProjectIds(db, actor) : undefined,
    status: query.status,
    authorId: query.author,
    assigneeId: assigneeOf(actor, query.assignee),
    priority: query.priority === undefined ? undefined : PRIORITIES.indexOf(query.priority),
    labelId: query.label,
    mentionedId: query.mentions === 'me' ? actor.id : undefined,
    pageUrls: pageUrlsOf(query.pageUrl, project ? pageParamsOfProject(project) : []),
    updatedSince: query.updatedSince === undefined ? undefined : new Date(query.updatedSince).toISOString(),
    dueBy: query.dueBy,
    // Today as the server's clock has it in UTC: the one day everyone's "overdue" is counted from.
    dueBefore: query.overdue === 'true' ? nowIso(clock).slice(0, 10) : undefined,
    matching: query.q === undefined ? undefined : searchWords(query.q).map(database.commentHasWord),
    oldestFirst: query.sort === 'oldest',
    sortBy,
    afterKey: sortBy && after ? await leadingKeyAt(db, actor, sortBy, after) : undefined,
    after,
    limit: fetch,
  };
}

/** The stored page URLs a `pageUrl` filter means: its page, with and without a trailing slash (see `pageOf`). */
function pageUrlsOf(pageUrl: string | undefined, pageParams: readonly string[]): string[] | undefined {
  if (pageUrl === undefined) return undefined;
  const page = pageOf(pageUrl, pageParams);
  return page ? samePageUrls(page) : [pageUrl];
}

/** What a change of one comment writes: its columns, and the one event its timeline gets. */
export interface CommentChange {
  columns: repo.CommentChanges;
  event: { kind: TimelineKind } & EventDetail;
}

/**
 * A change of one comment that is no step of its lifecycle (its pin, who is on it, its
 * priority, its labels): in one transaction, its row locked and read in the caller's scope,
 * `change` checks and says what to write (null: nothing changes, and nothing is written nor
 * heard of); its columns and time of change are written, its timeline event recorded, those
 * watching the project told. Returns the comment as the change left it. `lockFirst` takes the
 * locks the change needs that come before a comment's (see `Database.lockRows`).
 */
export async function changeComment(
  deps: CommentDeps,
  actor: Actor,
  id: string,
  change: (trx: Db, comment: repo.CommentRow, now: string) => Promise<CommentChange | null>,
  lockFirst?: (trx: Db) => Promise<void>,
): Promise<repo.CommentRow> {
  return inTransaction(deps.db, async (trx) => {
    await lockFirst?.(trx);
    await deps.database.lockComment(trx, actor.workspaceId, id);
    const comment = await requireComment(trx, actor, id);
    const now = nowIso(deps.clock);
    const changed = await change(trx, comment, now);
    if (!changed) return comment;
    await repo.updateComment(trx, actor.workspaceId, id, { ...changed.columns, updated_at: now });
    await recordEvent(trx, comment, changed.event.kind, actor, changed.event, now);
    await deps.events.changed(trx, { workspaceId: actor.workspaceId, projectId: comment.project_id });
    return requireComment(trx, actor, id);
  });
}

/**
 * Moves the comment's pin to another element (its author, a member or an admin): the anchor
 * is replaced; status, replies and notifications stay as they are, and nobody is notified.
 */
export function repin(deps: CommentDeps, actor: Actor, commentId: string, input: RepinBody) {
  return changeComment(deps, actor, commentId, async (_trx, comment, now) => {
    guardComment(actor, 'repin', comment);
    return {
      columns: { ...anchorColumns(input.anchor), repinned_at: now, repinned_by_id: actor.id },
      event: { kind: 'repinned' },
    };
  });
}

/** The words of a search text: letters and digits, as the full-text indexes split them. */
export function searchWords(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length === 0) throw invalidField('/q', 'must contain at least one letter or digit');
  return [...new Set(words)].slice(0, 20);
}

/**
 * Comments across the caller's visible projects, filtered. Text search uses the database's
 * full-text index, one lookup per word: every word must appear in the comment or its replies.
 * A long read (a search over every comment): it runs where long reads run (`database.reads`).
 */
export const findComments = (deps: ListDeps, actor: Actor, query: FindCommentsQuery) =>
  commentsBy(deps, deps.database.reads, actor, query);

async function commentsBy(deps: ListDeps, db: Db, actor: Actor, query: FindCommentsQuery) {
  const project = query.project === undefined ? undefined : await getProject({ db }, actor, query.project);
  const filter = await commentFilterOf(deps, db, actor, query, project);
  return { rows: await repo.listComments(db, scopeOf(actor), filter), limit: pageRequest(query).limit };
}

export async function getComment({ db }: Pick<AppContext, 'db'>, actor: Actor, id: string) {
  const comment = await requireComment(db, actor, id);
  const [replies, timeline, images] = await Promise.all([
    repo.listReplies(db, actor.workspaceId, id),
    listTimeline(db, actor.workspaceId, id),
    listImagesOf(db, actor.workspaceId, [id]),
  ]);
  return { comment, replies, timeline, images };
}

export async function addReply(deps: CommentWriteDeps, actor: Actor, commentId: string, text: string) {
  authorizeRole(actor, 'reply');
  const typed = requireText(text, '/body');
  // Counted in a statement of its own: inside the transaction, the count's row would stay
  // locked until the commit, and one writer's replies would queue behind each other.
  await consumeRateLimit(deps.db, deps.rules.replies, actor.id, deps.clock.now());
  // A read, then writes nothing reads back: on PostgreSQL one statement, without begin and
  // commit. A reply that mentions someone holds their lock until it commits (`lockMentioned`):
  // a transaction.
  const mentions = mentionedIds(typed).length > 0;
  const write = () =>
    (mentions ? inTransaction : readThenWrite)(deps.db, async (db) => {
      if (mentions) await lockMentioned(deps.database, db, actor.workspaceId, typed);
      const comment = await requireComment(db, actor, commentId);
      const { text: body, mentioned } = await resolveMentions(db, actor, comment.project_id, typed);
      const now = nowIso(deps.clock);
      const reply: repo.ReplyRow = {
        id: newId('rpl'),
        workspace_id: actor.workspaceId,
        comment_id: comment.id,
        author_id: actor.id,
        kind: 'user',
        body,
        created_at: now,
        author_name: actor.name,
        author_role: actor.role,
      };
      const { author_name, author_role, ...row } = reply;
      // Nothing here reads these rows back: they may go with the last statement.
      for (const write of repo.replyWrites(db, row)) await writeBeforeCommit(db, write);
      await writeBeforeCommit(db, unmeasuredEventWrite(db, comment, 'replied', actor, { note: excerpt(body) }, now));
      await mention(deps, db, actor, comment.id, mentioned, body, now);
      await deps.events.raise(db, {
        type: 'ReplyAdded',
        workspaceId: actor.workspaceId,
        commentId: comment.id,
        actorId: actor.id,
        // Mentioned in it, the author hears of it once, as a mention.
        authorId: mentioned.includes(comment.author_id) ? null : comment.author_id,
        excerpt: excerpt(body),
      });
      await deps.events.changed(db, { workspaceId: actor.workspaceId, projectId: comment.project_id });
      return reply;
    });
  // The comment deleted meanwhile: the reply is refused as it would be a moment later.
  return unlessGone(deps.database, write, () => notFound('Comment'));
}

export async function applyComment(deps: CommentDeps, actor: Actor, id: string, input: ApplyBody) {
  let commitSha: string | null = null;
  if (input.commitSha !== undefined) {
    commitSha = normalizeSha(input.commitSha);
    if (!commitSha) throw invalidField('/commitSha', 'must be 7-40 hexadecimal characters');
  }
  let givenUrl: string | null = null;
  if (input.commitUrl !== undefined) {
    givenUrl = parseHttpUrl(input.commitUrl.trim())?.href ?? null;
    if (!givenUrl) throw invalidField('/commitUrl', 'must be an http(s) URL');
    requireStoredLength(givenUrl, ApplyBody.properties.commitUrl, '/commitUrl');
  }
  return inTransaction(deps.db, async (trx) => {
    // The link derived from the project's repository: read before the lock, as it does not change with the comment.
    const comment = await requireComment(trx, actor, id);
    const url = givenUrl ?? (commitSha ? deriveCommitUrl(comment.repo_url, commitSha) : null);
    return keptComment(await lifecycle.fire(trx, deps, actor, 'apply', id, { sha: commitSha, url }));
  });
}

export async function reopenComment(deps: CommentDeps, actor: Actor, id: string) {
  return inTransaction(deps.db, async (trx) =>
    keptComment(await lifecycle.fire(trx, deps, actor, 'reopen', id, undefined)),
  );
}

export async function archiveComment(deps: CommentDeps, actor: Actor, id: string) {
  return inTransaction(deps.db, async (trx) =>
    keptComment(await lifecycle.fire(trx, deps, actor, 'archive', id, undefined)),
  );
}

export async function deleteComment(deps: CommentDeps, actor: Actor, id: string): Promise<void> {
  await inTransaction(deps.db, async (trx) => {
    // Its images and screenshot go with it: the workspace's stored count first.
    await lockStoredCount(trx, deps, actor.workspaceId);
    await lifecycle.fire(trx, deps, actor, 'delete', id, undefined);
  });
}

/** The comment a transition that keeps it answered (only `delete` answers none). */
function keptComment(comment: repo.CommentRow | null): repo.CommentRow {
  if (!comment) throw new Error('the comment went in a transition that keeps it');
  return comment;
}

/** How many changes one answer filtered by assignee reads past at most, looking for its own. */
const CHANGES_SCANNED_MAX = 2000;

/**
 * The comment changes since `cursor` (a position in the order comments changed), oldest first.
 * Filtered by assignee, the cursor moves past the changes of others' comments too, so that the
 * next call does not read them again.
 */
export async function changesSince(
  { db }: Pick<AppContext, 'db'>,
  actor: Actor,
  query: { project?: string; cursor?: string; limit?: number; assignee?: string },
): Promise<{ rows: repo.CommentRow[]; cursor: string; projectId: string | null }> {
  const projectId = query.project === undefined ? undefined : (await getProject({ db }, actor, query.project)).id;
  const scope = scopeOf(actor);
  if (query.cursor === undefined) {
    const latest = await repo.latestChange(db, scope, projectId);
    return { rows: [], cursor: encodeChangeCursor(latest ?? { updated_at: '', id: '' }), projectId: projectId ?? null };
  }
  const limit = query.limit ?? 50;
  const assignee = assigneeOf(actor, query.assignee);
  let position = decodeChangeCursor(query.cursor);
  if (assignee === undefined) {
    const rows = await repo.changedSince(db, scope, projectId, position, limit);
    const last = rows[rows.length - 1];
    return { rows, cursor: last ? encodeChangeCursor(last) : query.cursor, projectId: projectId ?? null };
  }
  const rows: repo.CommentRow[] = [];
  const batch = Math.max(limit, 200);
  for (let scanned = 0; rows.length < limit && scanned < CHANGES_SCANNED_MAX; scanned += batch) {
    const changed = await repo.changedSince(db, scope, projectId, position, batch);
    for (const row of changed) {
      position = row;
      if (row.assignee_id === assignee && rows.push(row) === limit) break;
    }
    if (changed.length < batch) break;
  }
  return { rows, cursor: encodeChangeCursor(position), projectId: projectId ?? null };
}

const encodeChangeCursor = (at: { updated_at: string; id: string }) =>
  Buffer.from(`${at.updated_at}|${at.id}`, 'utf8').toString('base64url');

function decodeChangeCursor(cursor: string): { updated_at: string; id: string } {
  const [updated_at = '', id = '', ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (rest.length || (updated_at && Number.isNaN(Date.parse(updated_at)))) {
    throw invalidField('/cursor', 'is not a cursor this API returned');
  }
  return { updated_at, id };
}
