import type { Kysely } from 'kysely';
import type { Tables } from '../../db/schema.js';
import type { RateRules } from '../../limits/rules.js';
import { checkExport } from './import-check.js';
import { type ExportedComment, readExport } from './import-file.js';
import { checkPictures } from './import-pictures.js';
import { BATCH, type ImportProgress, type ImportReport, type Pictures } from './import-plan.js';
import { writeComments, writeLabel, writeProject, writeUser } from './import-write.js';
import { ExportZip } from './import-zip.js';

// An export (JSON Lines) brought into this server's database, with the ids it had: the way to
// move a workspace between servers, SQLite to PostgreSQL included. The file is read twice: once
// to check all of it (every line valid, every person and project a comment names listed in the
// file, no id that belongs to another workspace here), writing nothing; then to write it. An
// import creates its workspace: a file naming a workspace that is here already is refused,
// unless that workspace was made by this very file (its header's digest), so that running it
// again adds nothing. Accounts come without passwords or links (an export holds none): admins
// make reset links or rotate client links. With the export's zip (screenshots, images, replays),
// the check reads every file of it too, held to what its upload may be, each of a comment the
// file holds and within the workspace's storage quota; each is then written with its comment
// (its place in the thread, its author and date from the file), once: a picture that is there
// already is not written again.
//
// Here the two readings in order; their parts: import-file.ts (what a line may hold, read from
// import-lines.ts), import-check.ts (the first reading), import-foreign-ids.ts (ids of other
// workspaces), import-pictures.ts (the zip's files, checked and written), import-write.ts (the
// rows), import-plan.ts (what passes between them).

export interface ImportOptions {
  /**
   * The export's zip of screenshots, images and replays (GET /api/workspace/export/screenshots),
   * and the server's rules (its storage quota, for a workspace without one of its own).
   */
  pictures?: { zip: string; rules: RateRules };
}

/**
 * Checks the whole export, then writes it. `open` gives the file from its start (it is read
 * twice); `progress` hears of each batch of comments. Nothing is written when the check fails.
 */
export async function importExport(
  db: Kysely<Tables>,
  open: () => NodeJS.ReadableStream,
  progress: ImportProgress = () => {},
  options: ImportOptions = {},
): Promise<ImportReport> {
  const zip = options.pictures ? await ExportZip.open(options.pictures.zip) : null;
  try {
    return await importWith(
      db,
      open,
      progress,
      zip && options.pictures ? { zip, rules: options.pictures.rules } : null,
    );
  } finally {
    zip?.close();
  }
}

async function importWith(
  db: Kysely<Tables>,
  open: () => NodeJS.ReadableStream,
  progress: ImportProgress,
  pictures: Pictures | null,
): Promise<ImportReport> {
  const zip = pictures?.zip ?? null;
  const plan = await checkExport(db, open(), progress, zip);
  if (pictures) await checkPictures(db, plan, pictures, progress);
  const report: ImportReport = {
    workspace: plan.workspace,
    added: { projects: 0, labels: 0, users: 0, comments: 0, replies: 0, events: 0 },
    present: { projects: 0, labels: 0, users: 0, comments: 0 },
    withoutEmail: [],
    ...(zip && { pictures: { added: { screenshots: 0, images: 0, replays: 0 }, present: 0 } }),
  };
  await db
    .insertInto('workspaces')
    .values({ ...plan.workspace, created_at: new Date().toISOString(), imported_from: plan.digest })
    .onConflict((oc) => oc.doNothing())
    .execute();
  let batch: ExportedComment[] = [];
  let written = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    await writeComments(db, report, plan, batch, pictures);
    written += batch.length;
    batch = [];
    progress('written', written);
  };
  for await (const { record } of readExport(open())) {
    if (record.type === 'project') await writeProject(db, report, record);
    else if (record.type === 'label') await writeLabel(db, report, record);
    else if (record.type === 'user') await writeUser(db, report, plan.projectIds, record);
    else if (record.type === 'comment') {
      batch.push(record);
      if (batch.length >= BATCH) await flush();
    }
  }
  await flush();
  return report;
}
