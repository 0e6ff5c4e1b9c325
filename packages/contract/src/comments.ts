// A comment as the API answers it: its status and stage, what the caller may do with it, its
// replies and its timeline, and the people it may mention.
import { type Static, Type } from 'typebox';
import { Role } from './accounts.js';
import { Anchor } from './anchor.js';
import { Day, Nullable, Timestamp } from './common.js';
import { CommentContext, CommentImage, Replay, Screenshot } from './context.js';
import { Label } from './labels.js';
import { PRIORITIES } from './rules.js';

export type Priority = (typeof PRIORITIES)[number];

export const CommentStatus = Type.Union([Type.Literal('open'), Type.Literal('applied'), Type.Literal('archived')]);
export type CommentStatus = Static<typeof CommentStatus>;

/** Where a comment stands in its lifecycle as the board's columns show it: an applied one is completed, Live, or verified. */
export const CommentStage = Type.Union(
  [
    Type.Literal('open'),
    Type.Literal('completed'),
    Type.Literal('live'),
    Type.Literal('verified'),
    Type.Literal('archived'),
  ],
  { description: 'open; completed (applied, its build not Live yet); live; verified; archived' },
);
export type CommentStage = Static<typeof CommentStage>;

/** A move of a comment to another stage that the caller may make now, and the action that makes it. */
const CommentMove = Type.Object({
  to: CommentStage,
  by: Type.Union([Type.Literal('apply'), Type.Literal('reopen'), Type.Literal('verify'), Type.Literal('archive')], {
    description: 'The action that moves it: apply (without a commit: Live at once), reopen, verify (ok), archive',
  }),
});
export type CommentMove = Static<typeof CommentMove>;

const Person = Type.Object({ id: Type.String(), name: Type.String() });

/** Who is on a comment: a person of the team, or an agent (an account that acts through its API keys). */
export const Assignee = Type.Object({
  id: Type.String(),
  name: Type.String(),
  agent: Type.Boolean({ description: 'An agent (a coding agent, a CI job), not a person' }),
});
export type Assignee = Static<typeof Assignee>;

export const Priority = Type.Enum(PRIORITIES, { description: 'none, low, medium, high or urgent' });

export const CommentAbilities = Type.Object(
  {
    apply: Type.Boolean(),
    verify: Type.Boolean(),
    reopen: Type.Boolean(),
    archive: Type.Boolean(),
    delete: Type.Boolean(),
    reply: Type.Boolean(),
    repin: Type.Boolean({ description: 'Move its pin to another element' }),
    attachScreenshot: Type.Boolean(),
    assign: Type.Boolean({ description: 'Put someone of the team (or an agent) on it, or nobody' }),
    claim: Type.Boolean({ description: 'Take it yourself: open, and nobody else on it' }),
    triage: Type.Boolean({ description: 'Set its priority, labels and due date' }),
    attachImage: Type.Boolean({ description: 'Attach images to the comment itself' }),
    sendNow: Type.Boolean({
      description: 'Send the picture of now: the element as the widget sees it while the fix waits for its verdict',
    }),
    moves: Type.Array(CommentMove, {
      description: 'The stages the caller may move it to now (a board), each with its action',
    }),
  },
  { description: 'What the caller may do with this comment now: clients show these actions and no others' },
);
export type CommentAbilities = Static<typeof CommentAbilities>;
const Author = Type.Object({ id: Type.String(), name: Type.String(), role: Role });

/** Whom a text mentions: a client shows each `@` and name of them as a mention, the rest as typed. */
const Mentioned = Type.Array(Type.Object({ id: Type.String(), name: Type.String() }), {
  description: 'The people its text mentions, each once, in order: the text reads `@` and each name',
});

export const ReplyAbilities = Type.Object(
  { attachImage: Type.Boolean({ description: 'Attach images to this reply: its author' }) },
  { description: 'What the caller may do with this reply' },
);
export type ReplyAbilities = Static<typeof ReplyAbilities>;

export const Reply = Type.Object({
  id: Type.String(),
  commentId: Type.String(),
  author: Nullable(Author),
  kind: Type.Union([Type.Literal('user'), Type.Literal('system')]),
  body: Type.String(),
  mentions: Mentioned,
  can: ReplyAbilities,
  createdAt: Timestamp,
});
export type Reply = Static<typeof Reply>;

const commentFields = {
  id: Type.String(),
  projectKey: Type.String(),
  body: Type.String(),
  mentions: Mentioned,
  pageUrl: Type.String(),
  anchor: Nullable(Anchor),
  pin: Nullable(
    Type.Integer({
      minimum: 1,
      description:
        'The number on its pin in the widget: its place by age among the comments of its page pinned to an element and not archived. Null when it is pinned to no element, or archived',
    }),
  ),
  status: CommentStatus,
  stage: CommentStage,
  author: Author,
  commitSha: Nullable(Type.String()),
  commitUrl: Nullable(Type.String()),
  appliedBy: Nullable(Person),
  appliedAt: Nullable(Timestamp),
  verifiedAt: Nullable(Timestamp),
  deployedAt: Nullable(Timestamp),
  deployedBuildSha: Nullable(Type.String()),
  replyCount: Type.Integer(),
  imageCount: Type.Integer({
    minimum: 0,
    description: 'How many images people attached to it and to its replies (pictures of now and after aside)',
  }),
  assignee: Nullable(Assignee, { description: 'Who is on it; null: nobody yet' }),
  assignedAt: Nullable(Timestamp),
  priority: Priority,
  dueOn: Nullable(Day, {
    description:
      'The day the team means to have it fixed by; null: none. Overdue when the day is past and it is still open',
  }),
  labels: Type.Array(Label, { description: "The workspace's labels put on it, by name" }),
  repinned: Nullable(
    Type.Object(
      { at: Timestamp, by: Person },
      { description: 'The last time someone moved its pin to another element, and who' },
    ),
  ),
  context: Nullable(CommentContext),
  screenshot: Nullable(Screenshot),
  replay: Nullable(Replay, {
    description: "The moments before it on the reviewer's page, replayable; null: none sent",
  }),
  can: CommentAbilities,
  createdAt: Timestamp,
  updatedAt: Timestamp,
};

export const Comment = Type.Object(commentFields);
export type Comment = Static<typeof Comment>;

/** What happened to a comment, one kind per change (see the README's timeline). */
export const TIMELINE_KINDS = [
  'created',
  'replied',
  'applied',
  'reapplied',
  'live',
  'verified',
  'not_fixed',
  'reopened',
  'archived',
  'repinned',
  'screenshot_added',
  'assigned',
  'prioritized',
  'labeled',
  'due_set',
] as const;
export type TimelineKind = (typeof TIMELINE_KINDS)[number];

/** How the one who acted reached the server: signed in, with an API key, or through an MCP agent. */
export const TIMELINE_VIAS = ['person', 'api_key', 'mcp'] as const;

export const TimelineEvent = Type.Object({
  id: Type.String(),
  kind: Type.Enum(TIMELINE_KINDS),
  at: Timestamp,
  by: Type.Union([Person, Type.Null()], {
    description: 'Who acted; null when nobody did (a build report of no one) or they have since been removed',
  }),
  via: Nullable(Type.Enum(TIMELINE_VIAS)),
  commitSha: Nullable(Type.String({ description: 'applied, reapplied, verified, not_fixed: the commit' })),
  buildSha: Nullable(Type.String({ description: 'live: the build that shipped it' })),
  note: Nullable(
    Type.String({
      description:
        'not_fixed: the note; replied: the start of the reply; prioritized: the priority set; labeled: the labels it has now, by name, one a line; due_set: the due date set (YYYY-MM-DD), null when it was cleared',
    }),
  ),
  assignee: Type.Optional(
    Nullable(Assignee, { description: 'assigned: who was put on it (null: nobody, it was unassigned)' }),
  ),
  derived: Type.Boolean({
    description: 'Reconstructed at an upgrade from what the comment recorded then, not written as it happened',
  }),
});
export type TimelineEvent = Static<typeof TimelineEvent>;

export const CommentWithReplies = Type.Object({
  ...commentFields,
  replies: Type.Array(Reply),
  images: Type.Array(CommentImage, { description: 'Its images and its replies’, oldest first' }),
  timeline: Type.Array(TimelineEvent, { description: 'What happened to it, oldest first' }),
});
export type CommentWithReplies = Static<typeof CommentWithReplies>;
/** Someone a comment of the project may mention: who can read it. */
export const MentionablePerson = Type.Object({
  id: Type.String(),
  name: Type.String(),
  role: Role,
  agent: Type.Boolean({ description: 'An agent of the team (an account that acts through its API keys)' }),
});
export type MentionablePerson = Static<typeof MentionablePerson>;

export const MentionablePeople = Type.Object({
  items: Type.Array(MentionablePerson, {
    description: 'By name; the team, its agents, and clients who can see the project',
  }),
});
