// The anchor of a picked element: a description rich enough to find it again after the page
// changed, bounded in size (see the contract's `Anchor`).
import type { Anchor } from '@svc/contract';
import { contentOf, contextOf, type Features, featuresOf, QUOTE_CONTEXT_MAX, textAround } from './features.js';
import { RootIndex } from './root-index.js';
import { framesOf, otherSelectors, pathSelector, type Root } from './selectors.js';
import { sourceOf } from './source.js';
import { Deadline } from './steps.js';
import { twinHintsOf, twinsOf } from './twins.js';

/** How many elements of the page show `text` (the innermost with all of it). */
function showing(root: Root, text: string): number {
  return Math.min(1000, new RootIndex(root, new Deadline()).showing(text));
}

const some = <T extends object>(value: T) => (Object.keys(value).length ? value : undefined);
const nonEmpty = (text: string) => text || undefined;

/** Builds the anchor of `el`; `offset` is where in it the reviewer clicked. */
export function describeElement(el: Element, offset: { x: number; y: number } = { x: 0, y: 0 }): Anchor {
  const root = el.getRootNode() as Root;
  // Read part by part: the element and the text around it, its selectors, its twins and how
  // many show its text, where it is, the code it comes from.
  const features: Features = featuresOf(el);
  const context = contextOf(el, features.text);
  const content = features.text ? '' : contentOf(el);
  const prefix = features.text ? textAround(el, 'before', QUOTE_CONTEXT_MAX) : '';
  const suffix = features.text ? textAround(el, 'after', QUOTE_CONTEXT_MAX) : '';
  const selector = pathSelector(el, root);
  const frames = framesOf(el);
  const selectors = otherSelectors(el, features, root, selector);
  const { twins, before, alikes, alikesBefore, kin } = twinsOf(el, features, root, context.parent ?? '', content);
  const twinHints = twinHintsOf(el, twins, { prefix, suffix });
  // None when the page's reading misses the element's own text (a select's text is its
  // options', a long text is cut where the element's is not, a custom element's is slotted):
  // the anchor then says nothing of how many show it, rather than zero, which is refused.
  const textCount = (features.text && showing(root, features.text)) || undefined;
  const view = el.ownerDocument.defaultView ?? window;
  const box = el.getBoundingClientRect();
  const source = sourceOf(el);
  const anchor: Anchor = {
    selector,
    x: Math.round(offset.x),
    y: Math.round(offset.y),
    tag: features.tag,
    role: nonEmpty(features.role),
    name: nonEmpty(features.name),
    text: features.text
      ? {
          exact: features.text,
          prefix: nonEmpty(prefix),
          suffix: nonEmpty(suffix),
        }
      : undefined,
    attributes: some(features.attributes),
    classes: features.classes.length ? features.classes : undefined,
    label: nonEmpty(features.label),
    content: nonEmpty(content),
    context: some(context),
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
