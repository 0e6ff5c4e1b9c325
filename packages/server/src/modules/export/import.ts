import readline from 'node:readline';
import type { CommentWithReplies, Project } from '@svc/contract';
import type { Insertable, Kysely } from 'kysely';
import type { Tables } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { remeasure } from '../comments/measures.js';
import { anchorColumns } from '../comments/presenter.js';

// An export (JSON Lines) brought into this server's database, with the ids it had: the way to
// move a workspace between servers, SQLite to PostgreSQL included. Each row is inserted unless
// one with its id is there already, so that running it twice adds nothing. Accounts come without
// passwords or links (an export holds none): admins make reset links or rotate client links.

/** Comments written per transaction. */
const BATCH = 200;

type ExportedComment = Omit<CommentWithReplies, 'can'> & { type: 'comment' };
type ExportedUser = {
  type: 'user';
  id: string;
  name: string;
  role: 'admin' | 'member' | 'client';
  email: string | null;
  /** A client account limited to this project (its key). */
  projectKey?: string | null;
  createdAt: string;
  removedAt?: string | null;
};

export interface ImportReport {
  workspace: { id: string; name: string };
  /** Rows written, and rows skipped because their id was there already. */
  added: { projects: number; users: number; comments: number; replies: number; events: number };
  present: { projects: number; users: number; comments: number };
  /** People imported without their e-mail, another account of this server having it. */
  withoutEmail: string[];
}

export class ImportError extends Error {}

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

/** Reads an export line by line and writes what it holds; `progress` hears of each batch. */
export async function importExport(
  db: Kysely<Tables>,
  input: NodeJS.ReadableStream,
  progress: (comments: number) => void = () => {},
): Promise<ImportReport> {
  const lines = readline.createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY });
  let report: ImportReport | null = null;
  const projectIds = new Map<string, string>();
  let batch: ExportedComment[] = [];
  let lineNumber = 0;
  let seen = 0;

  const flush = async () => {
    if (!report || batch.length === 0) return;
    const comments = batch;
    batch = [];
    await writeComments(db, report, projectIds, comments);
    seen += comments.length;
    progress(seen);
  };

  for await (const text of lines) {
    lineNumber += 1;
    if (!text.trim()) continue;
    let record: { type?: string; [key: string]: unknown };
    try {
      record = JSON.parse(text);
    } catch {
      throw new ImportError(`line ${lineNumber} is not JSON: is this a JSON Lines export (svc-cli export)?`);
    }
    if (!report) {
      if (record.type !== 'export' || record.format !== 1) {
        throw new ImportError('the first line is not the header of an export (format 1): export with svc-cli export');
      }
      const workspace = record.workspace as { id?: unknown; name?: unknown } | undefined;
      if (typeof workspace?.id !== 'string' || typeof workspace.name !== 'string') {
        throw new ImportError('the header names no workspace (its id and name)');
      }
      report = {
        workspace: { id: workspace.id, name: workspace.name },
        added: { projects: 0, users: 0, comments: 0, replies: 0, events: 0 },
        present: { projects: 0, users: 0, comments: 0 },
        withoutEmail: [],
      };
      await db
        .insertInto('workspaces')
        .values({ ...report.workspace, created_at: new Date().toISOString() })
        .onConflict((oc) => oc.doNothing())
        .execute();
      continue;
    }
    if (record.type === 'project') await writeProject(db, report, projectIds, record as unknown as Project);
    else if (record.type === 'user') await writeUser(db, report, projectIds, record as unknown as ExportedUser);
    else if (record.type === 'comment') {
      batch.push(record as unknown as ExportedComment);
      if (batch.length >= BATCH) await flush();
    } else throw new ImportError(`line ${lineNumber} has an unknown type "${String(record.type)}"`);
  }
  if (!report) throw new ImportError('the file is empty');
  await flush();
  return report;
}

async function writeProject(db: Kysely<Tables>, report: ImportReport, ids: Map<string, string>, project: Project) {
  ids.set(project.key, project.id);
  const result = await db
    .insertInto('projects')
    .values({
      id: project.id,
      workspace_id: report.workspace.id,
      key: project.key,
      name: project.name,
      repo_url: project.repoUrl,
      app_url: project.appUrl,
      allowed_origins: JSON.stringify(project.allowedOrigins),
      page_params: JSON.stringify(project.pageParams),
      created_at: project.createdAt,
    })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst();
  if (Number(result.numInsertedOrUpdatedRows ?? 0)) report.added.projects++;
  else report.present.projects++;
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
  // E-mails are unique on a server: one another account holds already stays with it.
  const taken = user.email
    ? await db.selectFrom('users').select('id').where('email', '=', user.email).executeTakeFirst()
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
      email: taken ? null : user.email,
      name: user.name,
      role: user.role,
      password_hash: null,
      access_token_hash: null,
      project_id: projectId,
      created_at: user.createdAt,
      removed_at: user.removedAt ?? (outsideTheFile ? new Date().toISOString() : null),
      last_sign_in_at: null,
    })
    .execute();
  report.added.users++;
}

async function writeComments(
  db: Kysely<Tables>,
  report: ImportReport,
  projectIds: Map<string, string>,
  comments: ExportedComment[],
) {
  const workspaceId = report.workspace.id;
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
      return {
        id: c.id,
        workspace_id: workspaceId,
        project_id: projectId,
        author_id: c.author.id,
        body: c.body,
        page_url: c.pageUrl,
        ...anchorColumns(c.anchor),
        repinned_at: c.repinned?.at ?? null,
        repinned_by_id: c.repinned?.by.id ?? null,
        status: c.status,
        commit_sha: c.commitSha,
        commit_url: c.commitUrl,
        applied_by_id: c.appliedBy?.id ?? null,
        applied_at: c.appliedAt,
        verified_at: c.verifiedAt,
        deployed_at: c.deployedAt,
        deployed_build_sha: c.deployedBuildSha,
        reply_count: c.replyCount,
        context: c.context ? JSON.stringify(c.context) : null,
        created_at: c.createdAt,
        updated_at: c.updatedAt,
      };
    });
    const [written] = await trx.insertInto('comments').values(rows).execute();
    report.added.comments += Number(written?.numInsertedOrUpdatedRows ?? 0);
    const replies = fresh.flatMap((c) =>
      c.replies.map((r) => ({
        id: r.id,
        workspace_id: workspaceId,
        comment_id: c.id,
        author_id: r.author?.id ?? null,
        kind: r.kind,
        body: r.body,
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
        note: e.note,
        derived: e.derived ? 1 : 0,
        created_at: e.at,
      })),
    );
    report.added.events += await insertAll(trx, 'comment_events', events);
    await remeasure(
      trx,
      workspaceId,
      fresh.map((c) => c.id),
    );
  });
}
