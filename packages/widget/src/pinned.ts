// The pinned comments of the page the widget is on, and their numbers, shared by the pins and
// the cards.
import type { Anchor } from '@svc/contract';
import type { Store } from './store.js';

/** The comments of this page pinned to an element (archived ones aside): their anchors, for the pins. */
export function anchorsOfPage(store: Store): Map<string, Anchor> {
  const page = store.page();
  const anchors = new Map<string, Anchor>();
  for (const c of store.comments)
    if (c.anchor && c.status !== 'archived' && c.pageUrl === page) anchors.set(c.id, c.anchor);
  return anchors;
}

/**
 * Of `anchors`, the pins whose comment was fixed (applied: Live or not, verified or not): the fix
 * may have changed their element (a price, a label reworded), so they are looked for expecting that.
 */
export function fixedPins(store: Store, anchors: Map<string, Anchor>): Set<string> {
  return new Set([...anchors.keys()].filter((id) => store.comment(id)?.status === 'applied'));
}

/**
 * The number of each pinned comment of this page, shared by its pin and its card: the server's
 * (its place by age on the page), so that a filtered list keeps the numbers the console shows.
 */
export function pinNumbers(store: Store): Map<string, number> {
  const anchors = anchorsOfPage(store);
  const numbers = new Map<string, number>();
  for (const c of store.comments) if (anchors.has(c.id) && c.pin !== null) numbers.set(c.id, c.pin);
  return numbers;
}
