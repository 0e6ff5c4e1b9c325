// What the resolver reads of one page (a document or a shadow root), read once per pass.
import type { Anchor, AnchorAttributes } from '@svc/contract';
import { isMasked, masksWithin } from '../mask.js';
import {
  contentOf,
  contextOf,
  type Features,
  featuresOf,
  normalize,
  parentText,
  SKIPPED,
  stableClass,
  stableClasses,
  textAround,
  textOf,
} from './features.js';
import { first, inPageOrder, isDocument, matching, nested, type Root } from './selectors.js';
import { lookOf, lower, ofKind } from './similarity.js';
import { type Deadline, finish, type Steps } from './steps.js';
import { DIRECT_LOOKUPS, LOOK_ALIKES_READ } from './thresholds.js';

/** The attributes looked up by value, under the anchor's names for them. */
export const INDEXED_ATTRIBUTES: [keyof AnchorAttributes, string][] = [
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
export const LOOK_ATTRIBUTES = INDEXED_ATTRIBUTES.filter(([key]) => key !== 'testId').concat([['type', 'type']]);

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

/** What is read of a candidate only when it is compared in full. */
export interface Surroundings {
  context: NonNullable<Anchor['context']>;
  prefix: string;
  suffix: string;
  box: DOMRect;
}

/** Elements by the start of a text: parents of text nodes, and elements by their first text. */
export interface TextIndex {
  parents: Map<string, Element[]>;
  firsts: Map<string, Element[]>;
}

/** An element's shape (twins.ts), and how many elements it holds, itself included. */
export type ShapeRead = { shape: number; size: number };

/**
 * The readings of one page, shared by every anchor resolved in one pass, so that an element
 * is read once however many anchors consider it. Valid until the page changes.
 */
export class RootIndex {
  private readonly features = new Map<Element, Features>();
  private readonly texts = new Map<Element, string>();
  private readonly lookStrings = new Map<Element, string>();
  private readonly contents = new Map<Element, string>();
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
  private readonly quotes = new Map<Element, { prefix: string; suffix: string }>();
  private readonly firstBySelector = new Map<string, Element | null>();
  private readonly contexts = new Map<Element, NonNullable<Anchor['context']>>();
  private readonly parentTexts = new Map<Element, string>();
  /** Elements of a tag and classes, for look-alikes. */
  private readonly selections = new Map<string, Element[]>();
  private readonly byTag = new Map<string, Element[]>();
  private readonly looks = new Map<string, Map<string, Element[]>>();
  private readonly alikeByText = new Map<string, Element[]>();
  private readonly showingCounts = new Map<string, number>();
  private readonly kinCounts = new Map<string, number>();
  private readonly twins = new Map<Element, Element[]>();
  /** The shapes of what holds twins (see twins.ts), each read once for every anchor of the pass. */
  readonly shapes = new Map<Element, ShapeRead | null>();
  private readonly byLook = new Map<string, Map<string, Element[]>>();
  private byText: TextIndex | null = null;
  private lookAlikesRead = 0;
  private byValue: Map<string, Element[]> | null = null;
  private valueLookups = 0;

  constructor(
    readonly root: Root,
    private readonly deadline: Deadline,
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

  /** What it holds, when it has no text (see `contentOf`), read once. */
  contentOf(el: Element): string {
    let content = this.contents.get(el);
    if (content === undefined) {
      content = contentOf(el);
      this.contents.set(el, content);
    }
    return content;
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

  /** The elements of `tag` showing `text` that look like `look` (see `lookOf`, of the same tag and text), in the page's order. */
  lookingLike(tag: string, text: string, look: string): Element[] {
    // With a text, among the elements whose text starts as it does (one walk of the page, shared
    // by the pass), rather than by reading every element of the tag.
    if (text) {
      let alike = this.alikeByText.get(look);
      if (!alike) {
        alike = this.startingAs(text)
          .filter((el) => el.localName === tag && this.lookOf(el) === look)
          .sort(inPageOrder);
        this.alikeByText.set(look, alike);
      }
      return alike;
    }
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
    let count = this.showingCounts.get(text);
    if (count === undefined) {
      count = countShowing(this.startingAs(text), text, (el) => this.featuresOf(el).text);
      this.showingCounts.set(text, count);
    }
    return count;
  }

  /** How many elements have `tag` and at least `classes` (stable, see `ofKind`), counted once. */
  ofKindCount(tag: string, classes: readonly string[]): number {
    const key = `${tag} ${classes.join(' ')}`;
    let count = this.kinCounts.get(key);
    if (count === undefined) {
      count = this.withTag(tag).filter((el) => ofKind(classes, stableClasses(el))).length;
      this.kinCounts.set(key, count);
    }
    return count;
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

  /**
   * The elements that look like `el` and have the same text around them (its parent's), in the
   * page's order, none inside another: only their places tell them apart.
   */
  *indistinguishable(el: Element): Steps<Element[]> {
    let twins = this.twins.get(el);
    if (!twins) {
      twins = yield* this.readingTwins(el);
      this.twins.set(el, twins);
    }
    return twins;
  }

  private *readingTwins(el: Element): Steps<Element[]> {
    const f = this.featuresOf(el);
    const look = this.lookOf(el);
    const parent = this.parentTextOf(el);
    // Look-alikes have its lasting classes as they are now (hashed alike by the same build; a
    // twin may be in another state), and its attributes: compared first, as they cost less to
    // read than a text.
    const lasting = [...el.classList].filter((name) => stableClass(name) !== null);
    const classes = lasting.map((name) => `.${CSS.escape(name)}`).join('');
    const selector = `${CSS.escape(f.tag)}${classes || (el.classList.length ? '' : ':not([class])')}`;
    // Once many have been read in this pass, those whose text is its text, grouped by their look
    // and the text around them: one walk of the page then serves every anchor of the pass (and
    // costs more than one anchor's reading).
    if (f.text && (this.byText || this.lookAlikesRead + this.selected(selector).length > LOOK_ALIKES_READ)) {
      const groups = yield* this.showingByLook(f.tag, selector, f.text);
      return (groups.get(`${look}\u0000${parent}`) ?? []).filter((other) => other === el || !nested(other, el));
    }
    const looks = this.selected(selector);
    this.lookAlikesRead += looks.length;
    const attributes = LOOK_ATTRIBUTES.filter(([key]) => f.attributes[key]);
    const alike: Element[] = [];
    for (const other of looks) {
      if (
        attributes.every(([key, name]) => other.getAttribute(name)?.trim().slice(0, 300) === f.attributes[key]) &&
        this.textOf(other) === f.text &&
        this.lookOf(other) === look &&
        this.parentTextOf(other) === parent &&
        // Not one around it or inside it: a wrapper with the same text is not a twin.
        (other === el || !nested(other, el))
      ) {
        alike.push(other);
      }
      if (this.deadline.due()) yield;
    }
    return alike;
  }

  /** The first element `selector` finds, or null, read once. */
  first(selector: string): Element | null {
    let found = this.firstBySelector.get(selector);
    if (found === undefined) {
      found = first(this.root, selector);
      this.firstBySelector.set(selector, found);
    }
    return found;
  }

  /** The elements `selector` finds, in the page's order, read once. */
  private selected(selector: string): Element[] {
    let found = this.selections.get(selector);
    if (!found) {
      found = matching(this.root, selector);
      this.selections.set(selector, found);
    }
    return found;
  }

  /**
   * The elements `selector` (of `tag`) finds whose text is `text`, grouped by their look and their parent's
   * text (`look\u0000parent`), each group in the page's order: read once for every anchor of the pass.
   */
  private *showingByLook(tag: string, selector: string, text: string): Steps<Map<string, Element[]>> {
    const key = `${selector}\u0000${text}`;
    let groups = this.byLook.get(key);
    if (!groups) {
      yield* this.readingTexts();
      groups = new Map();
      for (const el of this.startingAs(text)) {
        if (el.localName === tag && this.textOf(el) === text && el.matches(selector)) {
          const group = `${this.lookOf(el)}\u0000${this.parentTextOf(el)}`;
          const members = groups.get(group);
          if (members) members.push(el);
          else groups.set(group, [el]);
        }
        if (this.deadline.due()) yield;
      }
      for (const members of groups.values()) members.sort(inPageOrder);
      this.byLook.set(key, groups);
    }
    return groups;
  }

  /** The page's text just before and after `el` (a quote's prefix and suffix), read once. */
  quoteOf(el: Element): { prefix: string; suffix: string } {
    let found = this.quotes.get(el);
    if (!found) {
      found = { prefix: textAround(el, 'before'), suffix: textAround(el, 'after') };
      this.quotes.set(el, found);
    }
    return found;
  }

  surroundingsOf(el: Element): Surroundings {
    let found = this.surroundings.get(el);
    if (!found) {
      found = { context: this.contextOf(el), ...this.quoteOf(el), box: el.getBoundingClientRect() };
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
        if (this.deadline.due()) yield;
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
    // Masked text is no text of the page (as `textOf` reads it): asked of each node only where
    // the page masks anything.
    const masks = masksWithin(top);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || SKIPPED.has(parent.tagName) || (masks && isMasked(parent))) continue;
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
      if (this.deadline.due()) yield;
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

export const textKey = (text: string) => lower(normalize(text).slice(0, 8));

export const SPACE = /\s/;

/**
 * `textKey` of a text node's value, read from its start only: a page has tens of thousands of
 * text nodes, most of them white space between tags, and normalising each whole costs more
 * than walking them.
 */
export function startKey(value: string): string {
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
