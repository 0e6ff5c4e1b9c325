// What the resolver reads of one page (a document or a shadow root), read once per pass.
import type { Anchor } from '@svc/contract';
import { AttributeValues, LOOK_ATTRIBUTES } from './attribute-values.js';
import {
  contentOf,
  contextOf,
  type Features,
  featuresOf,
  lookOf,
  nested,
  ofKind,
  parentText,
  stableClass,
  stableClasses,
  textAround,
  textOf,
} from './features.js';
import { first, inPageOrder, matching, type Root } from './selectors.js';
import type { Deadline, Steps } from './steps.js';
import { TextStarts } from './text-starts.js';
import { LOOK_ALIKES_READ } from './thresholds.js';

/** What is read of a candidate only when it is compared in full. */
export interface Surroundings {
  context: NonNullable<Anchor['context']>;
  prefix: string;
  suffix: string;
  box: DOMRect;
}

/** An element's shape (twins.ts), and how many elements it holds, itself included. */
export type ShapeRead = { shape: number; size: number };

/** `map`'s value for `key`, read once (`read`, the first time it is asked). */
function once<K, V>(map: Map<K, V>, key: K, read: () => V): V {
  const known = map.get(key);
  if (known !== undefined || map.has(key)) return known as V;
  const value = read();
  map.set(key, value);
  return value;
}

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
  private lookAlikesRead = 0;
  /** Elements by the start of their text (one walk of the page's text, when first asked). */
  readonly textStarts: TextStarts;
  /** Elements by the value of an attribute an anchor names. */
  readonly values: AttributeValues;

  constructor(
    readonly root: Root,
    private readonly deadline: Deadline,
  ) {
    this.textStarts = new TextStarts(root, deadline);
    this.values = new AttributeValues(root, deadline);
  }

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
    return once(this.contents, el, () => contentOf(el));
  }

  /** The text of its parent and nearest siblings. */
  contextOf(el: Element): NonNullable<Anchor['context']> {
    return once(this.contexts, el, () => contextOf(el, this.textOf(el), this.textOf));
  }

  /** The elements of `tag` showing `text` that look like `look` (see `lookOf`, of the same tag and text), in the page's order. */
  lookingLike(tag: string, text: string, look: string): Element[] {
    // With a text, among the elements whose text starts as it does (one walk of the page, shared
    // by the pass), rather than by reading every element of the tag.
    if (text) {
      let alike = this.alikeByText.get(look);
      if (!alike) {
        alike = this.textStarts
          .startingAs(text)
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
    return once(this.showingCounts, text, () => this.textStarts.showing(text, this.textOf));
  }

  /** How many elements have `tag` and at least `classes` (stable, see `ofKind`), counted once. */
  ofKindCount(tag: string, classes: readonly string[]): number {
    const key = `${tag} ${classes.join(' ')}`;
    return once(this.kinCounts, key, () => this.withTag(tag).filter((el) => ofKind(classes, stableClasses(el))).length);
  }

  /** The text of its closest ancestor that says more than it (see `parentText`), read once. */
  parentTextOf(el: Element): string {
    return once(this.parentTexts, el, () => parentText(el, this.textOf(el), this.textOf));
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
    if (f.text && (this.textStarts.read || this.lookAlikesRead + this.selected(selector).length > LOOK_ALIKES_READ)) {
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
    return once(this.firstBySelector, selector, () => first(this.root, selector));
  }

  /** The elements `selector` finds, in the page's order, read once. */
  private selected(selector: string): Element[] {
    return once(this.selections, selector, () => matching(this.root, selector));
  }

  /**
   * The elements `selector` (of `tag`) finds whose text is `text`, grouped by their look and their parent's
   * text (`look\u0000parent`), each group in the page's order: read once for every anchor of the pass.
   */
  private *showingByLook(tag: string, selector: string, text: string): Steps<Map<string, Element[]>> {
    const key = `${selector}\u0000${text}`;
    let groups = this.byLook.get(key);
    if (!groups) {
      yield* this.textStarts.reading();
      groups = new Map();
      for (const el of this.textStarts.startingAs(text)) {
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
    return once(this.quotes, el, () => ({ prefix: textAround(el, 'before'), suffix: textAround(el, 'after') }));
  }

  surroundingsOf(el: Element): Surroundings {
    return once(this.surroundings, el, () => ({
      context: this.contextOf(el),
      ...this.quoteOf(el),
      box: el.getBoundingClientRect(),
    }));
  }

  withTag(tag: string): Element[] {
    return once(this.byTag, tag, () => matching(this.root, CSS.escape(tag)));
  }
}
