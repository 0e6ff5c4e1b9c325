import { replaceMentions, withoutNameControls } from '@svc/contract';
import { displayState } from '@svc/contract/vocabulary';
import { type Actor, scopeOf } from '../../actor.js';
import type { Db } from '../../db/schema.js';
import { listImagesOf } from '../comments/image-store.js';
import { presentCommentWithReplies } from '../comments/presenter.js';
import * as comments from '../comments/repo.js';
import { listTimelines } from '../comments/timeline.js';
import { listLabels } from '../labels/repo.js';
import { presentProject } from '../projects/presenter.js';

// A workspace's (or one project's) comments taken out, streamed: JSON Lines (one object a line,
// each with a `type`) or CSV (one row a comment). Comments are read a page at a time with their
// replies and timelines in one query each, so memory stays flat however many there are.

/**
 * Comments read per query: enough to keep round trips few, few enough that a page's work is
 * short where it shares the server's thread (a database in memory, which no export thread can
 * read): there, 500 a page held it up to 240 ms at a time while four exports ran, 100 about 50.
 */
const PAGE = 100;
/** Comments presented between two turns given to other work. */
const TURN = 20;

/** Lets the work that is waiting run before the export goes on (`setImmediate`: after pending I/O). */
const giveWay = () => new Promise((resolve) => setImmediate(resolve));

export type ExportFormat = 'jsonl' | 'csv';

/** An export to write: what a thread of its own is given (`export-thread.ts`). */
export interface ExportJob {
  format: ExportFormat;
  serverVersion: string;
  actor: Actor;
  /** One project, or every project of the workspace. */
  projectId: string | null;
}

type Source = Omit<ExportJob, 'format'> & { db: Db };

/** The export's text, a line (CSV: a row) at a time. */
export function exportLines(db: Db, job: ExportJob): AsyncGenerator<string> {
  const source = { db, ...job };
  return job.format === 'csv' ? csvLines(source) : jsonLines(source);
}

function groupBy<T>(rows: T[], key: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const list = groups.get(key(row));
    if (list) list.push(row);
    else groups.set(key(row), [row]);
  }
  return groups;
}

// An export imports, whatever the data holds (import-file.ts checks a file as the API checks
// a request): each text as written, its mentions by id (`compactMentions`), so that the names
// they show, grown by a rename, never push it past its limit; a mention of someone the file
// does not list as the text it shows (only a "Not fixed" note written before notes' mentions
// were checked holds one); each name without what the rule for names refuses (a name kept from
// before the rule), a label's made unique again should that make two alike.

/** A text with its mentions as written, by id; one of someone not among `people` as the text it shows. */
const writtenText = (text: string, people: ReadonlySet<string>) =>
  replaceMentions(text, (id, name) => (people.has(id) ? `<@${id}>` : `@${name || '…'}`));

/** A name as the rule for names takes it; `fallback` (an id) when nothing of it is left. */
const exportedName = (name: string, fallback: string) => withoutNameControls(name).trim() || fallback;

/** The labels' names as exported, each unique whatever its case (a number added to a twin). */
function uniqueLabelNames<T extends { id: string; name: string }>(labels: T[]): T[] {
  const taken = new Set<string>();
  return labels.map((label) => {
    const base = exportedName(label.name, label.id);
    let name = base;
    for (let n = 2; taken.has(name.toLowerCase()); n++) name = `${base.slice(0, 40 - ` (${n})`.length)} (${n})`;
    taken.add(name.toLowerCase());
    return { ...label, name };
  });
}

/**
 * Every comment of the source, oldest first, whole (replies, timeline, context), a page at a
 * time. `people`: texts as written, their mentions by id (see `writtenText`), for an import to
 * restore them; without it, as people read them.
 */
async function* wholeComments({ db, actor, projectId }: Source, people?: ReadonlySet<string>) {
  let after: string | undefined;
  for (;;) {
    const rows = await comments.listComments(db, scopeOf(actor), {
      projectId: projectId ?? undefined,
      oldestFirst: true,
      after,
      limit: PAGE,
    });
    if (rows.length === 0) return;
    const ids = rows.map((row) => row.id);
    const [replies, timelines, images] = await Promise.all([
      comments.listRepliesOf(db, actor.workspaceId, ids).then((rows) => groupBy(rows, (row) => row.comment_id)),
      listTimelines(db, actor.workspaceId, ids).then((rows) => groupBy(rows, (row) => row.comment_id)),
      listImagesOf(db, actor.workspaceId, ids).then((rows) => groupBy(rows, (row) => row.comment_id)),
    ]);
    for (const [index, row] of rows.entries()) {
      if (index > 0 && index % TURN === 0) await giveWay();
      const { can: _abilities, ...comment } = presentCommentWithReplies(
        row,
        replies.get(row.id) ?? [],
        timelines.get(row.id) ?? [],
        images.get(row.id) ?? [],
        actor,
      );
      if (people) {
        const stored = new Map((replies.get(row.id) ?? []).map((reply) => [reply.id, reply.body]));
        comment.body = writtenText(row.body, people);
        for (const reply of comment.replies) reply.body = writtenText(stored.get(reply.id) ?? reply.body, people);
        const notes = new Map((timelines.get(row.id) ?? []).map((event) => [event.id, event.note]));
        for (const event of comment.timeline) {
          const note = notes.get(event.id);
          if (event.kind === 'not_fixed' && note) event.note = writtenText(note, people);
        }
      }
      // What the exporter may do with each reply is no part of the thread.
      yield { ...comment, replies: comment.replies.map(({ can: _abilities, ...reply }) => reply) };
    }
    if (rows.length < PAGE) return;
    after = rows[rows.length - 1]?.id;
  }
}

/** JSON Lines: a header, the projects, the people named, then every comment whole. */
export async function* jsonLines(source: Source): AsyncGenerator<string> {
  const { db, actor, projectId, serverVersion } = source;
  const workspace = await db
    .selectFrom('workspaces')
    .select(['id', 'name'])
    .where('id', '=', actor.workspaceId)
    .executeTakeFirstOrThrow();
  yield line({
    type: 'export',
    format: 1,
    serverVersion,
    exportedAt: new Date().toISOString(),
    workspace: { ...workspace, name: exportedName(workspace.name, workspace.id) },
  });
  let projects = db.selectFrom('projects').selectAll().where('workspace_id', '=', actor.workspaceId);
  if (projectId) projects = projects.where('id', '=', projectId);
  for (const project of await projects.orderBy('id').execute())
    yield line({ type: 'project', ...presentProject(project), name: exportedName(project.name, project.id) });
  for (const label of uniqueLabelNames(await listLabels(db, actor.workspaceId)))
    yield line({ type: 'label', ...label });
  // Who the comments name, so that an import can say who wrote them: never a secret or a password.
  // A client account limited to a project says which, so that it stays limited where it goes.
  const people = await db
    .selectFrom('users')
    .leftJoin('projects', 'projects.id', 'users.project_id')
    .select([
      'users.id',
      'users.name',
      'users.role',
      'users.email',
      'projects.key as projectKey',
      'users.created_at as createdAt',
      'users.removed_at as removedAt',
      'users.kind',
    ])
    .where('users.workspace_id', '=', actor.workspaceId)
    .orderBy('users.id')
    .execute();
  for (const { kind, ...person } of people) {
    yield line({ type: 'user', ...person, name: exportedName(person.name, person.id), agent: kind === 'agent' });
  }
  const listed = new Set(people.map((person) => person.id));
  for await (const comment of wholeComments(source, listed)) yield line({ type: 'comment', ...comment });
}

const line = (value: unknown) => `${JSON.stringify(value)}\n`;

/** The CSV's columns, in order: one row per comment, as a spreadsheet would want it. */
const CSV_COLUMNS = [
  'id',
  'project',
  'state',
  'verified',
  'page_url',
  'element',
  'body',
  'author',
  'created_at',
  'commit_sha',
  'applied_by',
  'applied_at',
  'live_in_build',
  'live_at',
  'verified_at',
  'replies',
  'updated_at',
  'due_on',
] as const;

/**
 * A CSV field: quoted when it holds a comma, quote or line break; a text a spreadsheet would
 * run as a formula (starting with = + - @, tab or carriage return) gets a leading apostrophe.
 */
export function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  let text = String(value);
  if (typeof value === 'string' && /^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** CSV (RFC 4180, CRLF line ends, UTF-8 with a byte order mark so that spreadsheets read accents right). */
export async function* csvLines(source: Source): AsyncGenerator<string> {
  yield `\uFEFF${CSV_COLUMNS.join(',')}\r\n`;
  for await (const c of wholeComments(source)) {
    const cells = [
      c.id,
      c.projectKey,
      displayState(c),
      c.verifiedAt !== null,
      c.pageUrl,
      c.anchor?.selector ?? null,
      c.body,
      c.author.name,
      c.createdAt,
      c.commitSha,
      c.appliedBy?.name ?? null,
      c.appliedAt,
      c.deployedBuildSha,
      c.deployedAt,
      c.verifiedAt,
      c.replyCount,
      c.updatedAt,
      c.dueOn,
    ];
    yield `${cells.map(csvField).join(',')}\r\n`;
  }
}
