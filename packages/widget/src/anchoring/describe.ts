// The anchor of a picked element: a description rich enough to find it again after the page
// changed, bounded in size (see the contract's `Anchor`).
import type { Anchor } from '@svc/contract';
import { readingOf } from './reading.js';
import { framesOf, otherSelectors, pathSelector, type Root } from './selectors.js';
import { sourceOf } from './source.js';
import { twinHintsOf } from './twins.js';

/** Builds the anchor of `el`; `offset` is where in it the reviewer clicked. */
export function describeElement(el: Element, offset: { x: number; y: number } = { x: 0, y: 0 }): Anchor {
  const root = el.getRootNode() as Root;
  // Read once (reading.ts): the element, the text around it, its look-alikes and twins, how
  // many show its text; then its selectors, what tells it from its twins, where it is, the code
  // it comes from, each from that reading.
  const {
    masking,
    features,
    context,
    content,
    prefix,
    suffix,
    scopeId,
    twins,
    before,
    alikes,
    alikesBefore,
    kin,
    showing,
  } = readingOf(el, root);
  const selector = pathSelector(el, root);
  const frames = framesOf(el);
  const selectors = otherSelectors(features, scopeId, root, selector);
  const twinHints = twinHintsOf(el, twins, { prefix, suffix }, masking);
  // None when the page's reading misses the element's own text (a select's text is its
  // options', a long text is cut where the element's is not, a custom element's is slotted):
  // the anchor then says nothing of how many show it, rather than zero, which is refused.
  const textCount = showing || undefined;
  const view = el.ownerDocument.defaultView ?? window;
  const box = el.getBoundingClientRect();
  const source = sourceOf(el);
  const anchor: Anchor = {
    selector,
    x: Math.round(offset.x),
    y: Math.round(offset.y),
    tag: features.tag,
    role: features.role || undefined,
    name: features.name || undefined,
    text: features.text ? { exact: features.text, prefix, suffix } : undefined,
    attributes: Object.keys(features.attributes).length ? features.attributes : undefined,
    classes: features.classes.length ? features.classes : undefined,
    label: features.label || undefined,
    content: content || undefined,
    context: Object.keys(context).length ? context : undefined,
    twins: twins.length || undefined,
    twinsBefore: twins.length ? before : undefined,
    ...twinHints,
    // More than the anchor may say (a page of a thousand "Edit" links): not said.
    alikes: alikes && alikes <= 1000 ? alikes : undefined,
    alikesBefore: alikes && alikes <= 1000 ? alikesBefore : undefined,
    kin: kin < 1000 ? kin : undefined,
    textCount,
    selectors,
    position: {
      left: Math.round(box.left + view.scrollX),
      top: Math.round(box.top + view.scrollY),
      width: Math.round(box.width),
      height: Math.round(box.height),
      viewportWidth: view.innerWidth,
      viewportHeight: view.innerHeight,
    },
    frames: frames.length ? frames : undefined,
    source,
  };
  if (!anchor.selectors?.length) delete anchor.selectors;
  // Absent parts are left out rather than sent as undefined.
  for (const key of Object.keys(anchor) as (keyof Anchor)[]) if (anchor[key] === undefined) delete anchor[key];
  if (anchor.text) for (const key of ['prefix', 'suffix'] as const) if (!anchor.text[key]) delete anchor.text[key];
  return anchor;
}
