// Of look-alikes, which is the pinned element: twins told apart by their order and by the hints
// recorded of them (twins.ts), and the one that alone changed among them (its tag, a class, its
// text edited), found in its place among the others.
import type { Anchor } from '@svc/contract';
import { nested, ofKind } from './features.js';
import {
  asManyLookAlike,
  asManyShowItsText,
  fewerOfKind,
  holdsAsPinned,
  holdsOtherThanItsKind,
  inFull,
  lookingAsPinned,
  looksAsPinned,
  outdone,
} from './pinned-look.js';
import type { RootIndex } from './root-index.js';
import type { Scored } from './score.js';
import { inPageOrder, isDocument, type Root } from './selectors.js';
import { similarity } from './similarity.js';
import type { Steps } from './steps.js';
import { AROUND_FOR_CHANGED, BETWEEN_MAX, IDENTITY, SIDES_FOR_CHANGED } from './thresholds.js';
import { ofTwins } from './twins.js';

/** The element taken of a group of twins by their order (`twins`, in the page's order; none when there was no need). */
export interface TwinOrder {
  element: Element;
  twins: Element[];
  /** It looks as the pinned element did, with the pinned text around it, and as many do so as then. */
  asPinned?: boolean;
}

/**
 * Which of `el` and its twins is the pinned element, when they can be told apart as they
 * could when it was pinned; null when not. Twins (the same tag, text, classes and attributes
 * but the id, with the same text around them) differ only by their place, and their order in
 * the page tells them apart only as long as there are as many as when it was pinned: one
 * more (a copy inserted before it) or one fewer (one removed, perhaps the pinned one) and
 * nothing does. When `el` alone changed (elements still look as the pinned one did), the
 * rivalry rules decide.
 */
export function* toldApart(index: RootIndex, anchor: Anchor, el: Element): Steps<TwinOrder | null> {
  const asPinned = looksAsPinned(index, anchor, el);
  if (!asPinned) {
    // One element alone looks as the pinned one did, as when it was pinned: it is the pinned
    // one, unchanged; `el` another that changed, or always differed (a class more).
    const [only, another] = lookingAsPinned(index, anchor);
    if (only && !another && asManyLookAlike(index, anchor)) return { element: only, twins: [] };
    // Several do, as many as then, and as many show its text: the one at the pinned one's
    // rank among them (a card's "Dedicated support", not another card's greyed out).
    const byRank = another && asManyLookAlike(index, anchor) && byLookAlikes(index, anchor);
    if (byRank) return byRank;
    if (only) return { element: el, twins: [] };
  }
  // Where the text around `el` is not the pinned one (a line like the pinned one inserted
  // before it), the twins are those with the pinned look and the pinned text around them.
  const parent = anchor.context?.parent;
  const pinnedAround = asPinned && Boolean(parent) && index.parentTextOf(el) === parent;
  if (asPinned && parent && !pinnedAround) {
    const pinnedTwins = lookingAsPinned(index, anchor).filter((other) => index.parentTextOf(other) === parent);
    const element = pinnedTwins.length === (anchor.twins ?? 0) + 1 && ofTwins(index, anchor, pinnedTwins);
    if (element) return { element, twins: pinnedTwins.length > 1 ? pinnedTwins : [], asPinned: true };
  }
  // Its twins hold what the pinned one held; `el`, alone of its kind, may hold something else
  // now (an icon swapped with its state).
  const twins = (yield* index.indistinguishable(el)).filter(
    (twin) => holdsAsPinned(index, anchor, twin) || (twin === el && !holdsOtherThanItsKind(index, anchor, el)),
  );
  if (twins.length !== (anchor.twins ?? 0) + 1) return byLookAlikes(index, anchor);
  // An anchor of an earlier release does not say where it stood among them.
  if (anchor.twinsBefore === undefined || twins.length === 1) return { element: el, twins: [], asPinned: pinnedAround };
  const element = ofTwins(index, anchor, twins);
  return element ? { element, twins, asPinned: pinnedAround } : null;
}

/**
 * When the text around some twins changed (an item added beside one of them) but not how
 * many look as the pinned element did: all look-alikes, told apart by their order while they
 * are as many as when it was pinned and as many elements show its text.
 */
function byLookAlikes(index: RootIndex, anchor: Anchor): TwinOrder | null {
  if (anchor.alikes === undefined || anchor.alikesBefore === undefined) return null;
  const alikes = lookingAsPinned(index, anchor);
  if (alikes.length !== anchor.alikes + 1 || !asManyShowItsText(index, anchor)) return null;
  const element = alikes[anchor.alikesBefore];
  return element ? { element, twins: alikes } : null;
}

/**
 * The pinned element when it alone of its twins changed (its tag, a class): the best looks as
 * it did, one twin fewer looks so, as many elements show its text, and one candidate with its
 * text and the same text around it stands where the pinned element stood among them in the
 * page's order.
 */
export function* changedTwin(index: RootIndex, anchor: Anchor, best: Scored, ranked: Scored[]) {
  const text = index.featuresOf(best.element).text;
  // As many show its text as when it was pinned: none was removed.
  if (anchor.twins === undefined || anchor.twinsBefore === undefined || index.showing(text) !== anchor.textCount) {
    return undefined;
  }
  const twins = yield* index.indistinguishable(best.element);
  if (twins.length !== anchor.twins) return undefined;
  const parent = index.parentTextOf(best.element);
  // Looked for among all that show its text: with its twins ahead, the changed one may rank
  // below the finalists.
  const alike = [...new Set(index.textStarts.withTextStart(text))]
    .filter(
      (el) =>
        !twins.some((twin) => nested(twin, el)) &&
        index.featuresOf(el).text === text &&
        index.parentTextOf(el) === parent,
    )
    .map((el) => inFull(index, anchor, ranked, el));
  // Of an element and its wrapper with the same text (a list item), the one more itself.
  // And one that looks like none of the others: those that look alike among themselves (a
  // lead paragraph's copies beside the pinned one's) stood there when it was pinned.
  const looksAlone = (scored: Scored) =>
    !alike.some((other) => other !== scored && index.lookOf(other.element) === index.lookOf(scored.element));
  const changed = aloneIfMany(
    index,
    alike.filter((scored) => !outdone(scored, alike) && looksAlone(scored)),
  );
  const [only] = changed;
  if (!only || changed.length > 1) return undefined;
  const order = [...twins, only.element].sort(inPageOrder);
  return order.indexOf(only.element) === anchor.twinsBefore ? only : undefined;
}

/**
 * The pinned element when it alone of its look-alikes changed: one fewer looks as it did, and
 * in its place among them (after the look-alike that stood before it, before the one that
 * stood after it) one element is what it became. Either its text was edited (of its tag and
 * classes, a text like the pinned one, which one fewer element shows) or its tag or classes
 * changed (its text, shown by as many as before).
 */
export function changedAlike(index: RootIndex, anchor: Anchor, ranked: Scored[]): Scored | undefined {
  const before = anchor.alikesBefore;
  // Known only by what shows its text (an element without, or with a text too long to count, is not).
  const text = anchor.text?.exact;
  const count = anchor.textCount;
  if (anchor.alikes === undefined || before === undefined || !text || !count) return undefined;
  const alikes = lookingAsPinned(index, anchor);
  if (alikes.length !== anchor.alikes) return undefined;
  const showing = index.showing(text);
  // Edited, it is still of its kind: one fewer of its kind, and it may be gone.
  const edited = showing === count - 1;
  if (edited ? fewerOfKind(index, anchor) : showing !== count) return undefined;
  const classes = anchor.classes ?? [];
  const became = (el: Element) => {
    const f = index.featuresOf(el);
    const sameClasses = ofKind(classes, f.classes) && ofKind(f.classes, classes);
    if (edited) return f.tag === anchor.tag && sameClasses && f.text !== text && similarity(f.text, text) >= IDENTITY;
    // Its tag or its classes changed, not both.
    return f.text === text && (f.tag === anchor.tag) !== sameClasses;
  };
  const found = between(index.root, alikes[before - 1], alikes[before])
    .filter(became)
    .map((el) => inFull(index, anchor, ranked, el));
  // Of an element and its wrapper with the same text (a list item), the one more itself; and
  // what its surroundings, on both sides, support (not another of its kind further off, its
  // words alike: "$20.00" for "$50.00").
  const [only, another] = aloneIfMany(
    index,
    found
      .filter((scored) => !outdone(scored, found))
      .filter((scored) => scored.around >= AROUND_FOR_CHANGED && scored.sides >= SIDES_FOR_CHANGED),
  );
  return only && !another && only.identity >= IDENTITY ? only : undefined;
}

/**
 * The elements after `from` and before `to` in the page's order (neither inside nor around
 * them), up to `BETWEEN_MAX` of them from the one that is given.
 */
function between(root: Root, from: Element | undefined, to: Element | undefined): Element[] {
  const start = from ?? to;
  if (!start) return [];
  const walker = (isDocument(root) ? root : root.ownerDocument).createTreeWalker(root, NodeFilter.SHOW_ELEMENT);
  walker.currentNode = start;
  const found: Element[] = [];
  const step = () => (from ? walker.nextNode() : walker.previousNode()) as Element | null;
  for (let el = step(); el && el !== to && found.length < BETWEEN_MAX; el = step()) {
    if ((from && nested(el, from)) || (to && nested(el, to))) continue;
    found.push(el);
  }
  return found;
}

/**
 * Of several that may be what a changed element became, those that nothing else on the page
 * looks like: a list item like the others, around the link whose tag changed, stood there when
 * it was pinned.
 */
function aloneIfMany(index: RootIndex, found: Scored[]): Scored[] {
  if (found.length < 2) return found;
  return found.filter((scored) => {
    const f = index.featuresOf(scored.element);
    return index.lookingLike(f.tag, f.text, index.lookOf(scored.element)).length === 1;
  });
}
