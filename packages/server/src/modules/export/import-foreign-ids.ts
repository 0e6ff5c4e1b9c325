import type { Kysely } from 'kysely';
import type { Tables } from '../../db/schema.js';
import { ImportError } from './import-error.js';
import type { ExportedComment } from './import-file.js';
import { ROWS_PER_INSERT } from './import-plan.js';

// An import keeps the ids a file gives, so none may be one that another workspace of this
// server holds already: these find them, a thousand ids a query.

/** The ids of `table` among `ids` that belong to a workspace other than `workspaceId`. */
export async function foreignIds(
  db: Kysely<Tables>,
  table: 'projects' | 'labels' | 'users' | 'comments' | 'replies' | 'comment_events' | 'images',
  workspaceId: string,
  ids: string[],
): Promise<Set<string>> {
  const found = new Set<string>();
  for (let at = 0; at < ids.length; at += ROWS_PER_INSERT) {
    const rows = await db
      .selectFrom(table)
      .select('id')
      .where('id', 'in', ids.slice(at, at + ROWS_PER_INSERT))
      .where('workspace_id', '<>', workspaceId)
      .execute();
    for (const row of rows) found.add(row.id);
  }
  return found;
}

/** Refuses the comments of a batch when one, a reply or a timeline event of it has the id of another workspace's, naming its line. */
export async function refuseForeignThreadIds(
  db: Kysely<Tables>,
  workspaceId: string,
  batch: { line: number; comment: ExportedComment }[],
) {
  const lineOf = new Map<string, number>();
  const ids = { comments: [] as string[], replies: [] as string[], comment_events: [] as string[] };
  for (const { line, comment } of batch) {
    ids.comments.push(comment.id);
    lineOf.set(comment.id, line);
    for (const reply of comment.replies) {
      ids.replies.push(reply.id);
      lineOf.set(reply.id, line);
    }
    for (const event of comment.timeline) {
      ids.comment_events.push(event.id);
      lineOf.set(event.id, line);
    }
  }
  for (const table of ['comments', 'replies', 'comment_events'] as const) {
    const [foreign] = await foreignIds(db, table, workspaceId, ids[table]);
    if (foreign)
      throw new ImportError(`line ${lineOf.get(foreign)}: ${foreign} belongs to another workspace on this server`);
  }
}
