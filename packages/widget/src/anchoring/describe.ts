// The anchor of a picked element: a description rich enough to find it again after the page
// changed, bounded in size (see the contract's `Anchor`).
import type { Anchor, AnchorFrame } from '@svc/contract';
import {
  contentOf,
  contextOf,
  type Features,
  featuresOf,
  itemText,
  QUOTE_CONTEXT_MAX,
  stableAttributes,
  stableClasses,
  textAround,
  textOf,
} from './features.js';
import { RootIndex } from './root-index.js';
import { isShadowRoot, nested, otherSelectors, pathSelector, type Root } from './selectors.js';
import { lookOf, ofKind, quoteSides } from './similarity.js';
import { sourceOf } from './source.js';
import { Deadline } from './steps.js';

/** The shadow roots and same-origin iframes between the top document and `el`, outermost first. */
function framesOf(el: Element): AnchorFrame[] {
  const frames: AnchorFrame[] = [];
  let node: Element = el;
  for (;;) {
    const root = node.getRootNode();
    if (isShadowRoot(root)) {
      frames.unshift({ kind: 'shadow', selector: pathSelector(root.host) });
      node = root.host;
      continue;
    }
    const frame = (root as Document).defaultView?.frameElement;
    if (!frame) break;
    frames.unshift({ kind: 'frame', selector: pathSelector(frame) });
    node = frame;
  }
  return frames;
}

/**
 * How many other elements look the same (tag, text, classes, attributes but the id, and what
 * it holds when it has no text), and how many of them come before it in the page: its
 * look-alikes; and of those, its twins (the other elements themselves), which also have the
 * same text around them (their parent's): only their places tell them apart. And how many are of its kind, whatever their
 * text (see `ofKind`), itself included.
 */
function twinsOf(el: Element, features: Features, root: Root, parent: string, content: string) {
  const look = lookOf(features.tag, features.text, features.classes, features.attributes);
  const found = { twins: [] as Element[], before: 0, alikes: 0, alikesBefore: 0, kin: 0 };
  for (const other of root.querySelectorAll(CSS.escape(features.tag))) {
    if (other === el) {
      found.before = found.twins.length;
      found.alikesBefore = found.alikes;
    }
    if (found.kin < 1000 && ofKind(features.classes, stableClasses(other))) found.kin += 1;
    if (found.twins.length >= 1000 || nested(other, el)) continue;
    if (textOf(other) !== features.text) continue;
    if (lookOf(features.tag, features.text, stableClasses(other), stableAttributes(other)) !== look) continue;
    if (content && contentOf(other) !== content) continue;
    found.alikes += 1;
    if ((contextOf(other, features.text).parent ?? '') === parent) found.twins.push(other);
  }
  return found;
}

/** Most twins whose text around and above them is read to know whether the pinned one's is its own. */
const TWINS_READ_MAX = 100;

/**
 * On which side the text just before or after `el` is its own among its twins (a table's
 * title before its header row, not the same "Add to cart" before each card's title): then it
 * tells `el` from them where their order changed.
 */
function byQuote(prefix: string, suffix: string, twins: Element[]): Anchor['twinsByQuote'] {
  if (!twins.length || twins.length > TWINS_READ_MAX) return undefined;
  const own = { before: Boolean(prefix), after: Boolean(suffix) };
  for (const twin of twins) {
    const sides = quoteSides({ prefix, suffix }, textAround(twin, 'before'), textAround(twin, 'after'));
    if (sides.before) own.before = false;
    if (sides.after) own.after = false;
  }
  return own.before && own.after ? 'both' : own.before ? 'before' : own.after ? 'after' : undefined;
}

/** How far above an element the one around it that tells it from its twins is looked for. */
const ITEM_UP_MAX = 8;

/**
 * The closest element around `el` whose text is its own among the elements as far above its
 * twins (a table row with its number, a card with its title, a code sample): it moves with
 * `el`, and tells it from them where their order changed; when it holds some of them too, with
 * how many and how many of those come before `el`.
 */
function itemOf(el: Element, twins: Element[]): Anchor['twinsByItem'] {
  if (!twins.length || twins.length > TWINS_READ_MAX) return undefined;
  let around = el.parentElement;
  for (let up = 1; up <= ITEM_UP_MAX && around; up += 1, around = around.parentElement) {
    const holder = around;
    const inside = twins.filter((twin) => holder.contains(twin));
    // Holding them all, it tells none apart.
    if (inside.length === twins.length) return undefined;
    const text = itemText(el, up);
    if (!text || twins.some((twin) => !holder.contains(twin) && itemText(twin, up) === text)) continue;
    if (!inside.length) return { up, text };
    const before = inside.filter((twin) => twin.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING);
    return { up, text, holds: inside.length + 1, before: before.length };
  }
  return undefined;
}

/** How many elements of the page show `text` (the innermost with all of it). */
function showing(root: Root, text: string): number {
  return Math.min(1000, new RootIndex(root, new Deadline()).showing(text));
}

const some = <T extends object>(value: T) => (Object.keys(value).length ? value : undefined);
const nonEmpty = (text: string) => text || undefined;

/** Builds the anchor of `el`; `offset` is where in it the reviewer clicked. */
export function describeElement(el: Element, offset: { x: number; y: number } = { x: 0, y: 0 }): Anchor {
  const root = el.getRootNode() as Root;
  const features: Features = featuresOf(el);
  const selector = pathSelector(el, root);
  const view = el.ownerDocument.defaultView ?? window;
  const box = el.getBoundingClientRect();
  const frames = framesOf(el);
  const context = contextOf(el, features.text);
  const content = features.text ? '' : contentOf(el);
  const { twins, before, alikes, alikesBefore, kin } = twinsOf(el, features, root, context.parent ?? '', content);
  const prefix = features.text ? textAround(el, 'before', QUOTE_CONTEXT_MAX) : '';
  const suffix = features.text ? textAround(el, 'after', QUOTE_CONTEXT_MAX) : '';
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
    twinsByQuote: byQuote(prefix, suffix, twins),
    twinsByItem: itemOf(el, twins),
    // More than the anchor may say (a page of a thousand "Edit" links): not said.
    alikes: alikes && alikes <= 1000 ? alikes : undefined,
    alikesBefore: alikes && alikes <= 1000 ? alikesBefore : undefined,
    kin: kin < 1000 ? kin : undefined,
    // None when the page's reading misses the element's own text (a select's text is its
    // options', a long text is cut where the element's is not, a custom element's is slotted):
    // the anchor then says nothing of how many show it, rather than zero, which is refused.
    textCount: (features.text && showing(root, features.text)) || undefined,
    selectors: otherSelectors(el, features, root, selector),
    position: {
      left: Math.round(box.left + view.scrollX),
      top: Math.round(box.top + view.scrollY),
      width: Math.round(box.width),
      height: Math.round(box.height),
      viewportWidth: view.innerWidth,
      viewportHeight: view.innerHeight,
    },
    frames: frames.length ? frames : undefined,
    source: sourceOf(el),
  };
  if (!anchor.selectors?.length) delete anchor.selectors;
  // Absent parts are left out rather than sent as undefined.
  for (const key of Object.keys(anchor) as (keyof Anchor)[]) if (anchor[key] === undefined) delete anchor[key];
  if (anchor.text) for (const key of ['prefix', 'suffix'] as const) if (!anchor.text[key]) delete anchor.text[key];
  return anchor;
}
