// Between the replay's player (a chunk of its own) and the Steps to reproduce (in the page's
// first load): the player says, once it plays, which stretch of time its recording holds and how
// to play from a moment; a step that happened within it offers to play from there.

import { signal } from '@preact/signals';
import type { Step } from '@svc/contract';
import { timedSteps } from '@svc/contract/steps';
import type { Comment } from './model.js';

/** A replay being played: the time its recording starts (epoch ms), its length, its pin's time, and how to play from a moment. */
export interface ShownReplay {
  start: number;
  length: number;
  /** The pin's time (epoch ms), null when the recording holds none. */
  pinnedAt: number | null;
  /** Plays from `ms` after the start, and brings the player into view with the focus on its controls. */
  playFrom: (ms: number) => void;
}

/** The replay of the comment shown, while its player plays it (one comment page at a time). */
export const shownReplay = signal<ShownReplay | null>(null);

/** A time in the replay, as its player shows it: "1:05". */
export const clock = (ms: number) => {
  const seconds = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
};

/** A moment is played from a little before it, so that what happened then is seen happening. */
export const LEAD_IN_MS = 1000;

/**
 * When each of the comment's steps happened (epoch ms; null when not known): read again from what
 * its widget sent, as the server read its steps. Steps read by an earlier rule than this one's
 * match nothing, and get no time (nor a way to play from them).
 */
export function stepTimes(comment: Pick<Comment, 'context' | 'anchor'>): (number | null)[] {
  const context = comment.context;
  const steps = context?.steps ?? [];
  if (!context?.actions) return steps.map(() => null);
  const timed = timedSteps(context, comment.anchor);
  // The pin is left out of the comparison: it names the element pinned now (it may have moved), and its time is the replay's.
  const said = (list: readonly Step[]) => JSON.stringify(list.filter((step) => step.kind !== 'pinned'));
  if (timed.length !== steps.length || said(timed.map(({ step }) => step)) !== said(steps))
    return steps.map(() => null);
  return timed.map(({ at }) => (at === null ? null : Date.parse(at)));
}

/** Where a step's time falls in the replay shown (ms from its start), null when outside it; the pin at the replay's pin. */
export function momentIn(replay: ShownReplay, step: Step, at: number | null): number | null {
  const time = step.kind === 'pinned' ? replay.pinnedAt : at;
  if (time === null || Number.isNaN(time)) return null;
  const moment = time - replay.start;
  return moment >= 0 && moment <= replay.length ? moment : null;
}
