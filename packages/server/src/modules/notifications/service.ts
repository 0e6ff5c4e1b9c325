import type { Actor } from '../../actor.js';
import type { CommentEvent, CommentEventSink } from '../../changes/comment-events.js';
import type { Clock } from '../../clock.js';
import type { AppContext } from '../../context.js';
import type { Database } from '../../db/dialect/index.js';
import type { Db, NotificationTable } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { notFound } from '../../errors.js';
import { pageRequest } from '../../http/pagination.js';
import { newId, nowIso } from '../../ids.js';
import { followersOf } from '../following/repo.js';
import * as repo from './repo.js';

export type NotificationDeps = Pick<AppContext, 'db' | 'database' | 'caches' | 'clock'>;

type Draft = Pick<NotificationTable, 'type' | 'excerpt' | 'commit_sha' | 'commit_url'> & {
  recipientIds: (string | null)[];
};

/** Who hears of an event, and what they are told. */
function draftFor(event: CommentEvent): Draft | null {
  switch (event.type) {
    case 'CommentApplied':
      return {
        type: 'CommentApplied',
        recipientIds: [event.authorId],
        excerpt: event.excerpt,
        commit_sha: event.commitSha,
        commit_url: event.commitUrl,
      };
    case 'CommentReopened':
      return {
        type: 'CommentReopened',
        recipientIds: [event.appliedById, event.assigneeId],
        excerpt: event.excerpt,
        commit_sha: null,
        commit_url: null,
      };
    case 'ReplyAdded':
      return {
        type: 'ReplyAdded',
        recipientIds: [event.authorId],
        excerpt: event.excerpt,
        commit_sha: null,
        commit_url: null,
      };
    case 'CommentAssigned':
      return {
        type: 'CommentAssigned',
        recipientIds: [event.assigneeId],
        excerpt: event.excerpt,
        commit_sha: null,
        commit_url: null,
      };
    case 'CommentMentioned':
      return {
        type: 'CommentMentioned',
        recipientIds: event.mentionedIds,
        excerpt: event.excerpt,
        commit_sha: null,
        commit_url: null,
      };
    case 'CommentCreated':
    case 'CommentDeleted':
      return null;
  }
}

/**
 * Turns comment events into notifications, inside the transaction of the action, and
 * tells every process whose counts changed once it commits.
 */
export function notificationSink(database: Database, clock: Clock): Pick<CommentEventSink, 'raise'> {
  const countChanged = (trx: Db, userId: string) => database.changes.publish(trx, { kind: 'unread', key: userId });
  return {
    async raise(trx, event) {
      if (event.type === 'CommentDeleted') {
        // An item of several new comments stays, on the one before; the others go with the
        // comment (foreign key cascade), and the counts must follow.
        await repo.withoutNewComment(trx, event.workspaceId, event.commentId);
        for (const recipient of await repo.recipientsOfComment(trx, event.commentId))
          await countChanged(trx, recipient);
        return;
      }
      if (event.type === 'CommentCreated') {
        // Its followers, but its author, and those it mentions (told once, as a mention).
        const told = new Set([event.actorId, ...event.mentionedIds]);
        const followers = (await followersOf(trx, event.workspaceId, event.projectId)).filter((f) => !told.has(f.id));
        const now = nowIso(clock);
        await repo.gatherNewComment(
          trx,
          followers.map((follower) => ({
            id: newId('ntf'),
            workspace_id: event.workspaceId,
            recipient_id: follower.id,
            type: 'CommentCreated',
            comment_id: event.commentId,
            actor_id: event.actorId,
            excerpt: event.excerpt,
            commit_sha: null,
            commit_url: null,
            grouped_project_id: event.projectId,
            read_at: null,
            created_at: now,
          })),
        );
        for (const follower of followers) await countChanged(trx, follower.id);
        return;
      }
      const draft = draftFor(event);
      if (!draft) return;
      // Each is told once; nobody is notified of their own action.
      const recipients = new Set(draft.recipientIds.filter((id): id is string => id !== null && id !== event.actorId));
      for (const recipientId of recipients) {
        await repo.insertNotification(trx, {
          id: newId('ntf'),
          workspace_id: event.workspaceId,
          recipient_id: recipientId,
          type: draft.type,
          comment_id: event.commentId,
          actor_id: event.actorId,
          excerpt: draft.excerpt,
          commit_sha: draft.commit_sha,
          commit_url: draft.commit_url,
          grouped_project_id: null,
          read_at: null,
          created_at: nowIso(clock),
        });
        await countChanged(trx, recipientId);
      }
    },
  };
}

/** The badge's number: from the in-process cache, else one indexed count. */
export function unreadCount(deps: NotificationDeps, actor: Actor): number | Promise<number> {
  const cached = deps.caches.unreadCounts.get(actor.id);
  if (cached !== undefined) return cached;
  return deps.caches.unreadCounts.load(actor.id, () => repo.countUnread(deps.db, actor.id)) as Promise<number>;
}

export async function listNotifications(
  deps: NotificationDeps,
  actor: Actor,
  query: { unread?: boolean; limit?: number; cursor?: string },
) {
  const { limit, after, fetch } = pageRequest(query);
  const rows = await repo.listNotifications(deps.db, actor.id, {
    unread: query.unread === true,
    before: after,
    limit: fetch,
  });
  return { rows, limit, unreadCount: await unreadCount(deps, actor) };
}

export async function getNotification(deps: NotificationDeps, actor: Actor, id: string) {
  const row = await repo.findNotification(deps.db, actor.id, id);
  if (!row) throw notFound('Notification');
  return row;
}

export async function markRead(deps: NotificationDeps, actor: Actor, id: string) {
  return inTransaction(deps.db, async (trx) => {
    if (!(await repo.findNotification(trx, actor.id, id))) throw notFound('Notification');
    if ((await repo.markRead(trx, actor.id, nowIso(deps.clock), { id })) > 0) {
      await deps.database.changes.publish(trx, { kind: 'unread', key: actor.id });
    }
    const row = await repo.findNotification(trx, actor.id, id);
    if (!row) throw notFound('Notification');
    return row;
  });
}

/** Marks all read, or only up to `upTo`, so that one raised while the list was open stays unread. */
export async function markAllRead(deps: NotificationDeps, actor: Actor, upTo: string | undefined) {
  const marked = await inTransaction(deps.db, async (trx) => {
    if (upTo !== undefined && !(await repo.findNotification(trx, actor.id, upTo))) throw notFound('Notification');
    const count = await repo.markRead(trx, actor.id, nowIso(deps.clock), { upTo });
    if (count > 0) await deps.database.changes.publish(trx, { kind: 'unread', key: actor.id });
    return count;
  });
  return { marked, unreadCount: await unreadCount(deps, actor) };
}
