// Twins: elements alike in every way, with the same text around them (their parent's), as a
// row's "Edit" link beside every other row's. What tells the pinned one from its twins is
// recorded when it is pinned (describe.ts: its rank, and the hints of twin-hints/) and read
// back when the page changed (resolve.ts), its rank last: a reordered list keeps how many
// there are, not their order. Which elements are its twins is read with the rest of it (reading.ts).
import type { Anchor } from '@svc/contract';
import type { Masking } from '../mask.js';
import type { RootIndex } from './root-index.js';
import type { Quote, TwinHint, TwinHintFields } from './twin-hints/hint.js';
import { byItem } from './twin-hints/item.js';
import { byQuote, sidesOf } from './twin-hints/quote.js';
import { bySelector } from './twin-hints/selector.js';
import { byShape } from './twin-hints/shape.js';

/**
 * What tells the pinned one from its twins, in the order it is read back: the item around it
 * whose text was its own (its table row, its card), the shape around it that none of them had
 * (a comment with a reply), a selector that finds it alone, the text on a side of it that was
 * its own. Its rank among them comes last.
 */
export const TWIN_HINTS: readonly TwinHint[] = [byItem, byShape, bySelector, byQuote];

/**
 * The pinned element of its twins, as many as then: the one in the item whose text told it
 * from them (its table row, its card); else the one with the shape around it that none of
 * them had (a comment with a reply); else the one a selector of the pin finds alone within
 * what holds no other twin (an accordion by its id, moved with its items; a table's footer);
 * else the one with the pinned text just before and after it, where that was its own among
 * them (their items reordered, each with its title); else the one at its rank.
 */
export function ofTwins(index: RootIndex, anchor: Anchor, twins: Element[]): Element | undefined {
  const ranked = twins[anchor.twinsBefore ?? 0];
  const pinned = anchor.text;
  // Where its selector still points and the text on both its sides, of its item and the shape
  // around it are as they were, the one at its rank: the page did not change around it (the
  // common case, read quickly).
  if (
    ranked &&
    pinned &&
    index.first(anchor.selector) === ranked &&
    TWIN_HINTS.every((hint) => hint.fits?.(index, anchor, ranked) ?? true)
  ) {
    const { before, after } = sidesOf(index, ranked, pinned);
    if (before && after) return ranked;
  }
  for (const hint of TWIN_HINTS) {
    const told = hint.tell(index, anchor, twins);
    if (told) return told;
  }
  return ranked;
}

/** What tells the pinned element `el` from its `twins`, each hint's part of its anchor, read by `masking` (see `TwinHint.record`). */
export const twinHintsOf = (el: Element, twins: Element[], quote: Quote, masking: Masking): TwinHintFields =>
  Object.assign({}, ...TWIN_HINTS.map((hint) => hint.record?.(el, twins, quote, masking)));
