// What a client sends about a comment: a new comment, a reply, a verdict, its pin, who is on it,
// its priority, due date and labels, an image; texts that may mention people follow one rule.
import { type Static, Type } from 'typebox';
import { Anchor } from './anchor.js';
import { Priority } from './comments.js';
import { Day, Line, MULTILINE_PATTERN, Nullable } from './common.js';
import { CaptureContext } from './context.js';
import { COMMENT_BODY_MAX, VERIFY_NOTE_MAX } from './rules.js';

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
