// What the widget captures with a new comment, so that whoever fixes it need not ask: the
// browser's situation and the page's recent errors. Never request or response bodies, never
// headers, never a query string of a failed request.
import { type Static, Type } from 'typebox';
import { Line, Nullable, Timestamp } from './common.js';
import {
  HIDDEN_REGIONS_MAX,
  MAX_PAGE_ERRORS,
  STEP_WORDS_MAX,
  STEPS_ACTIONS_MAX,
  STEPS_MAX,
  STEPS_REQUESTS_MAX,
} from './rules.js';

const Size = Type.Object({
  width: Type.Integer({ minimum: 0, maximum: 100_000 }),
  height: Type.Integer({ minimum: 0, maximum: 100_000 }),
});

export const PageError = Type.Object({
  kind: Type.Union(
    [Type.Literal('console'), Type.Literal('error'), Type.Literal('rejection'), Type.Literal('network')],
    {
      description: 'console.error, an uncaught error, an unhandled rejection, or a failed request',
    },
  ),
  message: Line({ maxLength: 500 }),
  at: Timestamp,
  method: Type.Optional(Line({ maxLength: 10 })),
  url: Type.Optional(Line({ maxLength: 2000, description: 'Network errors: the URL without its query string' })),
  status: Type.Optional(
    Nullable(Type.Integer({ minimum: 0, maximum: 999, description: 'Network errors: null when no answer came' })),
  ),
  durationMs: Type.Optional(Type.Integer({ minimum: 0, maximum: 3_600_000 })),
});
export type PageError = Static<typeof PageError>;

// Steps to reproduce (see steps.ts): what the widget keeps, and what the server reads from it.

const Path = Line({ maxLength: 2000, description: 'The address path (and a hash route), never its query' });

/** One action of the reviewer, as the widget keeps it. */
export const TrailAction = Type.Object(
  {
    kind: Type.Union([Type.Literal('open'), Type.Literal('navigate'), Type.Literal('press'), Type.Literal('type')], {
      description:
        'open: the page loaded; navigate: a route changed in the page (history or hash); press: a click; type: typing in a field',
    }),
    at: Timestamp,
    path: Type.Optional(Path),
    name: Type.Optional(
      Line({
        maxLength: STEP_WORDS_MAX,
        description: 'press: the accessible name of what was pressed; type: the label of the field (never its value)',
      }),
    ),
  },
  { additionalProperties: false },
);
export type TrailAction = Static<typeof TrailAction>;

/** One request of the page (the widget's own to its server left out). */
export const TrailRequest = Type.Object(
  {
    method: Line({ maxLength: 10 }),
    url: Line({ maxLength: 2000, description: 'Without its query string and fragment' }),
    status: Nullable(Type.Integer({ minimum: 0, maximum: 999, description: 'null: no answer came' })),
    durationMs: Type.Integer({ minimum: 0, maximum: 3_600_000 }),
    at: Timestamp,
  },
  { additionalProperties: false },
);
export type TrailRequest = Static<typeof TrailRequest>;

const Words = Line({ maxLength: STEP_WORDS_MAX });

/** One step to reproduce; `times` when it was done again at once (at least 2). */
export const Step = Type.Union([
  Type.Object({ kind: Type.Literal('opened'), path: Path }, { additionalProperties: false }),
  Type.Object(
    { kind: Type.Literal('pressed'), name: Words, times: Type.Optional(Type.Integer({ minimum: 2 })) },
    { additionalProperties: false },
  ),
  Type.Object({ kind: Type.Literal('typed'), field: Words }, { additionalProperties: false }),
  Type.Object(
    { kind: Type.Literal('error'), message: Line({ maxLength: STEP_WORDS_MAX }) },
    { additionalProperties: false },
  ),
  Type.Object(
    {
      kind: Type.Literal('requestFailed'),
      method: Line({ maxLength: 10 }),
      path: Path,
      status: Nullable(Type.Integer({ minimum: 0, maximum: 999 })),
    },
    { additionalProperties: false },
  ),
  Type.Object({ kind: Type.Literal('pinned'), name: Nullable(Words) }, { additionalProperties: false }),
]);
export type Step = Static<typeof Step>;

/** A box in the window, in CSS pixels. */
const WindowBox = (options: { description?: string } = {}) =>
  Type.Object(
    {
      x: Type.Number({ minimum: -100_000, maximum: 100_000 }),
      y: Type.Number({ minimum: -100_000, maximum: 100_000 }),
      width: Type.Number({ minimum: 0, maximum: 100_000 }),
      height: Type.Number({ minimum: 0, maximum: 100_000 }),
    },
    { additionalProperties: false, ...options },
  );

/** What the widget sends; the server adds the browser and OS it parses from the request. */
export const CaptureContext = Type.Object({
  viewport: Size,
  screen: Size,
  devicePixelRatio: Type.Number({ minimum: 0, maximum: 16 }),
  language: Line({ maxLength: 35 }),
  timeZone: Line({ maxLength: 64 }),
  colorScheme: Type.Union([Type.Literal('light'), Type.Literal('dark')]),
  title: Line({ maxLength: 300 }),
  url: Line({ maxLength: 2000, description: 'The full address with its query (the page identity is origin + path)' }),
  buildSha: Nullable(Line({ maxLength: 64, description: "The page's <html data-build-sha>" })),
  errors: Type.Array(PageError, { maxItems: MAX_PAGE_ERRORS }),
  actions: Type.Optional(
    Type.Array(TrailAction, {
      maxItems: STEPS_ACTIONS_MAX,
      description:
        "A signed-in reviewer's last actions, oldest first: what they pressed, the routes they took, the fields they typed in (never what)",
    }),
  ),
  requests: Type.Optional(
    Type.Array(TrailRequest, {
      maxItems: STEPS_REQUESTS_MAX,
      description: "The page's last requests while a reviewer was signed in, oldest first (the widget's own left out)",
    }),
  ),
  screenshotFollows: Type.Optional(
    Type.Boolean({ description: 'The widget is taking a screenshot and sends it right after the comment' }),
  ),
  pinnedBox: Type.Optional(
    WindowBox({
      description:
        'Where the pinned element was in the window when the screenshot was taken, in CSS pixels: the part of the screenshot that shows it',
    }),
  ),
  hidden: Type.Optional(
    Type.Object(
      {
        regions: Type.Array(WindowBox(), { minItems: 1, maxItems: HIDDEN_REGIONS_MAX }),
        scroll: Type.Object(
          {
            x: Type.Number({ minimum: -1_000_000, maximum: 1_000_000 }),
            y: Type.Number({ minimum: -1_000_000, maximum: 1_000_000 }),
          },
          {
            additionalProperties: false,
            description: 'How far the page was scrolled then: a region plus this is where it was in the page',
          },
        ),
      },
      {
        additionalProperties: false,
        description:
          'The regions the reviewer hid on the screenshot, in CSS pixels of the window when it was taken (as pinnedBox): painted over again, by the widget, in every later picture of the comment (its picture of now, its verdict’s) unless its author uncovers them for one',
      },
    ),
  ),
});
export type CaptureContext = Static<typeof CaptureContext>;

const Software = Nullable(Type.Object({ name: Type.String(), version: Nullable(Type.String()) }));

export const CommentContext = Type.Object({
  ...CaptureContext.properties,
  browser: Software,
  os: Software,
  steps: Type.Optional(
    Type.Array(Step, {
      maxItems: STEPS_MAX,
      description: 'The steps that led to the comment, read by the server from its actions, requests, errors and pin',
    }),
  ),
});
export type CommentContext = Static<typeof CommentContext>;

export const Screenshot = Type.Object({
  url: Type.String({ description: 'GET it with the same credentials as the comment; private' }),
  contentType: Type.String(),
  bytes: Type.Integer(),
  createdAt: Timestamp,
});
export type Screenshot = Static<typeof Screenshot>;

/** The replay of the moments before a comment (its project's setting), as stored: rrweb's events as JSON, gzipped. */
export const Replay = Type.Object({
  url: Type.String({ description: 'GET it with the same credentials as the comment; private; application/gzip' }),
  bytes: Type.Integer({ description: 'as stored, compressed' }),
  createdAt: Timestamp,
});
export type Replay = Static<typeof Replay>;

/**
 * An image of a comment's thread: attached by someone (to the comment, or to one of its
 * replies), or the element as it was when its author gave a verdict (`after`, kept with that
 * timeline event), or as their widget saw it last while the fix waits for that verdict (`now`).
 * Stored without metadata (location, camera, time).
 */
export const CommentImage = Type.Object({
  id: Type.String(),
  kind: Type.Union([Type.Literal('attachment'), Type.Literal('after'), Type.Literal('now')], {
    description:
      'attachment: sent by someone; after: the element when its author gave a verdict; now: the element as its author’s widget saw it last while the fix waits for their verdict (one at most)',
  }),
  url: Type.String({ description: 'GET it with the same credentials as the comment; private' }),
  contentType: Type.String(),
  bytes: Type.Integer(),
  replyId: Type.Union([Type.String(), Type.Null()], { description: 'The reply it belongs to; null: the comment' }),
  eventId: Type.Union([Type.String(), Type.Null()], { description: 'after: the verdict’s timeline event' }),
  commitSha: Type.Union([Type.String(), Type.Null()], {
    description: 'now: the commit of the fix it was taken for (null: applied without one, or another kind)',
  }),
  by: Type.Union([Type.Object({ id: Type.String(), name: Type.String() }), Type.Null()]),
  createdAt: Timestamp,
});
export type CommentImage = Static<typeof CommentImage>;
