// What the page shows now of the pinned element, as its anchor described it: whether an element
// looks as it did and holds what it held, how many look so or show its text now against how
// many did when it was pinned. The questions the resolver's rules ask (resolve.ts, told-apart.ts).
import type { Anchor } from '@svc/contract';
import { lastingClass, lookOf, nested } from './features.js';
import type { RootIndex } from './root-index.js';
import { type Scored, score } from './score.js';

/** The first element each of the anchor's selectors finds. */
export const bySelectorsOf = (index: RootIndex, anchor: Anchor) =>
  [anchor.selector, ...(anchor.selectors ?? [])].flatMap((selector) => index.first(selector) ?? []);

/** `el` as `ranked` scored it, or else scored in full now (the quick ranking left it out). */
export const inFull = (index: RootIndex, anchor: Anchor, ranked: Scored[], el: Element) =>
  ranked.find((scored) => scored.element === el) ?? score(index, anchor, el, true);

/** What the pinned element looked like (see `lookOf`). */
export const pinnedLook = (anchor: Anchor) =>
  lookOf(anchor.tag ?? '', anchor.text?.exact ?? '', anchor.classes ?? [], anchor.attributes ?? {});

/** Whether `el` holds what the pinned element held, when it had no text (see `contentOf`; an anchor of an earlier release does not say). */
export const holdsAsPinned = (index: RootIndex, anchor: Anchor, el: Element) =>
  anchor.content === undefined || index.contentOf(el) === anchor.content;

/**
 * Whether `el` holds something else than the pinned element held, where others of its kind
 * were told from it by what they hold (a swatch of another colour; not a lone toggle whose icon
 * changed with its state).
 */
export const holdsOtherThanItsKind = (index: RootIndex, anchor: Anchor, el: Element) =>
  (anchor.kin ?? 0) > 1 && !holdsAsPinned(index, anchor, el);

/** Whether `el` looks as the pinned element did, and holds what it held. */
export const looksAsPinned = (index: RootIndex, anchor: Anchor, el: Element) =>
  index.lookOf(el) === pinnedLook(anchor) && holdsAsPinned(index, anchor, el);

/** The elements that look as the pinned element did, and hold what it held, in the page's order. */
export const lookingAsPinned = (index: RootIndex, anchor: Anchor) =>
  index
    .lookingLike(anchor.tag ?? '', anchor.text?.exact ?? '', pinnedLook(anchor))
    .filter((el) => holdsAsPinned(index, anchor, el));

/**
 * Whether `el`, without text, is known by what it holds: it alone looks as the pinned element
 * did and holds what it held, as when it was pinned (nothing else looked like it then).
 */
export function knownByContent(index: RootIndex, anchor: Anchor, el: Element): boolean {
  if (!anchor.content || anchor.kin === undefined || anchor.alikes) return false;
  const [only, another] = lookingAsPinned(index, anchor);
  return only === el && !another;
}

/** As many elements look as the pinned one did as when it was pinned (an anchor that counted them). */
export const asManyLookAlike = (index: RootIndex, anchor: Anchor) =>
  anchor.kin !== undefined && lookingAsPinned(index, anchor).length === (anchor.alikes ?? 0) + 1;

/** As many elements show the pinned text as when it was pinned (always, for an element without text). */
export function asManyShowItsText(index: RootIndex, anchor: Anchor): boolean {
  const text = anchor.text?.exact;
  return !text || index.showing(text) === anchor.textCount;
}

/** Fewer elements of the pinned element's tag and classes than when it was pinned (`kin`). */
export const fewerOfKind = (index: RootIndex, anchor: Anchor) =>
  anchor.kin !== undefined && index.ofKindCount(anchor.tag ?? '', anchor.classes ?? []) < anchor.kin;

/** Whether an element around or inside `scored`, of the same `found`, is more itself (its tag, classes, attributes). */
export const outdone = (scored: Scored, found: Scored[]) =>
  found.some((other) => other !== scored && nested(other.element, scored.element) && other.own > scored.own);

/**
 * Whether `el`, of the pinned element's tag, has lost every lasting class it had (a build
 * dropped its only class): it may be the pinned element, where another element (an icon beside
 * it) has classes of its own.
 */
export function lostItsClasses(index: RootIndex, anchor: Anchor, el: Element): boolean {
  const f = index.featuresOf(el);
  return f.tag === anchor.tag && f.classes.length === 0 && Boolean(anchor.classes?.some(lastingClass));
}
