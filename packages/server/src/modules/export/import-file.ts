import { createHash } from 'node:crypto';
import {
  BodyText,
  COMMENT_BODY_MAX,
  Comment,
  compactMentions,
  LABEL_COLORS,
  Line,
  Multiline,
  Name,
  Nullable,
  ReplaySettings,
  TIMELINE_KINDS,
  TIMELINE_VIAS,
  Timestamp,
} from '@svc/contract';
import { type Static, type TSchema, Type } from 'typebox';
import { fieldErrors } from '../../http/problem.js';
import { compileBodyValidator } from '../../http/validation.js';
import { ImportError } from './import-error.js';
import { linesOf } from './import-lines.js';

// What an export file may hold, line by line, as strictly as the API takes the same things:
// every field typed and bounded (a comment's body as a comment's, an anchor as a pin's), ids
// with their prefix. An import reads the file once to check all of it, then again to write.

const id = (prefix: string) => Type.String({ pattern: `^${prefix}_[0-9A-Za-z]{1,60}$` });
// A name by the contract's rule for names, up to the length the file format has always taken.
const ImportedName = Name(200);
const Person = Type.Object({ id: id('usr'), name: Type.String({ maxLength: 200 }) });
const Role = Type.Union([Type.Literal('admin'), Type.Literal('member'), Type.Literal('client')]);
const Sha = Type.String({ pattern: '^[0-9a-f]{7,40}$' });
const Url = Line({ maxLength: 2000 });

export const ExportHeader = Type.Object({
  type: Type.Literal('export'),
  format: Type.Literal(1),
  workspace: Type.Object({ id: id('ws'), name: ImportedName }),
});

export const ExportedProject = Type.Object({
  type: Type.Literal('project'),
  id: id('prj'),
  key: Type.String({ pattern: '^[a-z0-9-]{2,40}$' }),
  name: ImportedName,
  repoUrl: Nullable(Line({ maxLength: 500 })),
  appUrl: Type.Optional(Nullable(Line({ maxLength: 500 }))),
  allowedOrigins: Type.Array(Line({ maxLength: 300 }), { maxItems: 50 }),
  pageParams: Type.Optional(Type.Array(Line({ maxLength: 100 }), { maxItems: 50 })),
  /** Absent from an export of a release before replays: off. */
  replay: Type.Optional(ReplaySettings),
  createdAt: Timestamp,
});
export type ExportedProject = Static<typeof ExportedProject>;

export const ExportedLabel = Type.Object({
  type: Type.Literal('label'),
  id: id('lbl'),
  name: Name(40),
  color: Type.Enum(LABEL_COLORS),
});
export type ExportedLabel = Static<typeof ExportedLabel>;

/** A label as a comment names it: its id (the file lists the label itself before). */
const ExportedLabelRef = Type.Object({ id: id('lbl') });

export const ExportedUser = Type.Object({
  type: Type.Literal('user'),
  id: id('usr'),
  name: ImportedName,
  role: Role,
  email: Nullable(Line({ maxLength: 254, format: 'email' })),
  /** A client account limited to this project (its key). */
  projectKey: Type.Optional(Nullable(Type.String({ maxLength: 40 }))),
  createdAt: Timestamp,
  removedAt: Type.Optional(Nullable(Timestamp)),
  /** An agent's account (it acts through API keys, which an export never holds). */
  agent: Type.Optional(Type.Boolean()),
});
export type ExportedUser = Static<typeof ExportedUser>;

const ExportedReply = Type.Object({
  id: id('rpl'),
  commentId: id('cmt'),
  author: Nullable(Type.Object({ id: id('usr'), name: Type.String({ maxLength: 200 }), role: Role })),
  kind: Type.Union([Type.Literal('user'), Type.Literal('system')]),
  body: BodyText(COMMENT_BODY_MAX + 100),
  createdAt: Timestamp,
});

const ExportedEvent = Type.Object({
  id: id('evt'),
  kind: Type.Enum(TIMELINE_KINDS),
  at: Timestamp,
  by: Nullable(Person),
  via: Nullable(Type.Enum(TIMELINE_VIAS)),
  commitSha: Nullable(Sha),
  buildSha: Nullable(Sha),
  note: Nullable(Multiline({ maxLength: COMMENT_BODY_MAX + 100 })),
  assignee: Type.Optional(Nullable(Person)),
  derived: Type.Boolean(),
});

/** What the API's comment says that no import reads: what the exporter could do, and what is counted or drawn again. */
const PRESENTED_ONLY = ['can', 'pin', 'mentions', 'imageCount'] as const;

/**
 * An image of the thread as the comment lists it: where it belongs (the comment, a reply, a
 * verdict's event, the commit of a picture of now) and who sent it and when; its bytes come
 * from the export's zip (`<project key>/<comment id>/<image id>.<ext>`), which cannot say this.
 */
const ExportedImage = Type.Object({
  id: id('img'),
  kind: Type.Union([Type.Literal('attachment'), Type.Literal('after'), Type.Literal('now')]),
  replyId: Nullable(id('rpl')),
  eventId: Nullable(id('evt')),
  commitSha: Nullable(Sha),
  by: Nullable(Person),
  createdAt: Timestamp,
});
export type ExportedImage = Static<typeof ExportedImage>;

/** A screenshot's or replay's date as the comment gives it; its bytes, too, come from the zip. */
const ExportedAttachment = Nullable(Type.Object({ createdAt: Timestamp }));

/** The fields every export has held: each one added since is optional, so that an older export still imports. */
const FIRST_FIELDS = [
  'id',
  'projectKey',
  'body',
  'pageUrl',
  'anchor',
  'status',
  'author',
  'commitSha',
  'commitUrl',
  'appliedBy',
  'appliedAt',
  'verifiedAt',
  'deployedAt',
  'deployedBuildSha',
  'replyCount',
  'createdAt',
  'updatedAt',
] as const;

const storedFields = Type.Omit(Comment, PRESENTED_ONLY);

/**
 * A comment as the file holds it: the API's comment (the contract's schema, so that a field
 * added there is exported and imported without a word here), held to the file's stricter rules
 * where it has them (ids with their prefix, SHAs, a body's length as written, labels by id).
 */
export const ExportedComment = Type.Object({
  type: Type.Literal('comment'),
  ...Type.Pick(storedFields, FIRST_FIELDS).properties,
  ...Type.Partial(Type.Omit(storedFields, FIRST_FIELDS)).properties,
  id: id('cmt'),
  projectKey: Type.String({ maxLength: 40 }),
  body: BodyText(COMMENT_BODY_MAX),
  pageUrl: Url,
  author: Type.Object({ id: id('usr'), name: Type.String({ maxLength: 200 }), role: Role }),
  commitSha: Nullable(Sha),
  commitUrl: Nullable(Url),
  appliedBy: Nullable(Person),
  deployedBuildSha: Nullable(Sha),
  replyCount: Type.Integer({ minimum: 0, maximum: 1_000_000 }),
  repinned: Type.Optional(Nullable(Type.Object({ at: Timestamp, by: Person }))),
  assignee: Type.Optional(Nullable(Person)),
  labels: Type.Optional(Type.Array(ExportedLabelRef, { maxItems: 20 })),
  replies: Type.Array(ExportedReply, { maxItems: 100_000 }),
  timeline: Type.Array(ExportedEvent, { maxItems: 100_000 }),
  screenshot: Type.Optional(ExportedAttachment),
  replay: Type.Optional(ExportedAttachment),
  images: Type.Optional(Type.Array(ExportedImage, { maxItems: 100_000 })),
});
export type ExportedComment = Static<typeof ExportedComment>;

export type ExportRecord =
  | { type: 'export'; workspace: { id: string; name: string } }
  | ExportedProject
  | ExportedLabel
  | ExportedUser
  | ExportedComment;

const validators: Record<string, (value: unknown) => string | null> = {};
function checker(schema: TSchema) {
  const validate = compileBodyValidator(schema);
  return (value: unknown) => {
    if (validate(value)) return null;
    const [error] = fieldErrors(validate.errors ?? []);
    return error ? `${error.path || '(the line)'} ${error.message}` : 'is not valid';
  };
}
const check = (type: 'export' | 'project' | 'label' | 'user' | 'comment', value: unknown) => {
  validators[type] ??= checker(
    {
      export: ExportHeader,
      project: ExportedProject,
      label: ExportedLabel,
      user: ExportedUser,
      comment: ExportedComment,
    }[type],
  );
  return validators[type](value);
};

/**
 * A comment's texts as written, each mention by id alone (`compactMentions`), before they are
 * checked: their limits are the API's, on texts as written, and the names a file's mentions
 * carry are never read (the import writes the names of the people the file lists). A file
 * exported before exports wrote texts so holds mentions with names; the note of a verdict
 * "Not fixed" is the one note of a timeline that holds mentions.
 */
function writeTextsByIds(record: { [key: string]: unknown }) {
  const written = (text: unknown) => (typeof text === 'string' ? compactMentions(text) : text);
  record.body = written(record.body);
  const each = (list: unknown, change: (item: { [key: string]: unknown }) => void) => {
    if (Array.isArray(list))
      for (const item of list)
        if (item !== null && typeof item === 'object') change(item as { [key: string]: unknown });
  };
  each(record.replies, (reply) => {
    reply.body = written(reply.body);
  });
  each(record.timeline, (event) => {
    if (event.kind === 'not_fixed') event.note = written(event.note);
  });
}

/** The note of a timeline event that holds mentions (a verdict "Not fixed"'s), or nothing. */
export const noteWithMentions = (event: { kind: string; note: string | null }) =>
  event.kind === 'not_fixed' ? (event.note ?? '') : '';

/** The digest of the header that names the workspace: the same file, run again, has the same one. */
export const headerDigest = (header: unknown) => createHash('sha256').update(JSON.stringify(header)).digest('hex');

/**
 * The file's records, each parsed and checked against its type's schema, with its line number:
 * the first line the header, then projects, labels, people and comments. A line that is not JSON, not
 * of a known type, or not valid, is an ImportError naming it.
 */
export async function* readExport(
  input: NodeJS.ReadableStream,
): AsyncGenerator<{ line: number; record: ExportRecord; digest: string }> {
  let line = 0;
  let digest = '';
  for await (const text of linesOf(input)) {
    line += 1;
    if (!text.trim()) continue;
    let record: { type?: unknown; [key: string]: unknown };
    try {
      record = JSON.parse(text);
    } catch {
      throw new ImportError(`line ${line} is not JSON: is this a JSON Lines export (svc-cli export)?`);
    }
    if (record === null || typeof record !== 'object' || Array.isArray(record)) {
      throw new ImportError(`line ${line} is not an object`);
    }
    if (!digest) {
      if (record.type !== 'export' || record.format !== 1) {
        throw new ImportError('the first line is not the header of an export (format 1): export with svc-cli export');
      }
      const fault = check('export', record);
      if (fault) throw new ImportError(`line ${line}: the header names no workspace (its id and name): ${fault}`);
      digest = headerDigest(record);
    } else {
      const type = record.type;
      if (type !== 'project' && type !== 'label' && type !== 'user' && type !== 'comment') {
        throw new ImportError(`line ${line} has an unknown type "${String(type)}"`);
      }
      if (type === 'comment') writeTextsByIds(record);
      const fault = check(type, record);
      if (fault)
        throw new ImportError(
          `line ${line} (${type}${typeof record.id === 'string' ? ` ${record.id}` : ''}): ${fault}`,
        );
    }
    yield { line, record: record as ExportRecord, digest };
  }
  if (!digest) throw new ImportError('the file is empty');
}
