// Steps to reproduce a comment, without a model to guess them: a signed-in reviewer's widget
// keeps their last actions (what they pressed, in words; the routes they took; which field they
// typed in, never what) and the page's last requests (method, address without its query,
// status, duration). The widget sends them with a comment; the server reads the steps from
// them, the page's errors and the pin (`stepsToReproduce`) and keeps them with the comment;
// the console, the CLI and the agents' tools say them (`stepSentence`).
// Free of schema code (the schemas are in context.ts), so the clients' bundles stay small.
import type { Anchor } from './anchor.js';
import type { PageError, Step, TrailAction, TrailRequest } from './context.js';
import type { Translate } from './i18n.js';
import { STEP_WORDS_MAX, STEPS_MAX } from './rules.js';

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
  return name ? name.replace(/\s+/g, ' ').trim().slice(0, STEP_WORDS_MAX) || null : null;
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
  return timedSteps(source, anchor).map(({ step }) => step);
}

/** A step and when it happened (a repeated press: its first time); the pin's time is the comment's, not kept here. */
export interface TimedStep {
  step: Step;
  at: string | null;
}

/** `stepsToReproduce` with the time of each step: what lets a reader play a replay from one. */
export function timedSteps(source: StepsSource, anchor: Anchor | null): TimedStep[] {
  const timed: { at: string; order: number; step: Step }[] = [];
  const add = (at: string, step: Step) => timed.push({ at, order: timed.length, step });
  for (const action of source.actions ?? []) {
    const words = action.name?.replace(/\s+/g, ' ').trim().slice(0, STEP_WORDS_MAX) ?? '';
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
      const message = error.message.trim().slice(0, STEP_WORDS_MAX);
      if (message) add(error.at, { kind: 'error', message });
    }
  }
  timed.sort((a, b) => a.at.localeCompare(b.at) || a.order - b.order);
  const steps: TimedStep[] = [];
  for (const { at, step } of timed) {
    const last = steps[steps.length - 1]?.step;
    if (last && same(last, step)) {
      if (last.kind === 'pressed') last.times = (last.times ?? 1) + 1;
      continue;
    }
    steps.push({ step, at });
  }
  steps.push({ step: { kind: 'pinned', name: pinnedName(anchor) }, at: null });
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
