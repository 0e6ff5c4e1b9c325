import { Readable } from 'node:stream';
import yazl from 'yazl';
import type { Actor } from '../../actor.js';
import type { Db } from '../../db/schema.js';

// A workspace's (or one project's) screenshots and images as a zip, streamed: one file per
// screenshot, named by its project and comment (`site/cmt_….png`, the comment the JSON Lines
// export holds), and one per image of a thread, in a folder of its comment
// (`site/cmt_…/img_….jpg`, the image the export's comment lists).
// The list is read a page at a time, and each image only when the archive reaches it and the
// client has taken in what came before, so that memory holds one image whatever their number.
// Stored, not compressed: images are.

/** Screenshots listed per query (their names and dates, not their bytes). */
const PAGE = 500;

// A comment's replay is its attachment too: `site/cmt_….replay.json.gz`, beside its screenshot.
export const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'application/gzip': 'replay.json.gz',
};

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
  const fail = (error: Error) => out.destroy(error);
  zip.on('error', fail);
  // The two tables have the same columns for this: read alike (the name only differs).
  const from = (table: 'attachments' | 'images') => db.selectFrom(table as 'attachments');
  const bytesOf = async (table: 'attachments' | 'images', id: string) =>
    (
      await from(table)
        .select('bytes')
        .where('workspace_id', '=', actor.workspaceId)
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).bytes;
  const add = async (table: 'attachments' | 'images', nameOf: (row: { id: string; comment_id: string }) => string) => {
    let after = '';
    for (;;) {
      let page = db
        .selectFrom(`${table} as a` as 'attachments as a')
        .innerJoin('comments as c', 'c.id', 'a.comment_id')
        .innerJoin('projects as p', 'p.id', 'c.project_id')
        .select(['a.id', 'a.comment_id', 'a.content_type', 'a.created_at', 'p.key'])
        .where('a.workspace_id', '=', actor.workspaceId)
        .where('a.id', '>', after)
        .orderBy('a.id')
        .limit(PAGE);
      if (projectId) page = page.where('c.project_id', '=', projectId);
      const rows = await page.execute();
      for (const row of rows) {
        const name = `${row.key}/${nameOf(row)}.${EXTENSIONS[row.content_type] ?? 'bin'}`;
        zip.addReadStreamLazy(name, { compress: false, mtime: new Date(row.created_at) }, (give) => {
          bytesOf(table, row.id).then(
            (bytes) => give(null, Readable.from([Buffer.from(bytes)])),
            (error: Error) => give(error, Readable.from([])),
          );
        });
      }
      if (rows.length < PAGE) break;
      after = rows[rows.length - 1]?.id ?? after;
    }
  };
  const list = async () => {
    await add('attachments', (row) => row.comment_id);
    await add('images', (row) => `${row.comment_id}/${row.id}`);
    zip.end();
  };
  list().catch(fail);
  return out;
}
