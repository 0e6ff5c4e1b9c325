import type { Insertable } from 'kysely';
import type { Db, NotificationTable } from '../../db/schema.js';
import { writeBeforeCommit } from '../../db/transaction.js';
import { excerpt } from '../comments/excerpt.js';

/** Every query here filters by recipient: a notification is private to its recipient. */

/** Nothing reads a notification back in the transaction that writes it: it may go with its last statement. */
export async function insertNotification(db: Db, row: Insertable<NotificationTable>) {
  await writeBeforeCommit(db, db.insertInto('notifications').values(row));
}

/**
 * A new comment for each of its followers (rows of `grouped_project_id` its project): one more
 * in the follower's unread item of the project's new comments, which then shows it (its id
 * renewed, so that it stands first, and a read-all up to what was shown leaves it unread), or a
 * new item. One statement over the unread items' unique index decides: comments arriving at
 * once each count, on either database.
 */
export async function gatherNewComment(db: Db, rows: Insertable<NotificationTable>[]) {
  if (rows.length === 0) return;
  await writeBeforeCommit(
    db,
    db
      .insertInto('notifications')
      .values(rows)
      .onConflict((oc) =>
        oc
          .columns(['recipient_id', 'grouped_project_id'])
          .where('read_at', 'is', null)
          .doUpdateSet((eb) => ({
            id: eb.ref('excluded.id'),
            comment_id: eb.ref('excluded.comment_id'),
            actor_id: eb.ref('excluded.actor_id'),
            excerpt: eb.ref('excluded.excerpt'),
            created_at: eb.ref('excluded.created_at'),
            comment_count: eb('notifications.comment_count', '+', 1),
          })),
      ),
  );
}

/**
 * Before a comment goes: each item of several new comments that shows it shows instead the
 * newest other comment of its project that its recipient did not write, one fewer. (Which
 * comments an item gathered is not kept: the project's newest stands for them.)
 */
export async function withoutNewComment(db: Db, workspaceId: string, commentId: string) {
  const items = await db
    .selectFrom('notifications')
    .select(['id', 'recipient_id', 'grouped_project_id', 'comment_count'])
    .where('comment_id', '=', commentId)
    .where('workspace_id', '=', workspaceId)
    .where('grouped_project_id', 'is not', null)
    .where('comment_count', '>', 1)
    .execute();
  for (const item of items) {
    const previous = await db
      .selectFrom('comments')
      .select(['id', 'author_id', 'body'])
      .where('workspace_id', '=', workspaceId)
      .where('project_id', '=', item.grouped_project_id as string)
      .where('id', '!=', commentId)
      .where('author_id', '!=', item.recipient_id)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (!previous) continue;
    await db
      .updateTable('notifications')
      .set({
        comment_id: previous.id,
        actor_id: previous.author_id,
        excerpt: excerpt(previous.body),
        comment_count: item.comment_count - 1,
      })
      .where('id', '=', item.id)
      .execute();
  }
}

export async function countUnread(db: Db, recipientId: string): Promise<number> {
  const row = await db
    .selectFrom('notifications')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('recipient_id', '=', recipientId)
    .where('read_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

const selectNotifications = (db: Db, recipientId: string) =>
  db
    .selectFrom('notifications')
    .innerJoin('comments', 'comments.id', 'notifications.comment_id')
    .innerJoin('projects', 'projects.id', 'comments.project_id')
    .leftJoin('users as actor', 'actor.id', 'notifications.actor_id')
    .selectAll('notifications')
    .select(['projects.key as project_key', 'comments.page_url as page_url', 'actor.name as actor_name'])
    .where('notifications.recipient_id', '=', recipientId);

export type NotificationRow = NonNullable<Awaited<ReturnType<typeof findNotification>>>;

export const findNotification = (db: Db, recipientId: string, id: string) =>
  selectNotifications(db, recipientId).where('notifications.id', '=', id).executeTakeFirst();

/** Newest first; keyset on the time-sortable id. */
export function listNotifications(
  db: Db,
  recipientId: string,
  filter: { unread: boolean; before?: string; limit: number },
) {
  let query = selectNotifications(db, recipientId);
  if (filter.unread) query = query.where('notifications.read_at', 'is', null);
  if (filter.before) query = query.where('notifications.id', '<', filter.before);
  return query.orderBy('notifications.id', 'desc').limit(filter.limit).execute();
}

/** Marks unread notifications read, all of them or those up to and including `upTo`. */
export async function markRead(
  db: Db,
  recipientId: string,
  at: string,
  which: { id: string } | { upTo?: string },
): Promise<number> {
  let query = db
    .updateTable('notifications')
    .set({ read_at: at })
    .where('recipient_id', '=', recipientId)
    .where('read_at', 'is', null);
  if ('id' in which) query = query.where('id', '=', which.id);
  else if (which.upTo) query = query.where('id', '<=', which.upTo);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Who holds notifications about a comment: their counts change when it is deleted. */
export async function recipientsOfComment(db: Db, commentId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('notifications')
    .select('recipient_id')
    .distinct()
    .where('comment_id', '=', commentId)
    .execute();
  return rows.map((row) => row.recipient_id);
}
