// Where a text is on a page: one walk of its text nodes files each element under the start of
// its text, so that the elements that may show a text are found without reading every element.
// Read once per pass (see RootIndex), at most once however many anchors ask.
import { type Masking, masksWithin } from '../mask.js';
import { maskedIn, normalize, SKIPPED } from './features.js';
import type { Root } from './selectors.js';
import type { Deadline, Steps } from './steps.js';

/** Elements by the start of a text: parents of text nodes, and elements by their first text. */
export interface TextIndex {
  parents: Map<string, Element[]>;
  firsts: Map<string, Element[]>;
}

/** A walk of the page's text nodes under way (see `TextStarts.reading`): what it filed so far. */
interface Walk {
  walker: TreeWalker;
  masks: boolean;
  byText: TextIndex;
  filed: Set<Element>;
}

export class TextStarts {
  private index: TextIndex | null = null;

  constructor(
    private readonly root: Root,
    /** When to stop for now, in a pass; none when read at once. */
    private readonly deadline: Deadline | undefined,
    /** What the page masks, read once and handed on (see features.ts's `maskedIn`); else asked of each node. */
    private readonly masking?: Masking,
  ) {}

  /** Whether the page's texts were read (in this pass). */
  get read(): boolean {
    return this.index !== null;
  }

  /**
   * One walk of the page's text nodes files each under the start of its text: the parents of
   * text nodes (see `withTextStart`), and each element under the start of its first text
   * (see `startingAs`).
   */
  *reading(): Steps<TextIndex> {
    if (this.index) return this.index;
    const walk = this.walk();
    while (!this.file(walk, () => this.deadline?.due() ?? false)) yield;
    this.index ??= walk.byText;
    return this.index;
  }

  /** The page's texts, read at once where they were not yet (see `reading`). */
  private texts(): TextIndex {
    if (this.index) return this.index;
    const walk = this.walk();
    this.file(walk, () => false);
    this.index ??= walk.byText;
    return this.index;
  }

  /** A walk of the page's text nodes, from its start. */
  private walk(): Walk {
    const root = this.root;
    // A shadow root's document is its owner; a document has none.
    const page = (root.ownerDocument ?? root) as Document;
    const top = root === page ? (page.body ?? page.documentElement) : root;
    // Masked text is no text of the page (as `textOf` reads it): asked of each node only where
    // the page masks anything.
    return {
      walker: page.createTreeWalker(top, NodeFilter.SHOW_TEXT),
      masks: this.masking ? this.masking.some : masksWithin(top),
      byText: { parents: new Map(), firsts: new Map() },
      filed: new Set(),
    };
  }

  /** Files the text nodes `walk` has left, until `due` says to stop for now; whether it got to the end. */
  private file(walk: Walk, due: () => boolean): boolean {
    const { walker, masks, byText, filed } = walk;
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const parent = node.parentElement;
      if (!parent || SKIPPED.has(parent.tagName) || (masks && maskedIn(parent, this.masking))) continue;
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
      if (due()) return false;
    }
    return true;
  }

  /** Every element whose text (see `textOf`) may be `text`: those whose first text node starts as `text` does. */
  startingAs(text: string): Element[] {
    const { firsts } = this.texts();
    const start = text.slice(0, 8).toLowerCase();
    const found: Element[] = [];
    for (let length = 1; length <= start.length; length += 1) found.push(...(firsts.get(start.slice(0, length)) ?? []));
    return found;
  }

  /** How many elements show `text` as the innermost element with all of it (a span in a link counts once); `textOf` reads their text. */
  showing(text: string, textOf: (el: Element) => string): number {
    return countShowing(this.startingAs(text), text, textOf);
  }

  /** Elements whose text starts like `text` (any tag): the parents of text nodes starting so, and their ancestors whose text starts there too. */
  withTextStart(text: string): Element[] {
    const found: Element[] = [];
    for (const parent of this.texts().parents.get(textKey(text)) ?? []) {
      let node: Element | null = parent;
      for (let level = 0; node && level < 4; level += 1, node = node.parentElement) found.push(node);
    }
    return found;
  }
}

/** How many elements of `root` show `text` (see `TextStarts.showing`), read at once by `masking`, outside a pass. */
export const showingOn = (root: Root, text: string, textOf: (el: Element) => string, masking: Masking) =>
  new TextStarts(root, undefined, masking).showing(text, textOf);

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

export const textKey = (text: string) => normalize(text).slice(0, 8).toLowerCase();

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
