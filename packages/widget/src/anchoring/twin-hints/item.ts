// The item around a twin whose text was its own (its table row with its number, its card with
// its title, a code sample): it moves with the pinned element where the twins' order changed.
import type { Anchor } from '@svc/contract';
import { CONTEXT_MAX, type TextReader, textReaderOf } from '../features.js';
import type { RootIndex } from '../root-index.js';
import { TWINS_READ_MAX, type TwinHint } from './hint.js';

/** How far above an element the one around it that tells it from its twins is looked for. */
const ITEM_UP_MAX = 8;

/** The element `up` levels above `el`, if any. */
function above(el: Element, up: number): Element | null {
  let around: Element | null = el;
  for (let level = 0; level < up && around; level += 1) around = around.parentElement;
  return around;
}

/** The start of the text of the element `up` levels above `el` ('' when there is none): the anchor's `twinsByItem`. */
function itemText(el: Element, up: number, read: TextReader): string {
  const around = above(el, up);
  return around ? read(around).slice(0, CONTEXT_MAX) : '';
}

/**
 * The closest element around `el` whose text is its own among the elements as far above its
 * twins: when it holds some of them too, with how many and how many of those come before `el`.
 */
function itemOf(el: Element, twins: Element[], read: TextReader): Anchor['twinsByItem'] {
  if (!twins.length || twins.length > TWINS_READ_MAX) return undefined;
  let around = el.parentElement;
  for (let up = 1; up <= ITEM_UP_MAX && around; up += 1, around = around.parentElement) {
    const holder = around;
    const inside = twins.filter((twin) => holder.contains(twin));
    // Holding them all, it tells none apart.
    if (inside.length === twins.length) return undefined;
    const text = itemText(el, up, read);
    if (!text || twins.some((twin) => !holder.contains(twin) && itemText(twin, up, read) === text)) continue;
    if (!inside.length) return { up, text };
    const before = inside.filter((twin) => twin.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
    return { up, text, holds: inside.length + 1, before: before.length };
  }
  return undefined;
}

const inItem = (index: RootIndex, anchor: Anchor, twin: Element) => {
  const item = anchor.twinsByItem;
  return !item || itemText(twin, item.up, index.textOf) === item.text;
};

export const byItem: TwinHint = {
  record: (el, twins, _quote, masking) => ({ twinsByItem: itemOf(el, twins, textReaderOf(masking)) }),
  fits: inItem,
  // The one twin in the item whose text told it from theirs; or, where that item held some of
  // them too, the one at its rank there, while it holds as many.
  tell(index, anchor, twins) {
    const item = anchor.twinsByItem;
    if (!item) return undefined;
    const held = twins.filter((twin) => inItem(index, anchor, twin));
    const holders = new Set(held.map((twin) => above(twin, item.up)));
    return (holders.size === 1 && held.length === (item.holds ?? 1) && held[item.before ?? 0]) || undefined;
  },
};
