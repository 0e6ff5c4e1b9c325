// The filters of the comment lists (a project's, every project's) and of the long poll of changes.
import { type Static, Type } from 'typebox';
import { Comment, CommentStatus, Priority } from './comments.js';
import { dayOf, Line, PageQuery } from './common.js';
import { CHANGES_WAIT_MAX_S } from './rules.js';

/** The assignee filter of the lists: `me`, `none`, or someone's id. */
const AssigneeFilter = Line({
  minLength: 1,
  maxLength: 100,
  description: 'me: assigned to you; none: assigned to nobody; else the id of a person or agent of the team',
});
const MentionsFilter = Type.Literal('me', { description: 'me: comments whose text or replies mention you' });

const LabelFilter = Line({ minLength: 1, maxLength: 100, description: 'The id of a label: comments that have it' });

/** The filters of a comment's own fields, the same in both lists. */
const fieldFilters = {
  assignee: Type.Optional(AssigneeFilter),
  priority: Type.Optional(Priority),
  label: Type.Optional(LabelFilter),
  mentions: Type.Optional(MentionsFilter),
  dueBy: Type.Optional(dayOf('Only comments due on or before this day (YYYY-MM-DD)')),
  overdue: Type.Optional(
    Type.Literal('true', { description: 'true: only open comments whose due date is past (before today, UTC)' }),
  ),
};

export const ListCommentsQuery = Type.Object({
  status: Type.Optional(CommentStatus),
  ...fieldFilters,
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
  ...fieldFilters,
  followed: Type.Optional(
    Type.Literal('me', {
      description: 'me: comments of the projects you follow (see PUT /api/projects/{key}/following)',
    }),
  ),
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
  sort: Type.Optional(
    Type.Union([Type.Literal('newest'), Type.Literal('oldest'), Type.Literal('priority'), Type.Literal('due')], {
      default: 'newest',
      description:
        'newest first, oldest first, priority: the most urgent first, the newest first within each; due: the soonest due first, those without a due date last, the newest first within each day',
    }),
  ),
  ...PageQuery,
});
export type FindCommentsQuery = Static<typeof FindCommentsQuery>;
export const CommentChangesQuery = Type.Object({
  project: Type.Optional(Line({ maxLength: 40, description: 'A project key; all visible projects when absent' })),
  assignee: Type.Optional(AssigneeFilter),
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
      maximum: CHANGES_WAIT_MAX_S,
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
