import { type Static, Type } from 'typebox';
import { Role } from './accounts.js';
import { Anchor } from './anchor.js';
import { Line, MULTILINE_PATTERN, Name, Nullable, PageQuery, Timestamp } from './common.js';
import { CaptureContext, CommentContext, CommentImage, Replay, Screenshot } from './context.js';
import { CHANGES_WAIT_MAX_S, COMMENT_BODY_MAX, LABEL_COLORS, PRIORITIES, VERIFY_NOTE_MAX } from './rules.js';

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

/**
 * A calendar day as written, `YYYY-MM-DD`: no time of day and no time zone, so that it is the
 * same day for everyone who reads it. A day that does not exist (2026-02-30) is refused.
 */
const dayOf = (description: string) =>
  Type.String({ format: 'date', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$', description, examples: ['2026-12-03'] });
export const Day = dayOf('A calendar day, YYYY-MM-DD');

export const Label = Type.Object({
  id: Type.String(),
  name: Type.String(),
  color: Type.Enum(LABEL_COLORS),
});
export type Label = Static<typeof Label>;

/** The assignee filter of the lists: `me`, `none`, or someone's id. */
const AssigneeFilter = Line({
  minLength: 1,
  maxLength: 100,
  description: 'me: assigned to you; none: assigned to nobody; else the id of a person or agent of the team',
});

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

/** How a text that holds mentions says so. */
const MENTIONS_RULE =
  'To mention someone who can read the comment (the people of `GET /api/projects/{key}/people`), write `<@` and their id and `>`: they are notified, and the text reads `@` and their name. A mention of anyone else is refused.';

/**
 * A text that may mention people: a comment's, a reply's, a verdict's note. Marked
 * `x-mentions` (for the OpenAPI document's readers and the generated test suites): every text
 * so marked is checked by the one rule of mentions, and no other text reads `<@…>` as one.
 */
const MentioningText = (description: string, minLength?: number) =>
  Type.String({
    ...(minLength === undefined ? {} : { minLength }),
    maxLength: COMMENT_BODY_MAX,
    pattern: MULTILINE_PATTERN,
    description: `${description} ${MENTIONS_RULE}`,
    'x-mentions': true,
  });

/** The text of a comment or a reply, with its mentions. */
const BodyWithMentions = MentioningText('The text, at most 10,000 characters as written (each mention by its id).', 1);

export const CreateCommentBody = Type.Object(
  {
    body: BodyWithMentions,
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

export const RepinBody = Type.Object(
  { anchor: Anchor },
  {
    description:
      'The element the comment is about from now on. Its status, replies and notifications stay as they are; nobody is notified.',
    examples: [{ anchor: { selector: '#plan-team > button', x: 12, y: 8, tag: 'button', name: 'Choose Team' } }],
  },
);
export type RepinBody = Static<typeof RepinBody>;

export const AssignBody = Type.Object(
  {
    assigneeId: Nullable(Line({ minLength: 1, maxLength: 100 }), {
      description: 'The id of a person (admin or member) or an agent of the workspace; null: nobody',
    }),
  },
  {
    description: 'Who is on the comment from now on. They are notified (not when they assign themselves).',
    examples: [{ assigneeId: 'usr_01J…' }, { assigneeId: null }],
  },
);
export type AssignBody = Static<typeof AssignBody>;

export const PriorityBody = Type.Object(
  { priority: Priority },
  { description: 'How urgent it is; nobody is notified', examples: [{ priority: 'high' }] },
);

export const CommentPatch = Type.Object(
  {
    dueOn: Type.Optional(
      Nullable(Day, { description: 'The day it should be fixed by (YYYY-MM-DD); null: no due date' }),
    ),
  },
  {
    description:
      'Changes the fields given, and no other (the team). Nobody is notified; its timeline records each change.',
    examples: [{ dueOn: '2026-12-03' }, { dueOn: null }],
  },
);
export type CommentPatch = Static<typeof CommentPatch>;

export const CommentLabelsBody = Type.Object(
  {
    labelIds: Type.Array(Line({ minLength: 1, maxLength: 100 }), {
      maxItems: 20,
      uniqueItems: true,
      description: "The workspace's labels it has from now on (an empty list: none)",
    }),
  },
  { examples: [{ labelIds: ['lbl_01J…'] }] },
);

export const CreateLabelBody = Type.Object(
  { name: Name(40), color: Type.Enum(LABEL_COLORS) },
  { examples: [{ name: 'Bug', color: 'red' }] },
);
export type CreateLabelBody = Static<typeof CreateLabelBody>;

export const UpdateLabelBody = Type.Object(
  { name: Type.Optional(Name(40)), color: Type.Optional(Type.Enum(LABEL_COLORS)) },
  { examples: [{ color: 'orange' }] },
);
export type UpdateLabelBody = Static<typeof UpdateLabelBody>;

export const ReplyBody = Type.Object(
  { body: BodyWithMentions },
  {
    examples: [{ body: 'Still wraps on Safari' }, { body: 'Still wraps on Safari, <@usr_01JD2W6Y1KQ9V8E0P4T3M5R7XA>' }],
  },
);

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
      MentioningText(
        `Required when ok is false: 1-${VERIFY_NOTE_MAX} characters once trimmed; the reply "Not fixed: <note>" and the timeline hold it. Ignored when ok is true.`,
      ),
    ),
    commitSha: Type.Optional(
      Line({
        maxLength: 64,
        description:
          'The commit the verdict is about, as the client showed it: 409 when the comment has been applied with another commit since',
      }),
    ),
  },
  { examples: [{ ok: false, note: 'Still wraps at 390 px' }] },
);
export type VerifyBody = Static<typeof VerifyBody>;

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

export const ImageQuery = Type.Object({
  reply: Type.Optional(
    Line({ maxLength: 100, description: 'The id of your reply it belongs to; absent: the comment' }),
  ),
  verdict: Type.Optional(
    Type.Boolean({
      description:
        'true: the element as you saw it when you gave your latest verdict on the comment (Verified or Not fixed), kept with that timeline event, once',
    }),
  ),
  now: Type.Optional(
    Type.Boolean({
      description:
        'true: the element as it is now on your page, taken by your widget while the fix waits for your verdict (applied or Live, not verified; 409 otherwise), from whoever may verify the comment. The comment keeps only the latest (a new one replaces the old, whose bytes are deleted), with the commit it was taken for; the team sees it beside the screenshot while the fix waits. A verdict keeps it as it is (the last look before the verdict, until a new fix waits and a new one replaces it); the verdict’s own picture is sent with `verdict`. Not with `reply` or `verdict` (400)',
    }),
  ),
});

export type ImageQuery = Static<typeof ImageQuery>;

export const CommentImageParams = Type.Object({ id: Line({ maxLength: 100 }), imageId: Line({ maxLength: 100 }) });
