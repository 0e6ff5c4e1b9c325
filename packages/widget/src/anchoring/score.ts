// How alike a candidate is to a pinned element's description (its anchor): where to look for
// candidates on a page, and the weighted share of the description each agrees with, part by
// part (its identity, the element itself, the text around it, its place). The resolver
// (resolve.ts) decides from these scores which candidate, if any, is the element.
import type { Anchor } from '@svc/contract';
import { lastingClass, looksGenerated, ofKind } from './features.js';
import type { RootIndex } from './root-index.js';
import { matching, type Root } from './selectors.js';
import { adjacent, jaccard, sameText, sameUrl, similarity, stoodBeside } from './similarity.js';
import type { Steps } from './steps.js';
import { SAME_TAG_MAX, WEIGHTS } from './thresholds.js';

const NAMING_ATTRIBUTES = ['name', 'href', 'src', 'alt', 'ariaLabel', 'placeholder', 'title'] as const;

/** Whether the element had anything of its own to be known by: its text, a name, a naming attribute (ids aside: they may be regenerated). */
export const identified = (anchor: Anchor) => {
  const a = anchor.attributes ?? {};
  return Boolean(
    anchor.text?.exact ||
      anchor.name ||
      anchor.label ||
      a.testId ||
      NAMING_ATTRIBUTES.some((key) => a[key] && !meaningless(a[key])),
  );
};

/** Link targets that name nothing: `#`, `javascript:…`. */
export const meaningless = (value: string | undefined) =>
  !value || /^(#!?|javascript:.*)$/i.test(value.trim()) || !/[\p{L}\p{N}]/u.test(value);

/**
 * Whether `el` shows a text that stood beside the pinned element (and the pinned text did not
 * stand there too): the neighbour that took its place, not the element reworded.
 */
export function showsNeighboursText(index: RootIndex, anchor: Anchor, el: Element): boolean {
  const pinned = anchor.text;
  const text = index.featuresOf(el).text;
  if (!pinned?.exact || !text || text === pinned.exact) return false;
  const [before, after] = [pinned.prefix ?? '', pinned.suffix ?? ''];
  return stoodBeside(text, before, after) && !stoodBeside(pinned.exact, before, after);
}

/** What every candidate is compared with, read off the anchor once rather than per candidate. */
interface PinnedReading {
  /** Its naming attributes that name something. */
  naming: [(typeof NAMING_ATTRIBUTES)[number], string][];
  /** Its lasting classes: an anchor of an earlier release may hold state classes, which are not compared. */
  classes: string[];
  /** What it held, part by part (see `contentOf`). */
  content: string[];
  /** The text around an element without one of its own (an icon: its link's label) names it, as its own text would. */
  parentWeight: number;
}

/** The parts of what an element holds (see `contentOf`), each once. */
const partsOf = (content: string) => [...new Set(content.split(' '))];

const readings = new WeakMap<Anchor, PinnedReading>();

function readAnchor(anchor: Anchor): PinnedReading {
  let reading = readings.get(anchor);
  if (!reading) {
    const a = anchor.attributes ?? {};
    reading = {
      naming: NAMING_ATTRIBUTES.flatMap((key) => {
        const value = a[key];
        return value && !meaningless(value) ? [[key, value] as [(typeof NAMING_ATTRIBUTES)[number], string]] : [];
      }),
      classes: (anchor.classes ?? []).filter(lastingClass),
      content: partsOf(anchor.content ?? ''),
      parentWeight: identified(anchor) ? WEIGHTS.parent : WEIGHTS.text,
    };
    readings.set(anchor, reading);
  }
  return reading;
}

export interface Scored {
  element: Element;
  /** The weighted share of the description it agrees with. */
  score: number;
  /** How well it carries the element's identity (its text, name, label, naming attributes), when the element had one; 1 when not. */
  identity: number;
  /** How well the element itself agrees: identity, tag, role, classes, attributes. */
  own: number;
  /** How well the text around it agrees (its parent's, its siblings', just before and after); 1 when not compared. */
  around: number;
  /** How well its place agrees (its position, the selectors that find it); 1 when not compared. */
  place: number;
  /** How well the weaker of its two sides agrees (the sibling or text just before it, and just after); 0 when the anchor knows neither. */
  sides: number;
  /** How well the stronger of its two sides agrees; undefined when the anchor knows neither side (or it was not compared in full). */
  side?: number;
}

/** Weighted agreements, added up per part of the description. */
class Tally {
  private readonly sums = { all: 0, identity: 0, own: 0, around: 0, place: 0 };
  private readonly totals = { all: 0, identity: 0, own: 0, around: 0, place: 0 };

  add(part: 'identity' | 'own' | 'around' | 'place', weight: number, agreement: number): void {
    const parts = part === 'identity' ? (['all', 'identity', 'own'] as const) : (['all', part] as const);
    for (const name of parts) {
      this.sums[name] += weight * agreement;
      this.totals[name] += weight;
    }
  }

  share(part: keyof Tally['sums'], none: number): number {
    return this.totals[part] ? this.sums[part] / this.totals[part] : none;
  }
}

/** A viewport-relative box in the document's coordinates. */
function documentBox(el: Element, box: DOMRect) {
  const view = el.ownerDocument.defaultView;
  return { left: box.left + (view?.scrollX ?? 0), top: box.top + (view?.scrollY ?? 0) };
}

/** Where to look: what the selectors find (the first of each), elements sharing a naming attribute or a class, elements starting with the same text, and elements of the same tag when they are few. */
export function* candidates(index: RootIndex, anchor: Anchor, bySelectors: Element[]): Steps<Set<Element>> {
  const known = ofPass(candidatesRead, index).get(anchor);
  if (known) return known;
  const found = new Set<Element>(bySelectors);
  const add = (elements: Iterable<Element>) => {
    for (const element of elements) found.add(element);
  };
  const a = anchor.attributes ?? {};
  if (a.id) add(yield* index.values.withValue('id', a.id));
  if (a.testId) add(yield* index.values.withValue('testId', a.testId));
  for (const key of NAMING_ATTRIBUTES) {
    const value = a[key];
    if (value && !meaningless(value)) add(yield* index.values.withValue(key, value));
  }
  // Its first class, as written or else with a build's hash after it (see `stableClass`).
  const firstClass = anchor.classes?.[0];
  if (firstClass) {
    const named = matching(index.root, `.${CSS.escape(firstClass)}`);
    add((named.length ? named : matching(index.root, `[class*="${CSS.escape(firstClass)}__"]`)).slice(0, 1000));
  }
  const text = anchor.text?.exact || anchor.name;
  if (text || anchor.context?.parent) yield* index.textStarts.reading();
  if (text) add(index.textStarts.withTextStart(text));
  // An element without text of its own (an icon) is looked for in what has the text around it.
  else if (anchor.context?.parent && anchor.tag) {
    for (const holder of index.textStarts.withTextStart(anchor.context.parent)) {
      add(matching(holder as unknown as Root, CSS.escape(anchor.tag)).slice(0, 20));
    }
  }
  if (anchor.tag) {
    const sameTag = index.withTag(anchor.tag);
    if (sameTag.length <= SAME_TAG_MAX) add(sameTag);
  }
  ofPass(candidatesRead, index).set(anchor, found);
  return found;
}

/**
 * The share of the anchor's description that `el` agrees with. Quick: equality of what
 * every element has read off it; full: similarity of texts, and the text around it, where it
 * is and which selectors find it.
 */
export function score(index: RootIndex, anchor: Anchor, el: Element, full: boolean): Scored {
  if (!full) return scored(index, anchor, el, false);
  const scores = ofPass(fullScores, index);
  let byElement = scores.get(anchor);
  if (!byElement) {
    byElement = new Map();
    scores.set(anchor, byElement);
  }
  let found = byElement.get(el);
  if (!found) {
    found = scored(index, anchor, el, true);
    byElement.set(el, found);
  }
  return found;
}

/**
 * What a pass learnt of an anchor, kept by the pass's index (one page as it read it): the
 * candidates, and the full scores, asked again by the rules that weigh them.
 */
const candidatesRead = new WeakMap<RootIndex, WeakMap<Anchor, Set<Element>>>();
const fullScores = new WeakMap<RootIndex, WeakMap<Anchor, Map<Element, Scored>>>();

function ofPass<T>(kept: WeakMap<RootIndex, WeakMap<Anchor, T>>, index: RootIndex): WeakMap<Anchor, T> {
  let byAnchor = kept.get(index);
  if (!byAnchor) {
    byAnchor = new WeakMap();
    kept.set(index, byAnchor);
  }
  return byAnchor;
}

function scored(index: RootIndex, anchor: Anchor, el: Element, full: boolean): Scored {
  const f = index.featuresOf(el);
  const pinned = readAnchor(anchor);
  const tally = new Tally();
  const alike = (a: string, b: string) => (full ? similarity(a, b) : a === b ? 1 : 0);
  const a = anchor.attributes ?? {};
  if (a.testId) tally.add('identity', WEIGHTS.testId, a.testId === f.attributes.testId ? 1 : 0);
  // Ids are not identity: they may be regenerated. One that now looks made up by a build
  // (`:r3:`) says nothing either way.
  const madeUp = el.id !== a.id && looksGenerated(el.id);
  if (a.id && !madeUp) tally.add('own', WEIGHTS.id, a.id === el.id ? 1 : 0);
  const text = anchor.text?.exact ?? '';
  if (text) tally.add('identity', WEIGHTS.text, alike(text, f.text));
  else tally.add('own', WEIGHTS.text / 3, f.text ? 0 : 1);
  if (anchor.name && anchor.name !== text) tally.add('identity', WEIGHTS.name, alike(anchor.name, f.name));
  if (anchor.label) tally.add('identity', WEIGHTS.label, alike(anchor.label, f.label));
  for (const [key, value] of pinned.naming) {
    const now = f.attributes[key] ?? '';
    tally.add('identity', WEIGHTS.attribute, key === 'href' || key === 'src' ? sameUrl(value, now) : alike(value, now));
  }
  tally.add('own', WEIGHTS.tag, anchor.tag === f.tag ? 1 : 0);
  if (anchor.role || f.role) tally.add('own', WEIGHTS.role, (anchor.role ?? '') === f.role ? 1 : 0);
  if (a.type) tally.add('own', WEIGHTS.type, a.type === f.attributes.type ? 1 : 0);
  if (anchor.classes?.length || f.classes.length) tally.add('own', WEIGHTS.classes, jaccard(pinned.classes, f.classes));
  // What it holds tells it from others of its kind; of its kind, where it was alone so, what
  // it holds may have changed with its state (a menu's icon for a close icon), and then says
  // neither yes nor no.
  if (anchor.content) {
    const now = index.contentOf(el);
    const alone = (anchor.kin ?? 0) <= 1 && ofKind(pinned.classes, f.classes);
    tally.add('own', WEIGHTS.content, now === anchor.content ? 1 : alone ? 0.5 : jaccard(pinned.content, partsOf(now)));
  }
  const { weaker: sides, stronger: side } = full ? compareSurroundings(tally, index, anchor, el) : { weaker: 1 };
  if (!full && anchor.context?.parent) {
    tally.add('around', pinned.parentWeight, anchor.context.parent === index.parentTextOf(el) ? 1 : 0);
  }
  return {
    element: el,
    score: tally.share('all', 0),
    identity: tally.share('identity', 1),
    own: tally.share('own', 0),
    around: tally.share('around', 1),
    place: tally.share('place', 1),
    sides,
    side,
  };
}

/**
 * The text around it (its parent's, its siblings', just before and after), its position, and
 * the selectors that find it. Returns how well the weaker and the stronger of its two sides
 * agree (the stronger undefined when neither is known).
 */
function compareSurroundings(
  tally: Tally,
  index: RootIndex,
  anchor: Anchor,
  el: Element,
): { weaker: number; stronger?: number } {
  const around = index.surroundingsOf(el);
  const context = anchor.context ?? {};
  if (context.parent || around.context.parent) {
    // The same, or else alike at half weight: a template repeats most words of its parents.
    const was = context.parent ?? '';
    const now = around.context.parent ?? '';
    tally.add('around', readAnchor(anchor).parentWeight, sameText(was, now) === 1 ? 1 : similarity(was, now) / 2);
  }
  // Undefined until compared: a side the anchor knows nothing of confirms nothing.
  const sides: { previous?: number; next?: number } = {};
  for (const [side, other] of [
    ['previous', 'next'],
    ['next', 'previous'],
  ] as const) {
    if (context[side] || around.context[side]) {
      // Siblings that swapped sides (a list reversed) still say where it is, less surely.
      const same = sameText(context[side] ?? '', around.context[side] ?? '');
      const swapped = sameText(context[side] ?? '', around.context[other] ?? '') / 2;
      tally.add('around', WEIGHTS.sibling, Math.max(same, swapped));
      sides[side] = same;
    }
  }
  if (anchor.text?.prefix) {
    const agreement = adjacent(anchor.text.prefix, around.prefix, 'before');
    tally.add('around', WEIGHTS.quote, agreement);
    sides.previous = Math.max(sides.previous ?? 0, agreement);
  }
  if (anchor.text?.suffix) {
    const agreement = adjacent(anchor.text.suffix, around.suffix, 'after');
    tally.add('around', WEIGHTS.quote, agreement);
    sides.next = Math.max(sides.next ?? 0, agreement);
  }
  const was = anchor.position;
  const view = el.ownerDocument.defaultView;
  // Where it was says little once the page is laid out for another width.
  if (was && view && Math.abs(view.innerWidth - was.viewportWidth) <= was.viewportWidth * 0.1) {
    const now = documentBox(el, around.box);
    const distance = Math.hypot(now.left - was.left, now.top - was.top);
    const near = Math.max(0, 1 - distance / Math.max(600, was.viewportHeight));
    const ratio = (a: number, b: number) => (Math.max(a, b) ? Math.min(a, b) / Math.max(a, b) : 1);
    const size = ratio(around.box.width, was.width) * ratio(around.box.height, was.height);
    tally.add('place', WEIGHTS.position, (near + size) / 2);
  }
  const selectors = [anchor.selector, ...(anchor.selectors ?? [])];
  const matched = selectors.filter((selector) => {
    try {
      return el.matches(selector);
    } catch {
      return false;
    }
  }).length;
  tally.add('place', WEIGHTS.selectors, matched / selectors.length);
  // Both sides when both are known; one that is known; nothing confirmed when neither is.
  if (sides.previous === undefined && sides.next === undefined) return { weaker: 0 };
  return {
    weaker: Math.min(sides.previous ?? 1, sides.next ?? 1),
    stronger: Math.max(sides.previous ?? 0, sides.next ?? 0),
  };
}
