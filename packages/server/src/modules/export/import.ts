import { mentionedIds, mentionToken, PRIORITIES, replaceMentions } from '@svc/contract';
import type { Insertable, Kysely } from 'kysely';
import type { Tables } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { normaliseEmail } from '../auth/service.js';
import { remeasure } from '../comments/measures.js';
import { recordMentions } from '../comments/mentions.js';
import { anchorColumns, plainColumnsOf } from '../comments/presenter.js';
import { insertComments } from '../comments/repo.js';
import { REPLAY_OFF, replayColumns } from '../projects/service.js';
import {
  type ExportedComment,
  type ExportedLabel,
  type ExportedProject,
  type ExportedUser,
  ImportError,
  readExport,
} from './import-file.js';

export { ImportError };

// An export (JSON Lines) brought into this server's database, with the ids it had: the way to
// move a workspace between servers, SQLite to PostgreSQL included. The file is read twice: once
// to check all of it (every line valid, every person and project a comment names listed in the
// file, no id that belongs to another workspace here), writing nothing; then to write it. An
// import creates its workspace: a file naming a workspace that is here already is refused,
// unless that workspace was made by this very file (its header's digest), so that running it
// again adds nothing. Accounts come without passwords or links (an export holds none): admins
// make reset links or rotate client links.

/** Comments checked and written per round trip (and per transaction). */
const BATCH = 200;

export interface ImportReport {
  workspace: { id: string; name: string };
  /** Rows written, and rows skipped because their id was there already. */
  added: { projects: number; labels: number; users: number; comments: number; replies: number; events: number };
  present: { projects: number; labels: number; users: number; comments: number };
  /** People imported without their e-mail, another account of this server having it. */
  withoutEmail: string[];
}

/** Where an import is: checking the file (nothing written yet), or writing it. */
export type ImportProgress = (phase: 'checked' | 'written', comments: number) => void;

/** Rows per insert statement: well under either database's limit of bound parameters. */
const ROWS_PER_INSERT = 1000;

/** Inserts `rows` a thousand at a time; how many were written. */
async function insertAll<T extends 'replies' | 'comment_events'>(
  db: Kysely<Tables>,
  table: T,
  rows: Insertable<Tables[T]>[],
): Promise<number> {
  let written = 0;
  for (let at = 0; at < rows.length; at += ROWS_PER_INSERT) {
    const [result] = await db
      .insertInto(table)
      .values(rows.slice(at, at + ROWS_PER_INSERT) as never)
      .execute();
    written += Number(result?.numInsertedOrUpdatedRows ?? 0);
  }
  return written;
}

/**
 * Checks the whole export, then writes it. `open` gives the file from its start (it is read
 * twice); `progress` hears of each batch of comments. Nothing is written when the check fails.
 */
export async function importExport(
  db: Kysely<Tables>,
  open: () => NodeJS.ReadableStream,
  progress: ImportProgress = () => {},
): Promise<ImportReport> {
  const plan = await checkExport(db, open(), progress);
  const report: ImportReport = {
    workspace: plan.workspace,
    added: { projects: 0, labels: 0, users: 0, comments: 0, replies: 0, events: 0 },
    present: { projects: 0, labels: 0, users: 0, comments: 0 },
    withoutEmail: [],
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
    await writeComments(db, report, plan, batch);
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

/** What the check learnt that the writes need. */
interface ImportPlan {
  workspace: { id: string; name: string };
  digest: string;
  /** The file's projects: key → id. */
  projectIds: Map<string, string>;
  /** The file's people: id → name, the name each mention of them shows. */
  names: Map<string, string>;
}

/** The ids of `table` among `ids` that belong to a workspace other than `workspaceId`. */
async function foreignIds(
  db: Kysely<Tables>,
  table: 'projects' | 'labels' | 'users' | 'comments' | 'replies' | 'comment_events',
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

/**
 * Reads the whole file and refuses it, naming the line, when anything in it is invalid, names
 * a person or project the file does not list, repeats an id, or holds an id that belongs to
 * another workspace of this server; or when its workspace is here and was not made by this file.
 */
async function checkExport(
  db: Kysely<Tables>,
  input: NodeJS.ReadableStream,
  progress: ImportProgress,
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

/** The note of a timeline event that holds mentions (a verdict "Not fixed"'s), or nothing. */
const noteWithMentions = (event: { kind: string; note: string | null }) =>
  event.kind === 'not_fixed' ? (event.note ?? '') : '';

async function writeProject(db: Kysely<Tables>, report: ImportReport, project: ExportedProject) {
  const result = await db
    .insertInto('projects')
    .values({
      id: project.id,
      workspace_id: report.workspace.id,
      key: project.key,
      name: project.name,
      repo_url: project.repoUrl,
      app_url: project.appUrl ?? null,
      allowed_origins: JSON.stringify(project.allowedOrigins),
      page_params: JSON.stringify(project.pageParams ?? []),
      ...REPLAY_OFF,
      ...replayColumns(project.replay ?? {}),
      created_at: project.createdAt,
    })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  if (Number(result.numInsertedOrUpdatedRows ?? 0)) report.added.projects++;
  else report.present.projects++;
}

async function writeLabel(db: Kysely<Tables>, report: ImportReport, label: ExportedLabel) {
  const result = await db
    .insertInto('labels')
    .values({
      id: label.id,
      workspace_id: report.workspace.id,
      name: label.name,
      name_key: label.name.toLowerCase(),
      color: label.color,
      created_at: new Date().toISOString(),
    })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  if (Number(result.numInsertedOrUpdatedRows ?? 0)) report.added.labels++;
  else report.present.labels++;
}

async function writeUser(
  db: Kysely<Tables>,
  report: ImportReport,
  projectIds: Map<string, string>,
  user: ExportedUser,
) {
  if (await db.selectFrom('users').select('id').where('id', '=', user.id).executeTakeFirst()) {
    report.present.users++;
    return;
  }
  // E-mails are unique on a server, in one case: one another account holds already stays with it.
  const email = user.email === null ? null : normaliseEmail(user.email);
  const taken = email
    ? await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()
    : undefined;
  if (taken) report.withoutEmail.push(user.email ?? '');
  // A client limited to a project the file does not hold could only be let into every project:
  // it comes revoked instead (its comments, in that project, are not in the file either).
  const projectId = user.projectKey ? (projectIds.get(user.projectKey) ?? null) : null;
  const outsideTheFile = Boolean(user.projectKey) && projectId === null;
  await db
    .insertInto('users')
    .values({
      id: user.id,
      workspace_id: report.workspace.id,
      email: taken ? null : email,
      name: user.name,
      role: user.role,
      password_hash: null,
      access_token_hash: null,
      project_id: projectId,
      created_at: user.createdAt,
      removed_at: user.removedAt ?? (outsideTheFile ? new Date().toISOString() : null),
      last_sign_in_at: null,
      kind: user.agent ? 'agent' : 'person',
    })
    .execute();
  report.added.users++;
}

async function writeComments(
  db: Kysely<Tables>,
  report: ImportReport,
  { projectIds, names }: ImportPlan,
  comments: ExportedComment[],
) {
  const workspaceId = report.workspace.id;
  // Texts come as written, by id (import-file.ts): stored with the names of the file's people.
  const named = (text: string) => replaceMentions(text, (id) => mentionToken({ id, name: names.get(id) ?? '' }));
  await inTransaction(db, async (trx: Kysely<Tables>) => {
    const existing = new Set(
      (
        await trx
          .selectFrom('comments')
          .select('id')
          .where(
            'id',
            'in',
            comments.map((c) => c.id),
          )
          .execute()
      ).map((row) => row.id),
    );
    const fresh = comments.filter((c) => !existing.has(c.id));
    report.present.comments += comments.length - fresh.length;
    if (fresh.length === 0) return;
    const rows = fresh.map((c) => {
      const projectId = projectIds.get(c.projectKey);
      if (!projectId)
        throw new ImportError(`comment ${c.id} names project "${c.projectKey}", which the file does not hold`);
      // The fields that are one column each as the presenter maps them; a field the file lacks takes its default.
      return {
        ...plainColumnsOf(c),
        id: c.id,
        workspace_id: workspaceId,
        project_id: projectId,
        author_id: c.author.id,
        body: named(c.body),
        page_url: c.pageUrl,
        ...anchorColumns(c.anchor),
        repinned_at: c.repinned?.at ?? null,
        repinned_by_id: c.repinned?.by.id ?? null,
        status: c.status,
        applied_by_id: c.appliedBy?.id ?? null,
        assignee_id: c.assignee?.id ?? null,
        priority: Math.max(0, PRIORITIES.indexOf(c.priority ?? 'none')),
        assigned_at: c.assignee ? (c.assignedAt ?? c.updatedAt) : null,
        context: c.context ? JSON.stringify(c.context) : null,
        created_at: c.createdAt,
        updated_at: c.updatedAt,
      };
    });
    report.added.comments += await insertComments(trx, rows);
    const replies = fresh.flatMap((c) =>
      c.replies.map((r) => ({
        id: r.id,
        workspace_id: workspaceId,
        comment_id: c.id,
        author_id: r.author?.id ?? null,
        kind: r.kind,
        body: named(r.body),
        created_at: r.createdAt,
      })),
    );
    report.added.replies += await insertAll(trx, 'replies', replies);
    const events = fresh.flatMap((c) =>
      c.timeline.map((e) => ({
        id: e.id,
        workspace_id: workspaceId,
        project_id: projectIds.get(c.projectKey) ?? '',
        comment_id: c.id,
        kind: e.kind,
        actor_id: e.by?.id ?? null,
        via: e.via,
        commit_sha: e.commitSha,
        build_sha: e.buildSha,
        note: e.kind === 'not_fixed' && e.note !== null ? named(e.note) : e.note,
        subject_id: e.assignee?.id ?? null,
        derived: e.derived ? 1 : 0,
        created_at: e.at,
      })),
    );
    report.added.events += await insertAll(trx, 'comment_events', events);
    const labelled = fresh.flatMap((c) =>
      (c.labels ?? []).map((label) => ({ comment_id: c.id, label_id: label.id, workspace_id: workspaceId })),
    );
    if (labelled.length) await trx.insertInto('comment_labels').values(labelled).execute();
    for (const c of fresh) {
      const texts = [c.body, ...c.replies.map((r) => r.body), ...c.timeline.map(noteWithMentions)];
      const mentioned = [...new Set(texts.flatMap(mentionedIds))];
      await recordMentions(trx, workspaceId, c.id, mentioned, c.createdAt);
    }
    await remeasure(
      trx,
      workspaceId,
      fresh.map((c) => c.id),
    );
  });
}
