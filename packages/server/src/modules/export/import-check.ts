import { mentionedIds } from '@svc/contract';
import type { Kysely } from 'kysely';
import type { Tables } from '../../db/schema.js';
import { ImportError } from './import-error.js';
import { type ExportedComment, noteWithMentions, readExport } from './import-file.js';
import { foreignIds, refuseForeignThreadIds } from './import-foreign-ids.js';
import { checkPlaces } from './import-pictures.js';
import { BATCH, type ImportPlan, type ImportProgress } from './import-plan.js';
import type { ExportZip } from './import-zip.js';

// The import's first reading of the file, which writes nothing: every line valid, every person,
// project and label a comment names listed before it, no id twice, none of another workspace.

/**
 * Reads the whole file and refuses it, naming the line, when anything in it is invalid, names
 * a person or project the file does not list, repeats an id, or holds an id that belongs to
 * another workspace of this server; or when its workspace is here and was not made by this file.
 */
export async function checkExport(
  db: Kysely<Tables>,
  input: NodeJS.ReadableStream,
  progress: ImportProgress,
  zip: ExportZip | null,
): Promise<ImportPlan> {
  let plan: ImportPlan | null = null;
  const people = new Set<string>();
  const labels = new Set<string>();
  const labelNames = new Set<string>();
  const seen = new Set<string>();
  const once = (id: string, line: number, what: string) => {
    if (seen.has(id)) throw new ImportError(`line ${line}: ${what} ${id} appears twice in the file`);
    seen.add(id);
  };
  /** Comments of the current batch: the ids each holds (its own, its replies', its events'), by line. */
  let batch: { line: number; comment: ExportedComment }[] = [];
  let checked = 0;
  const checkBatch = async (workspaceId: string) => {
    await refuseForeignThreadIds(db, workspaceId, batch);
    checked += batch.length;
    batch = [];
    progress('checked', checked);
  };

  for await (const { line, record, digest } of readExport(input)) {
    if (record.type === 'export') {
      const workspace = record.workspace;
      const here = await db
        .selectFrom('workspaces')
        .select('imported_from')
        .where('id', '=', workspace.id)
        .executeTakeFirst();
      if (here && here.imported_from !== digest) {
        throw new ImportError(
          `line ${line}: workspace ${workspace.id} is already on this server: an import creates its workspace and never writes into one that is here (only the file that made it may run again)`,
        );
      }
      plan = { workspace: { id: workspace.id, name: workspace.name }, digest, projectIds: new Map(), names: new Map() };
      continue;
    }
    if (!plan) throw new ImportError(`line ${line} comes before the header`);
    const workspaceId = plan.workspace.id;
    if (record.type === 'project') {
      once(record.id, line, 'project');
      if (plan.projectIds.has(record.key))
        throw new ImportError(`line ${line}: project key "${record.key}" appears twice in the file`);
      if ((await foreignIds(db, 'projects', workspaceId, [record.id])).size) {
        throw new ImportError(`line ${line}: project ${record.id} belongs to another workspace on this server`);
      }
      plan.projectIds.set(record.key, record.id);
    } else if (record.type === 'label') {
      once(record.id, line, 'label');
      if ((await foreignIds(db, 'labels', workspaceId, [record.id])).size) {
        throw new ImportError(`line ${line}: label ${record.id} belongs to another workspace on this server`);
      }
      labels.add(record.id);
      const nameKey = record.name.toLowerCase();
      if (labelNames.has(nameKey))
        throw new ImportError(`line ${line}: label "${record.name}" appears twice in the file`);
      labelNames.add(nameKey);
    } else if (record.type === 'user') {
      once(record.id, line, 'person');
      if ((await foreignIds(db, 'users', workspaceId, [record.id])).size) {
        throw new ImportError(`line ${line}: person ${record.id} belongs to another workspace on this server`);
      }
      people.add(record.id);
      plan.names.set(record.id, record.name);
    } else {
      once(record.id, line, 'comment');
      checkReferences(line, record, plan.projectIds, people, once);
      for (const label of record.labels ?? []) {
        if (!labels.has(label.id)) {
          throw new ImportError(
            `line ${line} (comment ${record.id}): names label ${label.id}, which the file does not list before it`,
          );
        }
      }
      if (zip) checkPlaces(zip, line, record, people);
      batch.push({ line, comment: record });
      if (batch.length >= BATCH) await checkBatch(workspaceId);
    }
  }
  if (!plan) throw new ImportError('the file is empty');
  await checkBatch(plan.workspace.id);
  return plan;
}

/** Every person and project a comment names is one the file lists before it; its replies are its own. */
function checkReferences(
  line: number,
  comment: ExportedComment,
  projects: Map<string, string>,
  people: Set<string>,
  once: (id: string, line: number, what: string) => void,
) {
  const refuse = (what: string) => {
    throw new ImportError(`line ${line} (comment ${comment.id}): ${what}, which the file does not list before it`);
  };
  if (!projects.has(comment.projectKey)) refuse(`names project "${comment.projectKey}"`);
  const person = (id: string | undefined, role: string) => {
    if (id !== undefined && !people.has(id)) refuse(`names ${id} as its ${role}`);
  };
  person(comment.author.id, 'author');
  person(comment.appliedBy?.id, 'applier');
  person(comment.repinned?.by.id, 'mover');
  person(comment.assignee?.id ?? undefined, 'assignee');
  for (const id of mentionedIds(comment.body)) person(id, 'mention');
  for (const reply of comment.replies) {
    once(reply.id, line, 'reply');
    if (reply.commentId !== comment.id) {
      throw new ImportError(
        `line ${line} (comment ${comment.id}): reply ${reply.id} says it belongs to ${reply.commentId}`,
      );
    }
    person(reply.author?.id, `reply ${reply.id}'s author`);
    for (const id of mentionedIds(reply.body)) person(id, `reply ${reply.id}'s mention`);
  }
  for (const event of comment.timeline) {
    once(event.id, line, 'timeline event');
    person(event.by?.id, `timeline event ${event.id}'s actor`);
    person(event.assignee?.id ?? undefined, `timeline event ${event.id}'s assignee`);
    for (const id of mentionedIds(noteWithMentions(event))) person(id, `timeline event ${event.id}'s mention`);
  }
}
