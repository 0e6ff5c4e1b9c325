import { showMentions, type TimelineEvent, type TimelineKind } from '@svc/contract';
import type { Actor } from '../../actor.js';
import type { CommentEventTable, Db } from '../../db/schema.js';
import { newId } from '../../ids.js';
import { MEASURED_KINDS, remeasure } from './measures.js';

// Each comment's timeline: what happened to it, one row per change, written by the change
// itself in its transaction (the lifecycle's transitions, creating, replying, moving the pin,
// attaching a screenshot, a build report), so that a change that rolls back leaves none.

/** How the one who acted reached the server. */
export function viaOf(actor: Actor): NonNullable<CommentEventTable['via']> {
  if (actor.via === 'mcp') return 'mcp';
  return actor.credential.kind === 'apiKey' ? 'api_key' : 'person';
}

/** What an event says beyond its kind. */
export interface EventDetail {
  commitSha?: string | null;
  buildSha?: string | null;
  note?: string | null;
  /** The person the event is about: an assignment's assignee (null: nobody). */
  subjectId?: string | null;
}

/** The comment an event is about, as its row names it. */
interface About {
  id: string;
  workspace_id: string;
  project_id: string;
}

const row = (comment: About, kind: TimelineKind, actor: Actor | null, detail: EventDetail, at: string) => ({
  id: newId('evt'),
  workspace_id: comment.workspace_id,
  project_id: comment.project_id,
  comment_id: comment.id,
  kind,
  actor_id: actor?.id ?? null,
  via: actor ? viaOf(actor) : null,
  commit_sha: detail.commitSha ?? null,
  build_sha: detail.buildSha ?? null,
  note: detail.note ?? null,
  subject_id: detail.subjectId ?? null,
  derived: 0,
  created_at: at,
});

const eventInsert = (trx: Db, comment: About, kind: TimelineKind, actor: Actor, detail: EventDetail, at: string) =>
  trx.insertInto('comment_events').values(row(comment, kind, actor, detail, at));

/**
 * The write of one event that no measure reads (a reply's): the caller may send it with its
 * transaction's last statement (`writeBeforeCommit`).
 */
export const unmeasuredEventWrite = (
  trx: Db,
  comment: About,
  kind: Exclude<TimelineKind, (typeof MEASURED_KINDS)[number]>,
  actor: Actor,
  detail: EventDetail,
  at: string,
) => eventInsert(trx, comment, kind, actor, detail, at);

/** Writes one event of `comment` by `actor`; `trx` is the transaction of the change it records. */
export async function recordEvent(
  trx: Db,
  comment: About,
  kind: TimelineKind,
  actor: Actor,
  detail: EventDetail,
  at: string,
): Promise<void> {
  await eventInsert(trx, comment, kind, actor, detail, at).execute();
  if ((MEASURED_KINDS as readonly TimelineKind[]).includes(kind))
    await remeasure(trx, comment.workspace_id, [comment.id]);
}

/** A build report's events: each comment it took Live, in one statement. */
export async function recordLive(
  trx: Db,
  build: { workspaceId: string; projectId: string; buildSha: string; at: string },
  commentIds: readonly string[],
  reporter: Actor,
): Promise<void> {
  if (commentIds.length === 0) return;
  const about = (id: string) => ({ id, workspace_id: build.workspaceId, project_id: build.projectId });
  await trx
    .insertInto('comment_events')
    .values(commentIds.map((id) => row(about(id), 'live', reporter, { buildSha: build.buildSha }, build.at)))
    .execute();
  await remeasure(trx, build.workspaceId, commentIds);
}

/** The timelines of several comments at once, oldest event first (each row names its comment). */
export const listTimelines = (db: Db, workspaceId: string, commentIds: readonly string[]) =>
  db
    .selectFrom('comment_events as e')
    .leftJoin('users as u', 'u.id', 'e.actor_id')
    .leftJoin('users as subject', 'subject.id', 'e.subject_id')
    .select([
      'e.id',
      'e.comment_id',
      'e.kind',
      'e.actor_id',
      'u.name as actor_name',
      'e.via',
      'e.commit_sha',
      'e.build_sha',
      'e.note',
      'e.subject_id',
      'subject.name as subject_name',
      'subject.kind as subject_kind',
      'e.derived',
      'e.created_at',
    ])
    .where('e.workspace_id', '=', workspaceId)
    .where('e.comment_id', 'in', commentIds)
    .orderBy('e.created_at')
    .orderBy('e.id')
    .execute();

/** The comment's timeline, oldest first. */
export const listTimeline = (db: Db, workspaceId: string, commentId: string) =>
  listTimelines(db, workspaceId, [commentId]);

export type TimelineRow = Awaited<ReturnType<typeof listTimeline>>[number];

export const presentTimelineEvent = (event: TimelineRow): TimelineEvent => ({
  id: event.id,
  kind: event.kind,
  at: event.created_at,
  by: event.actor_id && event.actor_name ? { id: event.actor_id, name: event.actor_name } : null,
  via: event.via,
  commitSha: event.commit_sha,
  buildSha: event.build_sha,
  // A verdict's note holds mentions (see mentions.ts), shown as read; every other note is plain text.
  note: event.kind === 'not_fixed' && event.note !== null ? showMentions(event.note) : event.note,
  ...(event.kind === 'assigned'
    ? {
        assignee:
          event.subject_id && event.subject_name
            ? { id: event.subject_id, name: event.subject_name, agent: event.subject_kind === 'agent' }
            : null,
      }
    : {}),
  derived: Number(event.derived) === 1,
});
