import { once } from 'node:events';
import type { Readable } from 'node:stream';
import yazl from 'yazl';
import type { Db } from '../../db/schema.js';
import type { Actor } from '../auth/actor.js';

// A workspace's (or one project's) screenshots as a zip, streamed: one file per screenshot,
// named by its project and comment (`site/cmt_….png`, what the JSON Lines export names as
// each comment's screenshot), read a few at a time and added as the client takes the archive
// in, so that memory stays flat whatever their number. Stored, not compressed: images are.

/** Screenshots read per query. */
const PAGE = 20;
/** How far the archive may run ahead of the client before reading more. */
const AHEAD_BYTES = 4 * 1024 * 1024;

const EXTENSIONS: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/webp': 'webp' };

interface Source {
  db: Db;
  actor: Actor;
  /** One project, or every project of the workspace. */
  projectId: string | null;
}

/** The zip archive, as a stream; a failure while reading destroys the stream with it. */
export function screenshotsZip({ db, actor, projectId }: Source): Readable {
  const zip = new yazl.ZipFile();
  const out = zip.outputStream as Readable;
  const fill = async () => {
    let after = '';
    for (;;) {
      let page = db
        .selectFrom('attachments as a')
        .innerJoin('comments as c', 'c.id', 'a.comment_id')
        .innerJoin('projects as p', 'p.id', 'c.project_id')
        .select(['a.id', 'a.comment_id', 'a.content_type', 'a.bytes', 'a.created_at', 'p.key'])
        .where('a.workspace_id', '=', actor.workspaceId)
        .where('a.id', '>', after)
        .orderBy('a.id')
        .limit(PAGE);
      if (projectId) page = page.where('c.project_id', '=', projectId);
      const rows = await page.execute();
      for (const row of rows) {
        zip.addBuffer(Buffer.from(row.bytes), `${row.key}/${row.comment_id}.${EXTENSIONS[row.content_type] ?? 'bin'}`, {
          compress: false,
          mtime: new Date(row.created_at),
        });
      }
      if (rows.length < PAGE) break;
      after = rows[rows.length - 1]?.id ?? after;
      // Waits for the client (a closed stream, a client gone, ends it).
      while (out.readableLength > AHEAD_BYTES && !out.destroyed) {
        await Promise.race([once(out, 'data'), once(out, 'close')]);
      }
      if (out.destroyed) return;
    }
    zip.end();
  };
  fill().catch((error: Error) => out.destroy(error));
  return out;
}
