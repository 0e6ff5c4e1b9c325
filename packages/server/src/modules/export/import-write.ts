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
import { ImportError } from './import-error.js';
import {
  type ExportedComment,
  type ExportedLabel,
  type ExportedProject,
  type ExportedUser,
  noteWithMentions,
} from './import-file.js';
import { writePictures } from './import-pictures.js';
import { type ImportPlan, type ImportReport, type Pictures, ROWS_PER_INSERT } from './import-plan.js';

// The import's second reading of the file, once it is checked: each row written with the id the
// file gives it, and counted in the report as added, or as present when that id is here already.

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

export async function writeProject(db: Kysely<Tables>, report: ImportReport, project: ExportedProject) {
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

export async function writeLabel(db: Kysely<Tables>, report: ImportReport, label: ExportedLabel) {
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

export async function writeUser(
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
export async function writeComments(
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
