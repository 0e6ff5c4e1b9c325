// Steps to reproduce a comment, without a model to guess them: a signed-in reviewer's widget
// keeps their last actions (what they pressed, in words; the routes they took; which field they
// typed in, never what) and the page's last requests (method, address without its query,
// status, duration). The widget sends them with a comment; the server reads the steps from
// them, the page's errors and the pin (`stepsToReproduce`) and keeps them with the comment;
// the console, the CLI and the agents' tools say them (`stepSentence`).
import { type Static, Type } from 'typebox';
import type { Anchor } from './anchor.js';
import { Line, Nullable, Timestamp } from './common.js';
import type { PageError } from './context.js';
import type { Translate } from './i18n.js';
import { STEPS_MAX } from './rules.js';

/** The longest words of a step (a button's name, a field's label); longer ones are cut. */
const WORDS_MAX = 200;
/** An error's message in a step is cut here. */
const ERROR_WORDS_MAX = 200;

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
        maxLength: WORDS_MAX,
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

const Words = Line({ maxLength: WORDS_MAX });

/** One step to reproduce; `times` when it was done again at once (at least 2). */
export const Step = Type.Union([
  Type.Object({ kind: Type.Literal('opened'), path: Path }, { additionalProperties: false }),
  Type.Object(
    { kind: Type.Literal('pressed'), name: Words, times: Type.Optional(Type.Integer({ minimum: 2 })) },
    { additionalProperties: false },
  ),
  Type.Object({ kind: Type.Literal('typed'), field: Words }, { additionalProperties: false }),
  Type.Object(
    { kind: Type.Literal('error'), message: Line({ maxLength: ERROR_WORDS_MAX }) },
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

/** What the steps are read from: what the widget sent with the comment, and its pin. */
export interface StepsSource {
  actions?: readonly TrailAction[];
  requests?: readonly TrailRequest[];
  errors: readonly PageError[];
}

/** A request that did not succeed: no answer, or an error status. */
const failed = (request: { status: number | null }) => request.status === null || request.status >= 400;

/** An address without its origin: the path is what a reader follows. */
function pathOf(url: string): string {
  const origin = /^[a-z][a-z\d+.-]*:\/\/[^/]*/i.exec(url)?.[0];
  return (origin ? url.slice(origin.length) : url) || '/';
}

/** The words that name the pinned element, as the page shows them (none: the page itself, or an element without words). */
function pinnedName(anchor: Anchor | null): string | null {
  const name =
    anchor &&
    (anchor.name || anchor.label || anchor.attributes?.ariaLabel || anchor.attributes?.alt || anchor.text?.exact);
  return name ? name.replace(/\s+/g, ' ').trim().slice(0, WORDS_MAX) || null : null;
}

/** Two steps that say the same: the second adds nothing but a count. */
const same = (a: Step, b: Step) => JSON.stringify({ ...a, times: 0 }) === JSON.stringify({ ...b, times: 0 });

/**
 * The steps that led to a comment, in the order they happened: pages opened and routes taken,
 * what was pressed (by its name), which fields were typed in, the errors and failed requests
 * (its successful requests are noise here), and the pin last. A step repeated at once is said
 * once (a press with how many times); a click on nothing named, and a route taken again to the
 * same path (a replaceState), are left out. The last `STEPS_MAX` are kept.
 */
export function stepsToReproduce(source: StepsSource, anchor: Anchor | null): Step[] {
  const timed: { at: string; order: number; step: Step }[] = [];
  const add = (at: string, step: Step) => timed.push({ at, order: timed.length, step });
  for (const action of source.actions ?? []) {
    const words = action.name?.replace(/\s+/g, ' ').trim().slice(0, WORDS_MAX) ?? '';
    if (action.kind === 'open' || action.kind === 'navigate')
      add(action.at, { kind: 'opened', path: action.path || '/' });
    else if (action.kind === 'press' && words) add(action.at, { kind: 'pressed', name: words });
    else if (action.kind === 'type') add(action.at, { kind: 'typed', field: words });
  }
  const requests = source.requests ?? [];
  for (const request of requests.filter(failed)) {
    add(request.at, {
      kind: 'requestFailed',
      method: request.method,
      path: pathOf(request.url).slice(0, 2000),
      status: request.status,
    });
  }
  for (const error of source.errors) {
    // A failed request is said once: from the request log when the widget kept one.
    if (error.kind === 'network') {
      if (requests.length || !error.url) continue;
      add(error.at, {
        kind: 'requestFailed',
        method: error.method ?? 'GET',
        path: pathOf(error.url),
        status: error.status ?? null,
      });
    } else {
      const message = error.message.trim().slice(0, ERROR_WORDS_MAX);
      if (message) add(error.at, { kind: 'error', message });
    }
  }
  timed.sort((a, b) => a.at.localeCompare(b.at) || a.order - b.order);
  const steps: Step[] = [];
  for (const { step } of timed) {
    const last = steps[steps.length - 1];
    if (last && same(last, step)) {
      if (last.kind === 'pressed') last.times = (last.times ?? 1) + 1;
      continue;
    }
    steps.push(step);
  }
  steps.push({ kind: 'pinned', name: pinnedName(anchor) });
  return steps.slice(-STEPS_MAX);
}

/** A step as one sentence, in the words `t` gives (the shared vocabulary: `steps.*`). */
export function stepSentence(step: Step, t: Translate): string {
  switch (step.kind) {
    case 'opened':
      return t('steps.opened', { path: step.path });
    case 'pressed':
      return t('steps.pressed', { name: step.name, times: step.times ?? 1 });
    case 'typed':
      return step.field ? t('steps.typed', { field: step.field }) : t('steps.typedUnnamed');
    case 'error':
      return t('steps.error', { message: step.message });
    case 'requestFailed':
      return step.status === null
        ? t('steps.requestUnanswered', { method: step.method, path: step.path })
        : t('steps.requestFailed', { method: step.method, path: step.path, status: step.status });
    case 'pinned':
      return step.name ? t('steps.pinned', { name: step.name }) : t('steps.pinnedPage');
  }
}
