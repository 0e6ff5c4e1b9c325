import type { Db, NotificationTable } from '../../db/schema.js';
import { writeBeforeCommit } from '../../db/transaction.js';

/** Every query here filters by recipient: a notification is private to its recipient. */

/** Nothing reads a notification back in the transaction that writes it: it may go with its last statement. */
export async function insertNotification(db: Db, row: NotificationTable) {
  await writeBeforeCommit(db, db.insertInto('notifications').values(row));
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
