import type { Label } from '@svc/contract';
import type { Db, LabelTable } from '../../db/schema.js';

const columns = ['labels.id', 'labels.name', 'labels.color'] as const;

/** The workspace's labels, by name. */
export const listLabels = (db: Db, workspaceId: string) =>
  db
    .selectFrom('labels')
    .select(columns)
    .where('workspace_id', '=', workspaceId)
    .orderBy('name_key')
    .execute() as Promise<Label[]>;

export const findLabels = (db: Db, workspaceId: string, ids: readonly string[]) =>
  ids.length === 0
    ? Promise.resolve([] as Label[])
    : (db
        .selectFrom('labels')
        .select(columns)
        .where('workspace_id', '=', workspaceId)
        .where('id', 'in', ids)
        .orderBy('name_key')
        .execute() as Promise<Label[]>);

export const nameTaken = async (db: Db, workspaceId: string, nameKey: string, except = '') =>
  (await db
    .selectFrom('labels')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('name_key', '=', nameKey)
    .where('id', '<>', except)
    .executeTakeFirst()) !== undefined;

export async function insertLabel(db: Db, row: LabelTable) {
  await db.insertInto('labels').values(row).execute();
}

export async function updateLabel(db: Db, workspaceId: string, id: string, changes: Partial<LabelTable>) {
  await db.updateTable('labels').set(changes).where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
}

/** Deletes a label; it comes off every comment (foreign key cascade). The projects of the comments it was on. */
export async function deleteLabel(db: Db, workspaceId: string, id: string): Promise<string[]> {
  const on = await db
    .selectFrom('comment_labels')
    .innerJoin('comments', 'comments.id', 'comment_labels.comment_id')
    .select('comments.project_id')
    .distinct()
    .where('comment_labels.workspace_id', '=', workspaceId)
    .where('comment_labels.label_id', '=', id)
    .execute();
  await db.deleteFrom('labels').where('workspace_id', '=', workspaceId).where('id', '=', id).execute();
  return on.map((row) => row.project_id);
}

/** The labels of several comments at once, by comment, each list by name. */
export async function labelsOf(db: Db, workspaceId: string, commentIds: readonly string[]) {
  const byComment = new Map<string, Label[]>();
  if (commentIds.length === 0) return byComment;
  const rows = await db
    .selectFrom('comment_labels')
    .innerJoin('labels', 'labels.id', 'comment_labels.label_id')
    .select(['comment_labels.comment_id', ...columns])
    .where('comment_labels.workspace_id', '=', workspaceId)
    .where('comment_labels.comment_id', 'in', commentIds)
    .orderBy('labels.name_key')
    .execute();
  for (const { comment_id, ...label } of rows) {
    const list = byComment.get(comment_id) ?? [];
    list.push(label as Label);
    byComment.set(comment_id, list);
  }
  return byComment;
}

/** Puts exactly `labelIds` on the comment. */
export async function setCommentLabels(db: Db, workspaceId: string, commentId: string, labelIds: readonly string[]) {
  await db
    .deleteFrom('comment_labels')
    .where('workspace_id', '=', workspaceId)
    .where('comment_id', '=', commentId)
    .execute();
  if (labelIds.length === 0) return;
  await db
    .insertInto('comment_labels')
    .values(labelIds.map((label_id) => ({ comment_id: commentId, label_id, workspace_id: workspaceId })))
    .execute();
}
