// Twins: elements alike in every way, with the same text around them (their parent's), as a
// row's "Edit" link beside every other row's. What tells the pinned one from its twins is
// recorded when it is pinned (describe.ts: its rank, the side of the text beside it that was
// its own, the item around it whose text was, the shape around it where that was) and read
// back when the page changed (resolve.ts), its rank last: a reordered list keeps how many
// there are, not their order.
import type { Anchor } from '@svc/contract';
import {
  above,
  contentOf,
  contextOf,
  type Features,
  itemText,
  stableAttributes,
  stableClasses,
  textAround,
  textOf,
} from './features.js';
import type { RootIndex, ShapeRead } from './root-index.js';
import { matching, nested, type Root } from './selectors.js';
import { lookOf, ofKind, quoteSides } from './similarity.js';

/**
 * How many other elements look the same (tag, text, classes, attributes but the id, and what
 * it holds when it has no text), and how many of them come before it in the page: its
 * look-alikes; and of those, its twins (the other elements themselves), which also have the
 * same text around them (their parent's): only their places tell them apart. And how many are
 * of its kind, whatever their text (see `ofKind`), itself included.
 */
export function twinsOf(el: Element, features: Features, root: Root, parent: string, content: string) {
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
export function byQuote(prefix: string, suffix: string, twins: Element[]): Anchor['twinsByQuote'] {
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
export function itemOf(el: Element, twins: Element[]): Anchor['twinsByItem'] {
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

/** Most elements an element may hold for its shape to be read: beyond, it has none. */
const SHAPE_ELEMENTS_MAX = 4000;

/** How far above an element the shapes that tell it from its twins are read. */
const SHAPE_UP_MAX = 12;

/**
 * The shapes of what holds twins: an element's tag, lasting classes and attributes with the
 * shapes of its children, whatever their order (a reordered list keeps its shape). Each
 * element is read once for every anchor of a pass (`known`, kept by the pass's index); one
 * holding more than `SHAPE_ELEMENTS_MAX` elements has no shape, whichever anchor asks first.
 */
class Shapes {
  constructor(private readonly known = new Map<Element, ShapeRead | null>()) {}

  /** The shapes of `el` and of the `up` elements above it, as one hash; undefined where one is too large. */
  around(el: Element, up: number): string | undefined {
    let hash = FNV_START;
    let node: Element | null = el;
    for (let level = 0; level <= up; level += 1) {
      const read = node && this.of(node);
      if (!node || !read) return undefined;
      hash = fnv(hash, `${read.shape},`);
      node = node.parentElement;
    }
    return (hash >>> 0).toString(36);
  }

  private of(el: Element): ShapeRead | null {
    const known = this.known.get(el);
    if (known !== undefined) return known;
    const children: number[] = [];
    let size = 1;
    for (const child of el.children) {
      const read = this.of(child);
      if (read) size += read.size;
      if (!read || size > SHAPE_ELEMENTS_MAX) {
        this.known.set(el, null);
        return null;
      }
      children.push(read.shape);
    }
    children.sort((a, b) => a - b);
    const attributes = Object.entries(stableAttributes(el)).join(';');
    const shape =
      fnv(FNV_START, `${el.localName}.${stableClasses(el).join('.')}[${attributes}](${children.join(',')})`) >>> 0;
    const read = { shape, size };
    this.known.set(el, read);
    return read;
  }
}

// FNV-1a, 32 bits: enough to tell a few shapes apart, in a few characters.
const FNV_START = 0x811c9dc5;
function fnv(start: number, part: string): number {
  let hash = start;
  for (let i = 0; i < part.length; i += 1) hash = Math.imul(hash ^ part.charCodeAt(i), 0x01000193);
  return hash;
}

/**
 * The shape of what is around `el` up to what holds all its twins, that included, where no
 * twin has it (a reply beside comments without replies, the comment with two replies beside
 * the one with one, the article with another picture, a reply to a comment like another's
 * but not as deep): it moves with `el`, and tells it from them where their text is all the same.
 */
export function shapeOf(el: Element, twins: Element[]): Anchor['twinsByShape'] {
  if (!twins.length || twins.length > TWINS_READ_MAX) return undefined;
  let up = 0;
  for (let around = el.parentElement; around && up < SHAPE_UP_MAX; around = around.parentElement) {
    const holder = around;
    up += 1;
    if (twins.every((twin) => holder.contains(twin))) break;
  }
  const shapes = new Shapes();
  const shape = shapes.around(el, up);
  if (!shape || twins.some((twin) => shapes.around(twin, up) === shape)) return undefined;
  return { up, shape };
}

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
  const sidesOf = (twin: Element, text: NonNullable<Anchor['text']>) => {
    const { prefix, suffix } = index.quoteOf(twin);
    return quoteSides(text, prefix, suffix);
  };
  const item = anchor.twinsByItem;
  const inItem = (twin: Element) => !item || itemText(twin, item.up, index.textOf) === item.text;
  const shape = anchor.twinsByShape;
  const shapes = new Shapes(index.shapes);
  const shaped = (twin: Element) => !shape || shapes.around(twin, shape.up) === shape.shape;
  // Where its selector still points and the text on both its sides, of its item and the shape
  // around it are as they were, the one at its rank: the page did not change around it (the
  // common case, read quickly).
  if (ranked && pinned && index.first(anchor.selector) === ranked && inItem(ranked) && shaped(ranked)) {
    const { before, after } = sidesOf(ranked, pinned);
    if (before && after) return ranked;
  }
  // The one twin in the item (a row, a card) whose text told it from theirs: it moved with it;
  // or, where that item held some of them too (a code sample), the one at its rank there,
  // while it holds as many.
  if (item) {
    const held = twins.filter(inItem);
    const holders = new Set(held.map((twin) => above(twin, item.up)));
    const element = holders.size === 1 && held.length === (item.holds ?? 1) && held[item.before ?? 0];
    if (element) return element;
  }
  if (shape) {
    const [alone, another] = twins.filter(shaped);
    if (alone && !another) return alone;
  }
  const named = new Set(
    [anchor.selector, ...(anchor.selectors ?? [])].flatMap((selector) => foundAmong(index, selector, twins)),
  );
  if (named.size === 1) return [...named][0];
  const own = anchor.twinsByQuote;
  if (own && pinned) {
    const sides = twins.map((twin) => ({ twin, ...sidesOf(twin, pinned) }));
    // The one with both sides; or, where none has (the text beyond its item changed with
    // their order), the one with a side that was its own.
    const both = sides.filter(({ before, after }) => before && after);
    const ownSide = sides.filter(({ before, after }) => (before && own !== 'after') || (after && own !== 'before'));
    const [quoted, another] = both.length ? both : ownSide;
    if (quoted && !another) return quoted.twin;
  }
  return ranked;
}

/**
 * The twin `selector` finds alone, where that says it is the pinned one: a selector not by
 * place, or one by place within what its steps before the first place find alone, holding no
 * other twin; not among twins whose places shift alike (an item added first).
 */
function foundAmong(index: RootIndex, selector: string, twins: Element[]): Element[] {
  const place = selector.indexOf(':nth-');
  const scope =
    place < 0 ? '' : selector.slice(0, Math.max(0, selector.lastIndexOf(' ', place))).replace(/[\s>]+$/, '');
  if (place >= 0 && !scope) return [];
  const [found, another] = matching(index.root, selector);
  if (!found || another || !twins.includes(found)) return [];
  if (place < 0) return [found];
  const [around, again] = matching(index.root, scope);
  return around && !again && twins.filter((twin) => around.contains(twin)).length === 1 ? [found] : [];
}
