import { type Static, Type } from 'typebox';
import { Role } from './accounts.js';
import { Nullable, PageQuery, Text, Timestamp } from './common.js';

export const CommentStatus = Type.Union([Type.Literal('open'), Type.Literal('applied'), Type.Literal('archived')]);
export type CommentStatus = Static<typeof CommentStatus>;

export const Anchor = Type.Object({
  selector: Type.String({ minLength: 1, maxLength: 1000, description: 'CSS selector of the pinned element' }),
  x: Type.Number({ description: 'Click offset within the element, in CSS pixels' }),
  y: Type.Number(),
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
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

export const Comment = Type.Object(commentFields);
export type Comment = Static<typeof Comment>;

export const CommentWithReplies = Type.Object({ ...commentFields, replies: Type.Array(Reply) });
export type CommentWithReplies = Static<typeof CommentWithReplies>;

export const CreateCommentBody = Type.Object({
  body: Text(10_000),
  pageUrl: Type.String({ minLength: 1, maxLength: 2000, description: 'http(s) URL of the page' }),
  anchor: Type.Optional(Nullable(Anchor)),
});
export type CreateCommentBody = Static<typeof CreateCommentBody>;

export const ListCommentsQuery = Type.Object({
  status: Type.Optional(CommentStatus),
  pageUrl: Type.Optional(Type.String({ maxLength: 2000 })),
  ...PageQuery,
});
export type ListCommentsQuery = Static<typeof ListCommentsQuery>;

export const ReplyBody = Type.Object({ body: Text(10_000) });

export const ApplyBody = Type.Object({
  commitSha: Type.Optional(Type.String({ maxLength: 64, description: '7-40 hex characters; trimmed, lowercased' })),
  commitUrl: Type.Optional(Type.String({ maxLength: 2000, description: 'http(s) link to the commit' })),
});
export type ApplyBody = Static<typeof ApplyBody>;

export const CommentIdParams = Type.Object({ id: Type.String({ maxLength: 100 }) });

export const VERIFY_NOTE_MAX = 500;

export const VerifyBody = Type.Object({
  ok: Type.Boolean({ description: 'true: the fix works; false: it does not, and the comment reopens' }),
  note: Type.Optional(
    Type.String({
      description: `Required when ok is false: 1-${VERIFY_NOTE_MAX} characters once trimmed. Ignored when ok is true.`,
    }),
  ),
});
export type VerifyBody = Static<typeof VerifyBody>;
