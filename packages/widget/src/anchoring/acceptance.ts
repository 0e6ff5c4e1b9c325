// Whether the best candidate is the pinned element: the rules it must pass, in order, each
// named by the refusal it gives (refusals.ts). A rule may instead name another element: the
// pinned one, found changed in its place among its look-alikes. A new rule is one more entry
// in `ACCEPTANCE`.
import type { Anchor } from '@svc/contract';
import { nested } from './features.js';
import {
  asManyLookAlike,
  asManyShowItsText,
  fewerOfKind,
  holdsOtherThanItsKind,
  lookingAsPinned,
  looksAsPinned,
} from './pinned-look.js';
import type { Refusal } from './refusals.js';
import type { RootIndex } from './root-index.js';
import type { Scored } from './score.js';
import {
  ACCEPT,
  ACCEPT_BY_TEXT,
  AROUND_FOR_CHANGED,
  AROUND_MARGIN,
  AROUND_MIN,
  IDENTITY,
  KEPT_IDENTITY,
  MARGIN,
  PLACE_MARGIN,
  RIVAL_IDENTITY,
  SIDES_FOR_CHANGED,
} from './thresholds.js';
import { changedAlike, type TwinOrder } from './told-apart.js';

/** The best candidate, and what it was chosen among. */
export interface Taking {
  index: RootIndex;
  anchor: Anchor;
  /** The candidate taken: of twins, the one their order names. */
  best: Scored;
  /** The candidates that may be it, best first. */
  ranked: Scored[];
  /** How `best` was told from its twins. */
  told: TwinOrder;
}

/** A rule's verdict: passed (undefined), refused, or another element (the pinned one, changed). */
export type Verdict = undefined | { refusal: Refusal } | { changed: Scored };

type Rule = (taking: Taking) => Verdict;

const refuse = (refusal: Refusal, refused: boolean): Verdict => (refused ? { refusal } : undefined);

/** Enough of the description agrees; or the element's own text, exactly, with little else. */
const enoughAgrees: Rule = ({ best }) =>
  refuse('weak', best.score < ACCEPT && !(best.identity >= KEPT_IDENTITY && best.score >= ACCEPT_BY_TEXT));

/**
 * Its text or name changed, and one of its kind is gone: a neighbour may have taken the place of
 * the pinned element, removed.
 */
const noneOfItsKindGone: Rule = ({ index, anchor, best }) =>
  refuse('fewer-of-kind', best.identity < KEPT_IDENTITY && fewerOfKind(index, anchor));

/**
 * It shows the pinned text, and fewer elements do so than when it was pinned: this may be
 * another like it, the pinned one gone.
 */
function fewerShowing({ index, anchor, best }: Taking): boolean {
  const text = anchor.text?.exact;
  return Boolean(
    text && anchor.textCount && index.featuresOf(best.element).text === text && index.showing(text) < anchor.textCount,
  );
}

/**
 * Where it does not look as the pinned one did, while fewer show its text and fewer look so,
 * the pinned one is gone, whatever the text around this one: it always differed (a plan's
 * greyed-out feature, the same feature of the plan beside gone).
 */
const notGone: Rule = (taking) => {
  const { index, anchor, best } = taking;
  return refuse(
    'gone',
    fewerShowing(taking) &&
      anchor.kin !== undefined &&
      !looksAsPinned(index, anchor, best.element) &&
      lookingAsPinned(index, anchor).length < (anchor.alikes ?? 0) + 1,
  );
};

/**
 * It shows the pinned text, or looks as the pinned element did (an image, a field: no text to
 * count), and fewer elements do so than when it was pinned: what is around it must mostly
 * agree; or the pinned one changed (its text edited, a class), and stands in its place among
 * them.
 */
const asManyAlikeOrSupported: Rule = (taking) => {
  const { index, anchor, best, ranked } = taking;
  if (best.around >= AROUND_MIN) return undefined;
  const fewerAlike =
    anchor.alikes !== undefined &&
    looksAsPinned(index, anchor, best.element) &&
    lookingAsPinned(index, anchor).length < anchor.alikes + 1;
  if (!fewerShowing(taking) && !fewerAlike) return undefined;
  const changed = changedAlike(index, anchor, ranked);
  return changed ? { changed } : { refusal: 'fewer-alike' };
};

/**
 * Its text or name changed, or it has none; or it holds something else where others of its kind
 * were told from it by what they hold (a swatch of another colour, not an icon swapped with its
 * state): then the text around it must say it is the one, on both sides (a neighbour of a
 * removed element agrees on one side at most).
 */
const changeSupported: Rule = ({ index, anchor, best }) => {
  const changed = best.identity < KEPT_IDENTITY || holdsOtherThanItsKind(index, anchor, best.element);
  return refuse('changed-unsupported', changed && (best.around < AROUND_FOR_CHANGED || best.sides < SIDES_FOR_CHANGED));
};

/**
 * The best rival: elsewhere on the page (not inside the best, nor around it), and carrying the
 * identity nearly as well (an exact text is not rivalled by a similar one). Where the best
 * shows the pinned text and as many show it as when it was pinned, only another that carries it
 * as well is a rival: its neighbours' texts, alike but for a word, are not. Where the best looks
 * as the pinned element did, and as many look so as when it was pinned, what looks otherwise is
 * no rival: the pinned one did not change.
 */
export function rivalOf({ index, anchor, best, ranked, told }: Taking): Scored | undefined {
  const text = anchor.text?.exact;
  const textKept =
    best.identity >= KEPT_IDENTITY &&
    text !== undefined &&
    index.featuresOf(best.element).text === text &&
    asManyShowItsText(index, anchor);
  const rivalIdentity = textKept ? KEPT_IDENTITY : Math.max(IDENTITY, best.identity - RIVAL_IDENTITY);
  const lookKept = looksAsPinned(index, anchor, best.element) && asManyLookAlike(index, anchor);
  return ranked.find(
    (other) =>
      other !== best &&
      !told.twins.includes(other.element) &&
      !nested(other.element, best.element) &&
      other.identity >= rivalIdentity &&
      !(lookKept && !looksAsPinned(index, anchor, other.element)),
  );
}

/**
 * Clearly ahead of its rival. A rival as much itself as the best is told apart by the text
 * around them, not by the score, which their places sway (a copy inserted before an element
 * takes its place); their places decide only while the page has as many look-alikes as when it
 * was pinned; or the text around them: the best's is the pinned one, the rival's is not.
 */
const aheadOfRivals: Rule = (taking) => {
  const { index, anchor, best, told } = taking;
  const rival = rivalOf(taking);
  const alike = rival && rival.own >= best.own - 0.05 && rival.identity >= best.identity - 0.05;
  if (alike) {
    const byText = best.around - rival.around >= AROUND_MARGIN;
    const byPlace = Boolean(anchor.twins) && best.place - rival.place >= PLACE_MARGIN;
    const byParent = told.asPinned && index.parentTextOf(rival.element) !== anchor.context?.parent;
    return refuse('alike-rival', !byText && !byPlace && !byParent);
  }
  return refuse('rival', best.score - (rival?.score ?? 0) < MARGIN);
};

/** The rules the best candidate must pass, in order. */
export const ACCEPTANCE: readonly Rule[] = [
  enoughAgrees,
  noneOfItsKindGone,
  notGone,
  asManyAlikeOrSupported,
  changeSupported,
  aheadOfRivals,
];
