import { mentionedIds, mentionToken, PRIORITIES, replaceMentions } from '@svc/contract';
import type { Insertable, Kysely } from 'kysely';
import type { Tables } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { newId } from '../../ids.js';
import type { RateRules } from '../../limits/rules.js';
import { normaliseEmail } from '../auth/service.js';
import { remeasure } from '../comments/measures.js';
import { recordMentions } from '../comments/mentions.js';
import { anchorColumns, plainColumnsOf } from '../comments/presenter.js';
import { insertComments } from '../comments/repo.js';
import { REPLAY_OFF, replayColumns } from '../projects/service.js';
import { sizeText, storageOf } from '../storage/quota.js';
import { holdToQuota } from '../storage/uploads.js';
import {
  type ExportedComment,
  type ExportedLabel,
  type ExportedProject,
  type ExportedUser,
  ImportError,
  readExport,
} from './import-file.js';
import { ExportZip, type ZipPicture } from './import-zip.js';

export { ImportError };

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

/** Comments checked and written per round trip (and per transaction). */
const BATCH = 200;

export interface ImportReport {
  workspace: { id: string; name: string };
  /** Rows written, and rows skipped because their id was there already. */
  added: { projects: number; labels: number; users: number; comments: number; replies: number; events: number };
  present: { projects: number; labels: number; users: number; comments: number };
  /** People imported without their e-mail, another account of this server having it. */
  withoutEmail: string[];
  /** With the zip: its files written, and those already here. */
  pictures?: { added: { screenshots: number; images: number; replays: number }; present: number };
}

/** Where an import is: checking the file (nothing written yet), checking the zip's files, or writing them. */
export type ImportProgress = (phase: 'checked' | 'pictures' | 'written', count: number) => void;

export interface ImportOptions {
  /**
   * The export's zip of screenshots, images and replays (GET /api/workspace/export/screenshots),
   * and the server's rules (its storage quota, for a workspace without one of its own).
   */
  pictures?: { zip: string; rules: RateRules };
}

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

/** The export's zip, and the rules its pictures are held to (the server's storage quota). */
interface Pictures {
  zip: ExportZip;
  rules: RateRules;
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

/**
 * Reads the whole file and refuses it, naming the line, when anything in it is invalid, names
 * a person or project the file does not list, repeats an id, or holds an id that belongs to
 * another workspace of this server; or when its workspace is here and was not made by this file.
 */
async function checkExport(
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
      if (zip) checkPlaces(zip, line, record, people);
      batch.push({ line, comment: record });
      if (batch.length >= BATCH) await checkBatch(workspaceId);
    }
  }
  if (!plan) throw new ImportError('the file is empty');
  await checkBatch(plan.workspace.id);
  return plan;
}

/**
 * The zip's files of `comment` are in its project, and each image one the comment lists (the
 * zip says which comment an image is of, the file where in its thread: a reply of its own, a
 * verdict of its timeline, a person the file lists).
 */
function checkPlaces(zip: ExportZip, line: number, comment: ExportedComment, people: Set<string>) {
  const replies = new Set(comment.replies.map((reply) => reply.id));
  const events = new Set(comment.timeline.map((event) => event.id));
  const images = new Map((comment.images ?? []).map((image) => [image.id, image]));
  for (const picture of zip.byComment.get(comment.id) ?? []) {
    const refuse = (why: string) => {
      throw new ImportError(`${zip.label}: ${picture.name}: ${why} (line ${line})`);
    };
    if (picture.projectKey !== comment.projectKey)
      refuse(`comment ${comment.id} is of project "${comment.projectKey}" in the file`);
    if (picture.imageId === null) continue;
    const image = images.get(picture.imageId);
    if (!image) return refuse(`comment ${comment.id} lists no image ${picture.imageId}`);
    if (image.replyId !== null && !replies.has(image.replyId))
      refuse(`its reply ${image.replyId} is not the comment's`);
    if (image.eventId !== null && !events.has(image.eventId))
      refuse(`its verdict ${image.eventId} is not in the comment's timeline`);
    if (image.by && !people.has(image.by.id)) refuse(`its author ${image.by.id} is not listed before it`);
  }
  zip.matched.add(comment.id);
}

/**
 * The zip's files, once the file is checked: each of a comment the file holds, with an image
 * id of no other workspace, held to its upload's checks; and what they add within the storage
 * quota of the workspace (its own, if it is here already; else the server's).
 */
async function checkPictures(db: Kysely<Tables>, plan: ImportPlan, { zip, rules }: Pictures, progress: ImportProgress) {
  const defaultQuotaBytes = rules.storageQuotaBytes;
  const workspaceId = plan.workspace.id;
  for (const [commentId, pictures] of zip.byComment) {
    const [first] = pictures;
    if (!zip.matched.has(commentId) && first)
      throw new ImportError(`${zip.label}: ${first.name}: the file holds no comment ${commentId}`);
  }
  const all = [...zip.byComment.values()].flat();
  const imageIds = all.flatMap((picture) => (picture.imageId ? [picture.imageId] : []));
  const [foreign] = await foreignIds(db, 'images', workspaceId, imageIds);
  if (foreign) throw new ImportError(`${zip.label}: image ${foreign} belongs to another workspace on this server`);
  let adding = 0;
  let checked = 0;
  for (let at = 0; at < all.length; at += ROWS_PER_INSERT) {
    const page = all.slice(at, at + ROWS_PER_INSERT);
    const here = await picturesHere(db, workspaceId, page);
    for (const picture of page) {
      const { bytes } = await zip.storable(picture);
      if (!here.has(slotOf(picture))) adding += bytes.length;
      checked += 1;
      if (checked % 100 === 0) progress('pictures', checked);
    }
  }
  progress('pictures', checked);
  const here = await db.selectFrom('workspaces').select('id').where('id', '=', workspaceId).executeTakeFirst();
  const { usedBytes, quotaBytes } = here
    ? await storageOf(db, workspaceId, defaultQuotaBytes)
    : { usedBytes: 0, quotaBytes: defaultQuotaBytes };
  if (usedBytes + adding > quotaBytes) {
    throw new ImportError(
      `${zip.label}: its screenshots, images and replays take ${sizeText(adding)}, past the storage quota of the workspace (${sizeText(quotaBytes)}${usedBytes ? `, ${sizeText(usedBytes)} of it used` : ''}): raise the server's (SVC_STORAGE_QUOTA_MB), or import the file alone, give the workspace a quota of its own (set-storage-quota) and import both again`,
    );
  }
}

/** Where a picture goes: its comment's screenshot or replay, or its image. */
const slotOf = (picture: ZipPicture) => picture.imageId ?? `${picture.commentId}/${picture.kind}`;

/** The slots of `pictures` that hold a picture already in the workspace (the same import run before). */
async function picturesHere(db: Kysely<Tables>, workspaceId: string, pictures: ZipPicture[]): Promise<Set<string>> {
  const imageIds = pictures.flatMap((picture) => (picture.imageId ? [picture.imageId] : []));
  const commentIds = [...new Set(pictures.filter((picture) => !picture.imageId).map((picture) => picture.commentId))];
  const here = new Set<string>();
  if (imageIds.length) {
    const rows = await db
      .selectFrom('images')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', imageIds)
      .execute();
    for (const row of rows) here.add(row.id);
  }
  if (commentIds.length) {
    const rows = await db
      .selectFrom('attachments')
      .select(['comment_id', 'kind'])
      .where('workspace_id', '=', workspaceId)
      .where('comment_id', 'in', commentIds)
      .execute();
    for (const row of rows) here.add(`${row.comment_id}/${row.kind}`);
  }
  return here;
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

/** A batch of comments, each with its pictures from the zip (when there is one), in one transaction. */
async function writeComments(
  db: Kysely<Tables>,
  report: ImportReport,
  plan: ImportPlan,
  comments: ExportedComment[],
  pictures: Pictures | null,
) {
  await inTransaction(db, async (trx: Kysely<Tables>) => {
    await insertNewComments(trx, report, plan, comments);
    if (pictures) await writePictures(trx, report, comments, pictures);
  });
}

/** The comments of the batch that are not here yet, with their replies, timelines, labels and mentions. */
async function insertNewComments(
  trx: Kysely<Tables>,
  report: ImportReport,
  { projectIds, names }: ImportPlan,
  comments: ExportedComment[],
) {
  const workspaceId = report.workspace.id;
  // Texts come as written, by id (import-file.ts): stored with the names of the file's people.
  const named = (text: string) => replaceMentions(text, (id) => mentionToken({ id, name: names.get(id) ?? '' }));
  {
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
  }
}

/**
 * The batch's pictures from the zip, each in its place: a comment's screenshot and replay (one
 * each), its images with their ids, reply, verdict, commit and author as the file lists them.
 * One that is here already is left as it is (the same import run again adds nothing); an image
 * of a reply deleted since is not written. Held to the workspace's quota, as an upload is.
 */
async function writePictures(
  trx: Kysely<Tables>,
  report: ImportReport,
  comments: ExportedComment[],
  { zip, rules }: Pictures,
) {
  const workspaceId = report.workspace.id;
  const counts = report.pictures ?? { added: { screenshots: 0, images: 0, replays: 0 }, present: 0 };
  const replyIds = comments.flatMap((c) =>
    (c.images ?? []).flatMap((image) => (image.replyId && zip.byComment.has(c.id) ? [image.replyId] : [])),
  );
  const replies = new Set<string>();
  for (let at = 0; at < replyIds.length; at += ROWS_PER_INSERT) {
    const rows = await trx
      .selectFrom('replies')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', replyIds.slice(at, at + ROWS_PER_INSERT))
      .execute();
    for (const row of rows) replies.add(row.id);
  }
  let added = 0;
  for (const c of comments) {
    const images = new Map((c.images ?? []).map((image) => [image.id, image]));
    for (const picture of zip.byComment.get(c.id) ?? []) {
      const image = picture.imageId ? images.get(picture.imageId) : undefined;
      if (image?.replyId && !replies.has(image.replyId)) continue;
      const { bytes, contentType } = await zip.storable(picture);
      const stored = {
        workspace_id: workspaceId,
        comment_id: c.id,
        content_type: contentType,
        bytes,
        size: bytes.length,
      };
      const result = image
        ? await trx
            .insertInto('images')
            .values({
              ...stored,
              id: image.id,
              kind: image.kind,
              reply_id: image.replyId,
              event_id: image.eventId,
              commit_sha: image.commitSha,
              author_id: image.by?.id ?? null,
              created_at: image.createdAt,
            })
            .onConflict((oc) => oc.doNothing())
            .executeTakeFirst()
        : await trx
            .insertInto('attachments')
            .values({
              ...stored,
              id: newId('att'),
              kind: picture.kind === 'replay' ? 'replay' : 'screenshot',
              created_at: (picture.kind === 'replay' ? c.replay : c.screenshot)?.createdAt ?? c.createdAt,
            })
            .onConflict((oc) => oc.doNothing())
            .executeTakeFirst();
      if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) {
        counts.present += 1;
        continue;
      }
      added += bytes.length;
      counts.added[picture.kind === 'image' ? 'images' : picture.kind === 'replay' ? 'replays' : 'screenshots'] += 1;
    }
  }
  // Counted by the triggers as every upload is (migration 0025): refused past the quota, the batch rolled back.
  if (added) await holdToQuota(trx, { rules }, workspaceId, added);
}
