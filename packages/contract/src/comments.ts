import { type Static, Type } from 'typebox';
import { Role } from './accounts.js';
import { BodyText, Line, Multiline, Nullable, Offset, PageQuery, Timestamp } from './common.js';
import { CaptureContext, CommentContext, Screenshot } from './context.js';
import { VERIFY_NOTE_MAX } from './rules.js';

export const CommentStatus = Type.Union([Type.Literal('open'), Type.Literal('applied'), Type.Literal('archived')]);
export type CommentStatus = Static<typeof CommentStatus>;

export const Anchor = Type.Object({
  selector: Line({ minLength: 1, maxLength: 1000, description: 'CSS selector of the pinned element' }),
  x: Offset('Click offset within the element, in CSS pixels (at most ±1,000,000)'),
  y: Offset(),
});
export type Anchor = Static<typeof Anchor>;

const Person = Type.Object({ id: Type.String(), name: Type.String() });
const Author = Type.Object({ id: Type.String(), name: Type.String(), role: Role });

export const Reply = Type.Object({
  id: Type.String(),
  commentId: Type.String(),
  author: Nullable(Author),
  kind: Type.Union([Type.Literal('user'), Type.Literal('system')]),
  body: Type.String(),
  createdAt: Timestamp,
});
export type Reply = Static<typeof Reply>;

const commentFields = {
  id: Type.String(),
  projectKey: Type.String(),
  body: Type.String(),
  pageUrl: Type.String(),
  anchor: Nullable(Anchor),
  status: CommentStatus,
  author: Author,
  commitSha: Nullable(Type.String()),
  commitUrl: Nullable(Type.String()),
  appliedBy: Nullable(Person),
  appliedAt: Nullable(Timestamp),
  verifiedAt: Nullable(Timestamp),
  deployedAt: Nullable(Timestamp),
  deployedBuildSha: Nullable(Type.String()),
  replyCount: Type.Integer(),
  context: Nullable(CommentContext),
  screenshot: Nullable(Screenshot),
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

export const Comment = Type.Object(commentFields);
export type Comment = Static<typeof Comment>;

export const CommentWithReplies = Type.Object({ ...commentFields, replies: Type.Array(Reply) });
export type CommentWithReplies = Static<typeof CommentWithReplies>;

export const CreateCommentBody = Type.Object(
  {
    body: BodyText(10_000),
    pageUrl: Line({ minLength: 1, maxLength: 2000, description: 'http(s) URL of the page' }),
    anchor: Type.Optional(Nullable(Anchor)),
    context: Type.Optional(CaptureContext),
  },
  {
    examples: [
      {
        body: 'The price wraps onto two lines on a phone',
        pageUrl: 'https://app.example.com/pricing',
        anchor: { selector: '#plan-team > p', x: 12, y: 8 },
      },
    ],
  },
);
export type CreateCommentBody = Static<typeof CreateCommentBody>;

export const ListCommentsQuery = Type.Object({
  status: Type.Optional(CommentStatus),
  pageUrl: Type.Optional(Line({ maxLength: 2000 })),
  ...PageQuery,
});
export type ListCommentsQuery = Static<typeof ListCommentsQuery>;

export const CommentStatusFilter = Type.Union(
  [
    Type.Literal('open'),
    Type.Literal('applied'),
    Type.Literal('live'),
    Type.Literal('verified'),
    Type.Literal('archived'),
  ],
  {
    description:
      'open; applied (fixed, Live or not); live (applied and deployed); verified (applied and confirmed by its author); archived',
  },
);

export type CommentStatusFilter = Static<typeof CommentStatusFilter>;

export const FindCommentsQuery = Type.Object({
  project: Type.Optional(Line({ maxLength: 40, description: 'A project key; all visible projects when absent' })),
  status: Type.Optional(CommentStatusFilter),
  author: Type.Optional(Line({ maxLength: 100, description: "The author's user id" })),
  pageUrl: Type.Optional(Line({ maxLength: 2000, description: 'Origin and path of the page, as comments store it' })),
  q: Type.Optional(
    Line({
      minLength: 1,
      maxLength: 200,
      description: 'Words that must all appear (whole words, any case) in the comment or one of its replies',
    }),
  ),
  updatedSince: Type.Optional(
    Type.String({ format: 'date-time', description: 'Only comments changed at or after this time' }),
  ),
  sort: Type.Optional(Type.Union([Type.Literal('newest'), Type.Literal('oldest')], { default: 'newest' })),
  ...PageQuery,
});
export type FindCommentsQuery = Static<typeof FindCommentsQuery>;

export const ReplyBody = Type.Object({ body: BodyText(10_000) }, { examples: [{ body: 'Still wraps on Safari' }] });

export const ApplyBody = Type.Object(
  {
    commitSha: Type.Optional(Line({ maxLength: 64, description: '7-40 hex characters; trimmed, lowercased' })),
    commitUrl: Type.Optional(Line({ maxLength: 2000, description: 'http(s) link to the commit' })),
  },
  { examples: [{ commitSha: '3abdb14' }] },
);
export type ApplyBody = Static<typeof ApplyBody>;

export const CommentIdParams = Type.Object({ id: Line({ maxLength: 100 }) });

export const VerifyBody = Type.Object(
  {
    ok: Type.Boolean({ description: 'true: the fix works; false: it does not, and the comment reopens' }),
    note: Type.Optional(
      Multiline({
        maxLength: 10_000,
        description: `Required when ok is false: 1-${VERIFY_NOTE_MAX} characters once trimmed. Ignored when ok is true.`,
      }),
    ),
  },
  { examples: [{ ok: false, note: 'Still wraps at 390 px' }] },
);
export type VerifyBody = Static<typeof VerifyBody>;

export const CommentChangesQuery = Type.Object({
  project: Type.Optional(Line({ maxLength: 40, description: 'A project key; all visible projects when absent' })),
  cursor: Type.Optional(
    Line({
      minLength: 1,
      maxLength: 200,
      description: 'From a previous answer; without it, the answer starts from now',
    }),
  ),
  wait: Type.Optional(
    Type.Integer({
      minimum: 0,
      maximum: 60,
      default: 0,
      description: 'Seconds to wait when nothing changed since the cursor: the answer comes as soon as something does',
    }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
});
export type CommentChangesQuery = Static<typeof CommentChangesQuery>;

export const CommentChanges = Type.Object({
  items: Type.Array(Comment, { description: 'Comments created or changed since the cursor, oldest change first' }),
  cursor: Type.String({ description: 'Pass it back to get what changes next' }),
});
