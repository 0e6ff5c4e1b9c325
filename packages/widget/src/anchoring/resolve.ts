// Finds a pinned element again on a page that may have changed since it was pinned.
//
// The anchor describes the element by many independent signals (after Similo and its
// successors, which find web elements after app releases by comparing many attributes at once,
// and Hypothesis, which re-anchors a quote by its text and the text around it): its text and
// accessible name, stable attributes, classes, role, label, the text around it, where it was,
// and selectors of different kinds. A candidate is scored by the weighted share of those
// signals it agrees with. The best is taken only when it agrees with most of the description,
// carries the element's identity (its text, name or a naming attribute, when it had any), and
// is clearly ahead of the best candidate elsewhere on the page. Otherwise the answer is "not
// found": a pin on the wrong element is worse than a pin listed apart.
import type { Anchor, AnchorAttributes } from '@svc/contract';
import {
  contextOf,
  type Features,
  featuresOf,
  lastingClass,
  normalize,
  parentText,
  SKIPPED,
  textAround,
  textOf,
} from './features.js';
import { first, isDocument, matching, type Root } from './selectors.js';

export type Confidence = 'sure' | 'doubtful';

/** Work that can stop between two of its steps: it yields when its time is up, and returns its result. */
export type Steps<T> = Generator<void, T, void>;

/** Runs `steps` to their end at once. */
export function finish<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * When looking must stop for now: past `deadline` (a `performance.now()` time; never unless
 * one is set). The clock is read every few elements only.
 */
export class Pace {
  deadline = Number.POSITIVE_INFINITY;
  private calls = 0;

  due(): boolean {
    if (this.deadline === Number.POSITIVE_INFINITY) return false;
    this.calls += 1;
    return this.calls % 16 === 0 && performance.now() > this.deadline;
  }
}

export interface Resolution {
  element: Element;
  /** sure: the description agrees; doubtful: the best match, but something changed (shown as "moved?"). */
  confidence: Confidence;
  /** The share of the description the element agrees with, 0-1. */
  score: number;
}

/** Taken at all only above this share of the description... */
const ACCEPT = 0.55;
/** ...or above this one when its own text is exactly the same. */
const ACCEPT_BY_TEXT = 0.4;
/** A rival as much itself as the best must be told apart by the text around them, by this much: its place alone does not tell (a copy inserted before an element takes its place). */
const AROUND_MARGIN = 0.15;
/** A candidate whose identity agrees less than the best's by this much is no rival. */
const RIVAL_IDENTITY = 0.2;
/** ...and then by this much of their place. */
const PLACE_MARGIN = 0.25;
/** An element whose own text or name changed must have the text around it agree this much... */
const AROUND_FOR_CHANGED = 0.6;
/** ...and on both of its sides (where they are known) this much... */
const SIDES_FOR_CHANGED = 0.8;
/** An element without text or name of its own must itself agree this much (tag, classes). */
const OWN_FOR_UNIDENTIFIED = 0.75;
/** ...and any element at least this much. */
const AROUND_MIN = 0.4;
/** ...and shown without doubt above this one. */
const SURE = 0.8;
/** The best must lead the best candidate elsewhere (not inside it, nor around it) by this much. */
const MARGIN = 0.12;
/** The identity (text, name, a naming attribute) must be at least this close. */
const IDENTITY = 0.5;
/** Candidates compared in full after the quick ranking: this many, and up to the larger number when as good as the first. */
const FINALISTS = 8;
const FINALISTS_MAX = 24;
/** Elements of the anchor's tag are all candidates only when there are no more than this many. */
const SAME_TAG_MAX = 400;

const WEIGHTS = {
  testId: 4,
  id: 3,
  text: 3,
  name: 2,
  label: 2,
  tag: 1,
  role: 1,
  attribute: 1.5,
  type: 0.5,
  classes: 2,
  parent: 1,
  sibling: 1,
  quote: 1,
  position: 1,
  selectors: 1,
};

const NAMING_ATTRIBUTES = ['name', 'href', 'src', 'alt', 'ariaLabel', 'placeholder', 'title'] as const;

/** Lookups by attribute value asked of the page one by one, before one walk of it answers the rest. */
const DIRECT_LOOKUPS = 24;

/** Look-alikes are read one by one, up to this many in a pass; past it, found by their text through an index of the page. */
const LOOK_ALIKES_READ = 3000;

/** The attributes looked up by value, under the anchor's names for them. */
const INDEXED_ATTRIBUTES: [keyof AnchorAttributes, string][] = [
  ...(['data-testid', 'data-test', 'data-test-id', 'data-cy', 'data-qa'] as const).map(
    (name) => ['testId', name] as [keyof AnchorAttributes, string],
  ),
  ['name', 'name'],
  ['href', 'href'],
  ['src', 'src'],
  ['alt', 'alt'],
  ['ariaLabel', 'aria-label'],
  ['placeholder', 'placeholder'],
  ['title', 'title'],
];

/** Attributes a look-alike has too, read plainly (an element's test id may be under any of several names). */
const LOOK_ATTRIBUTES = INDEXED_ATTRIBUTES.filter(([key]) => key !== 'testId').concat([['type', 'type']]);

const lower = (text: string) => text.toLowerCase();

/** Whether the element had anything of its own to be known by: its text, a name, a naming attribute (ids aside: they may be regenerated). */
const identified = (anchor: Anchor) => {
  const a = anchor.attributes ?? {};
  return Boolean(
    anchor.text?.exact ||
      anchor.name ||
      anchor.label ||
      a.testId ||
      NAMING_ATTRIBUTES.some((key) => a[key] && !meaningless(a[key])),
  );
};

/** The text around an element without one of its own (an icon: its link's label) names it, as its own text would. */
const parentWeight = (anchor: Anchor) => (identified(anchor) ? WEIGHTS.parent : WEIGHTS.text);

/** Link targets that name nothing: `#`, `javascript:…`. */
const meaningless = (value: string | undefined) =>
  !value || /^(#!?|javascript:.*)$/i.test(value.trim()) || !/[\p{L}\p{N}]/u.test(value);

/** How alike two texts are, 0-1: equal, one inside the other, or the words they share. */
export function similarity(a: string, b: string): number {
  if (a === b) return a ? 1 : 0;
  if (!a || !b) return 0;
  const x = lower(a);
  const y = lower(b);
  if (x === y) return 0.95;
  const [short, long] = x.length < y.length ? [x, y] : [y, x];
  // Words added to it, or it is a part of a longer text: alike as far as it goes, and at least
  // half when it is whole words of the other ("22%" and "22% up").
  const at = long.indexOf(short);
  if (at >= 0) {
    const whole = !/\w/.test(long[at - 1] ?? '') && !/\w/.test(long[at + short.length] ?? '');
    return Math.max(short.length / long.length, whole ? 0.5 : 0);
  }
  const words = (text: string) => new Set(text.split(/[\s,.;:!?()"'“”‘’/|-]+/).filter(Boolean));
  const p = words(x);
  const q = words(y);
  if (p.size < 2 && q.size < 2) return bigrams(x, y);
  let shared = 0;
  for (const word of p) if (q.has(word)) shared += 1;
  return (2 * shared) / (p.size + q.size);
}

/** Dice's coefficient over character pairs, for texts without spaces (one word, or Chinese and Japanese). */
function bigrams(x: string, y: string): number {
  if (x.length < 2 || y.length < 2) return 0;
  const pairs = new Map<string, number>();
  for (let i = 0; i < x.length - 1; i += 1) {
    const pair = x.slice(i, i + 2);
    pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
  }
  let shared = 0;
  for (let i = 0; i < y.length - 1; i += 1) {
    const pair = y.slice(i, i + 2);
    const left = pairs.get(pair) ?? 0;
    if (left > 0) {
      pairs.set(pair, left - 1);
      shared += 1;
    }
  }
  return (2 * shared) / (x.length + y.length - 2);
}

/** Of `elements`, those whose text is `text` and none of whose children has all of it. */
export function countShowing(elements: Iterable<Element>, text: string, textOf: (el: Element) => string): number {
  let count = 0;
  const seen = new Set<Element>();
  for (const el of elements) {
    if (seen.has(el)) continue;
    seen.add(el);
    if (textOf(el) === text && ![...el.children].some((child) => textOf(child) === text)) count += 1;
  }
  return count;
}

/** What an element looks like, in one string: look-alikes have the same. */
export function lookOf(tag: string, text: string, classes: readonly string[], attributes: AnchorAttributes): string {
  const { id, ...rest } = attributes;
  const sorted = Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : 1));
  return JSON.stringify([tag, text, classes, sorted]);
}

/** Links and sources: the same address (1), the same but for its query, fragment or a build hash in the file name (0.9), or another (0). */
function sameUrl(a: string, b: string): number {
  if (a === b) return 1;
  const bare = (url: string) => url.replace(/[?#].*$/, '').replace(/[.-][\da-f]{6,}(?=\.\w+$)/i, '');
  return bare(a) === bare(b) ? 0.9 : 0;
}

/** For a neighbour's text: the same (1), one inside the other (½), or not (0). */
function sameText(a: string, b: string): number {
  if (!a || !b) return a === b ? 1 : 0;
  const x = lower(a);
  const y = lower(b);
  if (x === y) return 1;
  return x.includes(y) || y.includes(x) ? 0.5 : 0;
}

/** How much of the text right next to the element is unchanged: the end of what comes before it, the start of what follows. */
function adjacent(was: string, now: string, side: 'before' | 'after'): number {
  const span = Math.min(24, was.length);
  if (!span) return 1;
  let same = 0;
  while (same < span) {
    const a = side === 'before' ? was[was.length - 1 - same] : was[same];
    const b = side === 'before' ? now[now.length - 1 - same] : now[same];
    if (a === undefined || a !== b) break;
    same += 1;
  }
  return same / span;
}

const jaccard = (a: readonly string[], b: readonly string[]) => {
  if (!a.length && !b.length) return 1;
  const set = new Set(b);
  const shared = a.filter((item) => set.has(item)).length;
  return shared / (a.length + b.length - shared);
};

/** What is read of a candidate only when it is compared in full. */
interface Surroundings {
  context: NonNullable<Anchor['context']>;
  prefix: string;
  suffix: string;
  box: DOMRect;
}

/** Elements by the start of a text: parents of text nodes, and elements by their first text. */
interface TextIndex {
  parents: Map<string, Element[]>;
  firsts: Map<string, Element[]>;
}

/**
 * The readings of one page, shared by every anchor resolved in one pass, so that an element
 * is read once however many anchors consider it. Valid until the page changes.
 */
class RootIndex {
  private readonly features = new Map<Element, Features>();
  private readonly texts = new Map<Element, string>();
  private readonly lookStrings = new Map<Element, string>();
  /** The element's text, read once. */
  readonly textOf = (el: Element): string => {
    let text = this.texts.get(el);
    if (text === undefined) {
      text = textOf(el);
      this.texts.set(el, text);
    }
    return text;
  };
  private readonly surroundings = new Map<Element, Surroundings>();
  private readonly contexts = new Map<Element, NonNullable<Anchor['context']>>();
  private readonly parentTexts = new Map<Element, string>();
  /** Elements of a tag and classes, for look-alikes. */
  private readonly selections = new Map<string, Element[]>();
  private readonly byTag = new Map<string, Element[]>();
  private readonly looks = new Map<string, Map<string, Element[]>>();
  private byText: TextIndex | null = null;
  private lookAlikesRead = 0;
  private byValue: Map<string, Element[]> | null = null;
  private valueLookups = 0;

  constructor(
    readonly root: Root,
    private readonly pace: Pace,
  ) {}

  featuresOf(el: Element): Features {
    let features = this.features.get(el);
    if (!features) {
      features = featuresOf(el, this.textOf);
      this.features.set(el, features);
    }
    return features;
  }

  /** What it looks like (see `lookOf`), read once. */
  lookOf(el: Element): string {
    let look = this.lookStrings.get(el);
    if (look === undefined) {
      const f = this.featuresOf(el);
      look = lookOf(f.tag, f.text, f.classes, f.attributes);
      this.lookStrings.set(el, look);
    }
    return look;
  }

  /** The text of its parent and nearest siblings. */
  contextOf(el: Element): NonNullable<Anchor['context']> {
    let context = this.contexts.get(el);
    if (!context) {
      context = contextOf(el, this.textOf(el), this.textOf);
      this.contexts.set(el, context);
    }
    return context;
  }

  /** The elements of `tag` that look like `look` (see `lookOf`). */
  lookingLike(tag: string, look: string): Element[] {
    let groups = this.looks.get(tag);
    if (!groups) {
      groups = new Map();
      for (const el of this.withTag(tag)) {
        const key = this.lookOf(el);
        const group = groups.get(key);
        if (group) group.push(el);
        else groups.set(key, [el]);
      }
      this.looks.set(tag, groups);
    }
    return groups.get(look) ?? [];
  }

  /** How many elements show `text` as the innermost element with all of it (a span in a link counts once). */
  showing(text: string): number {
    return countShowing(this.withTextStart(text), text, (el) => this.featuresOf(el).text);
  }

  /** The text of its closest ancestor that says more than it (see `parentText`), read once. */
  parentTextOf(el: Element): string {
    let text = this.parentTexts.get(el);
    if (text === undefined) {
      text = parentText(el, this.textOf(el), this.textOf);
      this.parentTexts.set(el, text);
    }
    return text;
  }

  /** How many elements look like `el` and have the same text around them (its parent's): only their places tell them apart. */
  *indistinguishable(el: Element): Steps<number> {
    const f = this.featuresOf(el);
    const look = this.lookOf(el);
    const parent = this.parentTextOf(el);
    // Look-alikes have its classes as they are now (hashed alike by the same build), and its
    // attributes: compared first, as they cost less to read than a text.
    const classes = [...el.classList].map((name) => `.${CSS.escape(name)}`).join('');
    const selector = `${CSS.escape(f.tag)}${classes || ':not([class])'}`;
    let looks = this.selections.get(selector);
    if (!looks) {
      looks = matching(this.root, selector);
      this.selections.set(selector, looks);
    }
    // Once many have been read in this pass, those whose text starts as its does: one walk of
    // the page then serves every anchor of the pass (and costs more than one anchor's reading).
    if (f.text && (this.byText || this.lookAlikesRead + looks.length > LOOK_ALIKES_READ)) {
      yield* this.readingTexts();
      looks = this.startingAs(f.text).filter((other) => other.matches(selector));
    }
    this.lookAlikesRead += looks.length;
    const attributes = LOOK_ATTRIBUTES.filter(([key]) => f.attributes[key]);
    let count = 0;
    for (const other of looks) {
      if (
        attributes.every(([key, name]) => other.getAttribute(name)?.trim().slice(0, 300) === f.attributes[key]) &&
        this.textOf(other) === f.text &&
        this.lookOf(other) === look &&
        this.parentTextOf(other) === parent
      ) {
        count += 1;
      }
      if (this.pace.due()) yield;
    }
    return count;
  }

  surroundingsOf(el: Element): Surroundings {
    let found = this.surroundings.get(el);
    if (!found) {
      found = {
        context: this.contextOf(el),
        prefix: textAround(el, 'before'),
        suffix: textAround(el, 'after'),
        box: el.getBoundingClientRect(),
      };
      this.surroundings.set(el, found);
    }
    return found;
  }

  withTag(tag: string): Element[] {
    let elements = this.byTag.get(tag);
    if (!elements) {
      elements = matching(this.root, CSS.escape(tag));
      this.byTag.set(tag, elements);
    }
    return elements;
  }

  /**
   * Elements with `value` for one of the attributes an anchor names (`id`, `testId`, `name`,
   * `href`, …): one walk of the page serves every anchor resolved in this pass.
   */
  *withValue(key: keyof AnchorAttributes, value: string): Steps<Element[]> {
    // A few lookups ask the page each time; past that, one walk of the page answers the rest.
    this.valueLookups += 1;
    if (!this.byValue && this.valueLookups <= DIRECT_LOOKUPS) {
      const selector = INDEXED_ATTRIBUTES.filter(([name]) => name === key)
        .map(([, attribute]) => `[${attribute}="${CSS.escape(value)}"]`)
        .concat(key === 'id' ? [`[id="${CSS.escape(value)}"]`] : [])
        .join(',');
      return selector ? matching(this.root, selector) : [];
    }
    if (!this.byValue) {
      const byValue = new Map<string, Element[]>();
      const note = (name: string, found: string | null, el: Element) => {
        if (!found) return;
        const entry = `${name}\u0000${found.trim()}`;
        const list = byValue.get(entry);
        if (list) list.push(el);
        else byValue.set(entry, [el]);
      };
      for (const el of matching(this.root, '*')) {
        if (el.id) note('id', el.id, el);
        for (const [name, attribute] of INDEXED_ATTRIBUTES) note(name, el.getAttribute(attribute), el);
        if (this.pace.due()) yield;
      }
      // Another lookup may have finished the walk while this one waited.
      this.byValue ??= byValue;
    }
    return this.byValue.get(`${key}\u0000${value}`) ?? [];
  }

  /**
   * One walk of the page's text nodes files each under the start of its text: the parents of
   * text nodes (see `withTextStart`), and each element under the start of its first text
   * (see `startingAs`).
   */
  *readingTexts(): Steps<TextIndex> {
    if (this.byText) return this.byText;
    const byText = { parents: new Map<string, Element[]>(), firsts: new Map<string, Element[]>() };
    const filed = new Set<Element>();
    const root = this.root;
    const top = isDocument(root) ? (root.body ?? root.documentElement) : root;
    const walker = (isDocument(root) ? root : root.ownerDocument).createTreeWalker(top, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || SKIPPED.has(parent.tagName)) continue;
      const key = startKey(node.nodeValue ?? '');
      if (!key) continue;
      const parents = byText.parents.get(key);
      if (parents) parents.push(parent);
      else byText.parents.set(key, [parent]);
      // The first text of its parent and of each ancestor not filed yet (whose text starts here).
      const firsts = byText.firsts.get(key) ?? [];
      for (let el: Element | null = parent; el && !filed.has(el); el = el.parentElement) {
        filed.add(el);
        firsts.push(el);
      }
      byText.firsts.set(key, firsts);
      if (this.pace.due()) yield;
    }
    this.byText ??= byText;
    return this.byText;
  }

  private readTexts(): TextIndex {
    return this.byText ?? finish(this.readingTexts());
  }

  /** Every element whose text (see `textOf`) may be `text`: those whose first text node starts as `text` does. */
  startingAs(text: string): Element[] {
    const { firsts } = this.readTexts();
    const start = lower(text.slice(0, 8));
    const found: Element[] = [];
    for (let length = 1; length <= start.length; length += 1) found.push(...(firsts.get(start.slice(0, length)) ?? []));
    return found;
  }

  /** Elements whose text starts like `text` (any tag): the parents of text nodes starting so, and their ancestors whose text starts there too. */
  withTextStart(text: string): Element[] {
    const found: Element[] = [];
    for (const parent of this.readTexts().parents.get(textKey(text)) ?? []) {
      let node: Element | null = parent;
      for (let level = 0; node && level < 4; level += 1, node = node.parentElement) found.push(node);
    }
    return found;
  }
}

const textKey = (text: string) => lower(normalize(text).slice(0, 8));

const SPACE = /\s/;

/**
 * `textKey` of a text node's value, read from its start only: a page has tens of thousands of
 * text nodes, most of them white space between tags, and normalising each whole costs more
 * than walking them.
 */
function startKey(value: string): string {
  let key = '';
  let space = false;
  for (let i = 0; i < value.length && key.length < 8; i += 1) {
    const char = value[i] as string;
    const code = value.charCodeAt(i);
    if (code <= 32 ? code === 32 || (code >= 9 && code <= 13) : code > 127 && SPACE.test(char)) {
      space = key.length > 0;
      continue;
    }
    if (space) key += ' ';
    space = false;
    if (key.length < 8) key += char;
  }
  return key.toLowerCase();
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

/**
 * Resolves anchors against one page. Create one per pass (for instance once per animation
 * frame in which the page changed): it reads each element at most once.
 */
export class Resolver {
  private readonly indexes = new Map<Root, RootIndex>();
  /** Set its deadline to have `steps` stop there (see `Steps`). */
  readonly pace = new Pace();
  /** Why the last anchor was not found: for tests and for the curious. */
  refusal = '';

  private refuse(why: string): null {
    this.refusal = why;
    return null;
  }

  constructor(private readonly document: Document) {}

  /**
   * Whether `el` still reads as this pass read it (its text and classes): a lookup that went on
   * over several frames read a page that may have changed meanwhile.
   */
  readsAsItDid(el: Element): boolean {
    const index = this.indexes.get(el.getRootNode() as Root);
    if (!index || !el.isConnected) return false;
    const now = featuresOf(el);
    return lookOf(now.tag, now.text, now.classes, now.attributes) === index.lookOf(el);
  }

  /** How many elements of `root` show `text` (the innermost with all of it). */
  showing(root: Root, text: string): number {
    return this.indexOf(root).showing(text);
  }

  private indexOf(root: Root): RootIndex {
    let index = this.indexes.get(root);
    if (!index) {
      index = new RootIndex(root, this.pace);
      this.indexes.set(root, index);
    }
    return index;
  }

  /** The document or shadow root the anchor's element lives in, following its frames; null when one is gone. */
  private rootOf(anchor: Anchor): Root | null {
    let root: Root = this.document;
    for (const frame of anchor.frames ?? []) {
      const host: Element | undefined = matching(root, frame.selector)[0];
      if (!host) return null;
      if (frame.kind === 'shadow') {
        if (!host.shadowRoot) return null;
        root = host.shadowRoot;
      } else {
        try {
          const inner: Document | null = (host as HTMLIFrameElement).contentDocument;
          if (!inner) return null;
          root = inner;
        } catch {
          return null;
        }
      }
    }
    return root;
  }

  /** The element `anchor` describes, or null (`refusal` says why). */
  resolve(anchor: Anchor): Resolution | null {
    return finish(this.steps(anchor));
  }

  /**
   * `resolve`, in steps that stop when the pace is due: a page's readings are kept, so a lookup
   * can go on in the next frame. The page may change between steps: see `readsAsItDid`.
   */
  *steps(anchor: Anchor): Steps<Resolution | null> {
    this.refusal = '';
    const index = this.indexFor(anchor);
    if (!index) return this.refuse('frame');
    const root = index.root;
    // An anchor from before descriptions has only its selector to go by.
    if (anchor.tag === undefined) {
      const element = matching(root, anchor.selector)[0];
      return element ? { element, confidence: 'sure', score: 1 } : this.refuse('selector');
    }
    const selectors = [anchor.selector, ...(anchor.selectors ?? [])];
    // Fast path: a selector still finds one element, and the description agrees, the element
    // itself and the text around it.
    const found: Element[] = [];
    for (const selector of selectors) {
      const element = first(root, selector);
      if (!element) continue;
      found.push(element);
      const scored = this.score(index, anchor, element, true);
      const agrees = scored.score >= SURE && scored.own >= SURE && scored.identity >= IDENTITY && scored.around >= 0.5;
      if (agrees && (yield* this.toldApart(index, anchor, scored.element))) {
        return { element: scored.element, confidence: 'sure', score: scored.score };
      }
    }
    // An element without text or name of its own is known by the text around it and by its
    // tag and classes (its neighbour in the same link may be another icon): candidates that
    // differ in either are not it.
    // An element with text or a name of its own is none that does not carry it.
    const ranked = (yield* this.rankedSteps(anchor, index, found)).filter((scored) =>
      identified(anchor)
        ? scored.identity >= IDENTITY
        : scored.around >= AROUND_FOR_CHANGED && scored.own >= OWN_FOR_UNIDENTIFIED,
    );
    const best = this.bestOf(ranked);
    if (!best) return this.refuse('none');
    if (!(yield* this.toldApart(index, anchor, best.element))) return this.refuse('look-alikes');
    // Enough of the description agrees; or the element's own text, exactly, with little else.
    if (best.score < ACCEPT && !(best.identity >= 0.95 && best.score >= ACCEPT_BY_TEXT)) return this.refuse('weak');
    // Fewer elements show its text than when it was pinned: this may be another that showed it
    // too, so what is around it must not be all different.
    const text = anchor.text?.exact;
    if (text && anchor.textCount && best.around < AROUND_MIN && index.showing(text) < anchor.textCount) {
      return this.refuse('fewer-showing');
    }
    // Its text or name changed, or it has none: then the text around it must say it is the
    // one, on both sides (a neighbour of a removed element agrees on one side at most).
    if (best.identity < 0.95 && (best.around < AROUND_FOR_CHANGED || best.sides < SIDES_FOR_CHANGED)) {
      return this.refuse('changed-unsupported');
    }
    // The best rival: elsewhere on the page (not inside the best, nor around it), and carrying
    // the identity nearly as well (an exact text is not rivalled by a similar one).
    const rival = ranked.find(
      (other) =>
        other !== best &&
        !other.element.contains(best.element) &&
        !best.element.contains(other.element) &&
        other.identity >= Math.max(IDENTITY, best.identity - RIVAL_IDENTITY),
    );
    const margin = best.score - (rival?.score ?? 0);
    // A rival as much itself as the best is told apart by the text around them, not by the
    // score, which their places sway (a copy inserted before an element takes its place);
    // their places decide only while the page has as many look-alikes as when it was pinned.
    const alike = rival && rival.own >= best.own - 0.05 && rival.identity >= best.identity - 0.05;
    if (alike) {
      const byText = best.around - rival.around >= AROUND_MARGIN;
      const byPlace = Boolean(anchor.twins) && best.place - rival.place >= PLACE_MARGIN;
      if (!byText && !byPlace) return this.refuse('alike-rival');
    } else if (margin < MARGIN) {
      return this.refuse('rival');
    }
    return {
      element: best.element,
      confidence: best.score >= SURE && margin >= 2 * MARGIN ? 'sure' : 'doubtful',
      score: best.score,
    };
  }

  /**
   * Whether `el` can be told from its look-alikes as the pinned element could. Elements that
   * look alike (same tag, text, classes and attributes but the id) with the same text around
   * them differ only by their place, and their places tell them apart only as long as there
   * are as many as when it was pinned: one more (a copy inserted before it) or one fewer (one
   * removed, perhaps the pinned one) and nothing does. When `el` alone changed (elements
   * still look as the pinned one did), the rivalry rules decide.
   */
  private *toldApart(index: RootIndex, anchor: Anchor, el: Element): Steps<boolean> {
    const look = index.lookOf(el);
    const was = lookOf(anchor.tag ?? '', anchor.text?.exact ?? '', anchor.classes ?? [], anchor.attributes ?? {});
    if (look !== was && index.lookingLike(anchor.tag ?? '', was).length > 0) return true;
    return (yield* index.indistinguishable(el)) === (anchor.twins ?? 0) + 1;
  }

  /**
   * The best candidate. Of an element and those around or inside it with the same text (a
   * wrapper, its content), nearly as likely, the one that is most itself (its tag, classes and
   * attributes); none when two are as much themselves.
   */
  private bestOf(ranked: Scored[]): Scored | undefined {
    const top = ranked[0];
    if (!top) return undefined;
    const nested = ranked
      .filter(
        (other) =>
          top.score - other.score < MARGIN &&
          (other === top || other.element.contains(top.element) || top.element.contains(other.element)),
      )
      .sort((a, b) => b.own - a.own);
    const [first, second] = nested;
    // As much themselves (their classes lost, say): the one whose place and size agree.
    if (second && first && first.own - second.own < 0.05) {
      const byPlace = [first, second].sort((a, b) => b.place - a.place);
      return byPlace[0] && byPlace[1] && byPlace[0].place - byPlace[1].place >= 0.1 ? byPlace[0] : undefined;
    }
    return first;
  }

  /**
   * The candidates most like the anchor, best first, each with its score: all are ranked
   * quickly on what each element has read off it, the first few compared in full.
   */
  ranked(anchor: Anchor): Scored[] {
    const index = this.indexFor(anchor);
    return index ? finish(this.rankedSteps(anchor, index)) : [];
  }

  private *rankedSteps(anchor: Anchor, index: RootIndex, found?: Element[]): Steps<Scored[]> {
    const bySelectors =
      found ?? [anchor.selector, ...(anchor.selectors ?? [])].flatMap((selector) => first(index.root, selector) ?? []);
    const quick: Scored[] = [];
    for (const element of yield* this.candidates(index, anchor, bySelectors)) {
      quick.push(this.score(index, anchor, element, false));
      if (this.pace.due()) yield;
    }
    quick.sort((a, b) => b.score - a.score);
    // The first few, and all as good as the first (look-alikes differ only in what is compared in full).
    const top = quick[0]?.score ?? 0;
    const finalists = quick.filter(
      (scored, rank) => rank < FINALISTS || (rank < FINALISTS_MAX && scored.score >= top - 0.02),
    );
    return finalists.map((scored) => this.score(index, anchor, scored.element, true)).sort((a, b) => b.score - a.score);
  }

  private indexFor(anchor: Anchor): RootIndex | null {
    const root = this.rootOf(anchor);
    return root ? this.indexOf(root) : null;
  }

  /** Where to look: what the selectors find (the first of each), elements sharing a naming attribute or a class, elements starting with the same text, and elements of the same tag when they are few. */
  private *candidates(index: RootIndex, anchor: Anchor, bySelectors: Element[]): Steps<Set<Element>> {
    const found = new Set<Element>(bySelectors);
    const add = (elements: Iterable<Element>) => {
      for (const element of elements) found.add(element);
    };
    const a = anchor.attributes ?? {};
    if (a.id) add(yield* index.withValue('id', a.id));
    if (a.testId) add(yield* index.withValue('testId', a.testId));
    for (const key of NAMING_ATTRIBUTES) {
      const value = a[key];
      if (value && !meaningless(value)) add(yield* index.withValue(key, value));
    }
    // Its first class, as written or else with a build's hash after it (see `stableClass`).
    const firstClass = anchor.classes?.[0];
    if (firstClass) {
      const named = matching(index.root, `.${CSS.escape(firstClass)}`);
      add((named.length ? named : matching(index.root, `[class*="${CSS.escape(firstClass)}__"]`)).slice(0, 1000));
    }
    const text = anchor.text?.exact || anchor.name;
    if (text || anchor.context?.parent) yield* index.readingTexts();
    if (text) add(index.withTextStart(text));
    // An element without text of its own (an icon) is looked for in what has the text around it.
    else if (anchor.context?.parent && anchor.tag) {
      for (const holder of index.withTextStart(anchor.context.parent)) {
        add(matching(holder as unknown as Root, CSS.escape(anchor.tag)).slice(0, 20));
      }
    }
    if (anchor.tag) {
      const sameTag = index.withTag(anchor.tag);
      if (sameTag.length <= SAME_TAG_MAX) add(sameTag);
    }
    return found;
  }

  /**
   * The share of the anchor's description that `el` agrees with. Quick: equality of what
   * every element has read off it; full: similarity of texts, and the text around it, where it
   * is and which selectors find it.
   */
  private score(index: RootIndex, anchor: Anchor, el: Element, full: boolean): Scored {
    const f = index.featuresOf(el);
    const tally = new Tally();
    const alike = (a: string, b: string) => (full ? similarity(a, b) : a === b ? 1 : 0);
    const a = anchor.attributes ?? {};
    if (a.testId) tally.add('identity', WEIGHTS.testId, a.testId === f.attributes.testId ? 1 : 0);
    // Ids are not identity: they may be regenerated.
    if (a.id) tally.add('own', WEIGHTS.id, a.id === el.id ? 1 : 0);
    const text = anchor.text?.exact ?? '';
    if (text) tally.add('identity', WEIGHTS.text, alike(text, f.text));
    else tally.add('own', WEIGHTS.text / 3, f.text ? 0 : 1);
    if (anchor.name && anchor.name !== text) tally.add('identity', WEIGHTS.name, alike(anchor.name, f.name));
    if (anchor.label) tally.add('identity', WEIGHTS.label, alike(anchor.label, f.label));
    for (const key of NAMING_ATTRIBUTES) {
      const value = a[key];
      if (!value || meaningless(value)) continue;
      const now = f.attributes[key] ?? '';
      tally.add(
        'identity',
        WEIGHTS.attribute,
        key === 'href' || key === 'src' ? sameUrl(value, now) : alike(value, now),
      );
    }
    tally.add('own', WEIGHTS.tag, anchor.tag === f.tag ? 1 : 0);
    if (anchor.role || f.role) tally.add('own', WEIGHTS.role, (anchor.role ?? '') === f.role ? 1 : 0);
    if (a.type) tally.add('own', WEIGHTS.type, a.type === f.attributes.type ? 1 : 0);
    if (anchor.classes?.length || f.classes.length) {
      // An anchor of an earlier release may hold state classes: they are not compared.
      tally.add('own', WEIGHTS.classes, jaccard((anchor.classes ?? []).filter(lastingClass), f.classes));
    }
    const sides = full ? this.compareSurroundings(tally, index, anchor, el) : 1;
    if (!full && anchor.context?.parent) {
      tally.add('around', parentWeight(anchor), anchor.context.parent === index.contextOf(el).parent ? 1 : 0);
    }
    return {
      element: el,
      score: tally.share('all', 0),
      identity: tally.share('identity', 1),
      own: tally.share('own', 0),
      around: tally.share('around', 1),
      place: tally.share('place', 1),
      sides,
    };
  }

  /**
   * The text around it (its parent's, its siblings', just before and after), its position, and
   * the selectors that find it. Returns how well the weaker of its two sides agrees.
   */
  private compareSurroundings(tally: Tally, index: RootIndex, anchor: Anchor, el: Element): number {
    const around = index.surroundingsOf(el);
    const context = anchor.context ?? {};
    if (context.parent || around.context.parent) {
      // The same, or else alike at half weight: a template repeats most words of its parents.
      const was = context.parent ?? '';
      const now = around.context.parent ?? '';
      tally.add('around', parentWeight(anchor), sameText(was, now) === 1 ? 1 : similarity(was, now) / 2);
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
    if (sides.previous === undefined && sides.next === undefined) return 0;
    return Math.min(sides.previous ?? 1, sides.next ?? 1);
  }
}

/** Resolves one anchor against `document` (a pass of its own). */
export function resolveAnchor(anchor: Anchor, document: Document): Resolution | null {
  return new Resolver(document).resolve(anchor);
}
