// What can be read off an element to recognise it again: its text, accessible name, role,
// stable attributes and classes, label, and the text around it. The same readings describe
// the pinned element and every candidate when it is looked for, so they compare like for like.
// What the page masks (see mask.ts) is read as if it said nothing: its text, its value, the
// words of its attributes; an element pinned inside a mask is told by its tag, role, classes,
// id, test id, name, type, place and the text around it. Of a password field, its value alone.
// Asked of the page, or of what the element's root masks read once and handed on (see reading.ts).
import type { Anchor, AnchorAttributes } from '@svc/contract';
import { isMasked, isValueMasked, MASK_SELECTOR, type Masking, masksWithin } from '../mask.js';

export const TEXT_MAX = 200;
export const CONTEXT_MAX = 120;
export const QUOTE_CONTEXT_MAX = 64;
export const CONTENT_MAX = 200;

/** Elements whose text is not the page's. */
export const SKIPPED = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE']);

/** Whether nothing `node` says may be recorded (mask.ts's `isMasked`), by `masking` where one is handed on. */
export function maskedIn(node: Node, masking?: Masking): boolean {
  if (!masking || masking.all || !masking.some) return masking ? masking.all : isMasked(node);
  return (node.nodeType === 1 ? (node as Element) : node.parentElement)?.closest(MASK_SELECTOR) != null;
}

/** Whether what a field holds may not be recorded (see mask.ts's `isValueMasked`): by `masking` when one is handed on. */
const valueMaskedIn = (el: Element, masking?: Masking) =>
  masking ? masking.passwords.has(el) || maskedIn(el, masking) : isValueMasked(el);

/** White space collapsed and trimmed. */
export const normalize = (text: string) => text.replace(/\s+/g, ' ').trim();

/**
 * The element's text, white space collapsed, at most `max` characters: it reads only as many
 * text nodes as it needs, so a container's text costs no more than a button's.
 */
export function textOf(el: Node, max = TEXT_MAX, masking?: Masking): string {
  if (maskedIn(el, masking)) return '';
  // Most elements hold one text node: no walk needed.
  const only = el.firstChild;
  if (only && only === el.lastChild && only.nodeType === 3) return normalize(only.nodeValue ?? '').slice(0, max);
  const walker = (el.ownerDocument ?? (el as Document)).createTreeWalker(el, NodeFilter.SHOW_TEXT);
  const shown = shownText(masking ? masking.some : masksWithin(el), masking);
  let text = '';
  let parent: Element | null = null;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!shown(node)) continue;
    // Texts of different elements are different words ("General" and "Advanced" in two links).
    if (parent && node.parentElement !== parent) text += ' ';
    parent = node.parentElement;
    text += (node.nodeValue ?? '').replace(/\s+/g, ' ');
    if (text.length > max + 40) break;
  }
  return normalize(text).slice(0, max);
}

/**
 * Whether a text node is of the page's words: not a script's or a style's, not masked (asked
 * where `masks`: see `masksWithin`). Each element holding text is asked once in a row of its
 * text nodes.
 */
export function shownText(masks: boolean, masking?: Masking): (node: Node) => boolean {
  let parent: Element | null | undefined;
  let shown = false;
  return (node) => {
    if (node.parentElement !== parent) {
      parent = node.parentElement;
      shown = !parent || (!SKIPPED.has(parent.tagName) && !(masks && maskedIn(parent, masking)));
    }
    return shown;
  };
}

/** Whether one is inside the other (or they are the same). */
export const nested = (a: Element, b: Element) => a.contains(b) || b.contains(a);

/** An address as builds and tracking leave it: without its query, nor a build hash in its file name; its fragment, which names a place, kept. */
export const lastingUrl = (url: string) => url.replace(/\?[^#]*/, '').replace(/[.-][\da-f]{6,}(?=\.\w+(?:#|$))/i, '');

/** Reads an element's text; an index passes one that remembers. */
export type TextReader = (el: Element) => string;
const readText: TextReader = (el) => textOf(el);

/** Reads an element's text by `masking` (see `maskedIn`). */
export function textReaderOf(masking: Masking): TextReader {
  return (el) => textOf(el, TEXT_MAX, masking);
}

/** Ids and classes that a build or a framework makes up (`:r3:`, `ember412`, `css-1x2y3z`, `Button_root__3xYz1`). */
export function looksGenerated(value: string): boolean {
  if (/[:«»]|\d{3,}|^[\da-f]{8,}$|^[\da-f]{8}-/i.test(value)) return true;
  if (/^(css|sc|jsx|svelte|emotion|styled|jss|tw)-|__[\w-]{5,}$/i.test(value)) return true;
  // A part of letters and digits mixed, as hashes are: "3xYz1", "a1b2c".
  return value.split(/[-_]/).some((part) => part.length >= 5 && /\d/.test(part) && /[a-z]/i.test(part));
}

const INPUT_ROLES: Record<string, string> = {
  search: 'searchbox',
  checkbox: 'checkbox',
  radio: 'radio',
  button: 'button',
  submit: 'button',
  reset: 'button',
  image: 'button',
  range: 'slider',
  number: 'spinbutton',
};

const TAG_ROLES: Record<string, string> = {
  button: 'button',
  img: 'img',
  textarea: 'textbox',
  ...Object.fromEntries(['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((tag) => [tag, 'heading'])),
  li: 'listitem',
  ul: 'list',
  ol: 'list',
  nav: 'navigation',
  table: 'table',
  tr: 'row',
  td: 'cell',
  th: 'columnheader',
  form: 'form',
  main: 'main',
  aside: 'complementary',
  dialog: 'dialog',
  p: 'paragraph',
  article: 'article',
  option: 'option',
  progress: 'progressbar',
  figure: 'figure',
};

/** Its ARIA role: the `role` attribute's first word, else the one its tag implies. */
export function roleOf(el: Element): string {
  const explicit = el.getAttribute('role')?.trim().split(/\s+/)[0];
  if (explicit) return explicit;
  const tag = el.localName;
  if (tag === 'a' || tag === 'area') return el.hasAttribute('href') ? 'link' : '';
  if (tag === 'input') return INPUT_ROLES[(el as HTMLInputElement).type] ?? 'textbox';
  if (tag === 'select') return (el as HTMLSelectElement).multiple ? 'listbox' : 'combobox';
  if (tag === 'header' || tag === 'footer') {
    return el.closest('main, article, aside, nav, section') ? '' : tag === 'header' ? 'banner' : 'contentinfo';
  }
  if (tag === 'section') return el.hasAttribute('aria-label') || el.hasAttribute('aria-labelledby') ? 'region' : '';
  return TAG_ROLES[tag] ?? '';
}

/** Roles whose accessible name is their text. */
const NAMED_BY_CONTENT = new Set([
  'button',
  'link',
  'heading',
  'cell',
  'columnheader',
  'rowheader',
  'tab',
  'menuitem',
  'option',
  'checkbox',
  'radio',
  'switch',
  'treeitem',
]);

const attr = (el: Element, name: string) => el.getAttribute(name)?.trim() || '';

/** The text of the `<label>` of a form field. */
export function labelOf(el: Element, masking?: Masking): string {
  const labels = (el as HTMLInputElement).labels;
  return labels?.[0] ? textOf(labels[0], TEXT_MAX, masking) : '';
}

/** Its accessible name, as far as it can be told cheaply: aria-labelledby, aria-label, alt, its label, its text when its role is named by content, title. */
export function nameOf(el: Element, role: string, read: TextReader = readText, masking?: Masking): string {
  const root = el.getRootNode() as Document | ShadowRoot;
  const labelledBy = attr(el, 'aria-labelledby');
  if (labelledBy) {
    const named = normalize(
      labelledBy
        .split(/\s+/)
        .map((id) => (root.getElementById?.(id) ? textOf(root.getElementById(id) as Element, TEXT_MAX, masking) : ''))
        .join(' '),
    );
    if (named) return named.slice(0, TEXT_MAX);
  }
  // Masked, its own words are not read: only a <label> may name it (as masked as that is).
  if (maskedIn(el, masking)) return labelOf(el, masking);
  const label = attr(el, 'aria-label') || attr(el, 'alt');
  if (label) return normalize(label).slice(0, TEXT_MAX);
  const tag = el.localName;
  if (tag === 'input' || tag === 'select' || tag === 'textarea') {
    const type = (el as HTMLInputElement).type;
    if (tag === 'input' && (type === 'submit' || type === 'button' || type === 'reset')) {
      return normalize((el as HTMLInputElement).value).slice(0, TEXT_MAX);
    }
    return labelOf(el, masking) || normalize(attr(el, 'placeholder') || attr(el, 'title')).slice(0, TEXT_MAX);
  }
  if (NAMED_BY_CONTENT.has(role)) {
    const text = read(el);
    if (text) return text;
  }
  return normalize(attr(el, 'title')).slice(0, TEXT_MAX);
}

const TEST_ID_ATTRIBUTES = ['data-testid', 'data-test', 'data-test-id', 'data-cy', 'data-qa'];

/** Attributes that name what an element is rather than its state; an id only when it does not look generated. */
export function stableAttributes(el: Element, masking?: Masking): AnchorAttributes {
  const found: AnchorAttributes = {};
  const keep = (key: keyof AnchorAttributes, value: string) => {
    if (value) found[key] = value.slice(0, 300);
  };
  if (el.id && !looksGenerated(el.id)) keep('id', el.id);
  for (const name of TEST_ID_ATTRIBUTES) {
    const value = attr(el, name);
    if (value) {
      keep('testId', value);
      break;
    }
  }
  keep('name', attr(el, 'name'));
  if (el.localName === 'input' || el.localName === 'button') keep('type', attr(el, 'type'));
  // A masked element's words and addresses are not read: its names for the code are.
  if (maskedIn(el, masking)) return found;
  keep('href', attr(el, 'href'));
  keep('src', attr(el, 'src'));
  keep('alt', attr(el, 'alt'));
  keep('ariaLabel', attr(el, 'aria-label'));
  keep('placeholder', attr(el, 'placeholder'));
  keep('title', attr(el, 'title'));
  return found;
}

/** Classes that say a passing state (`is-active`, `open`, `selected`), not what the element is: they come and go. */
const STATE_CLASS =
  /^(?:(?:is|has)-[\w-]+|active|current|selected|open|opened|show|shown|in|expanded|collapsed|disabled|checked|focus(?:ed)?|hover(?:ed)?|visible|loading)$/i;

/** Whether a class says what the element is, rather than a state it passes through. */
export const lastingClass = (name: string) => !STATE_CLASS.test(name);

/**
 * A class as it stays from build to build: CSS modules' `title__x8k2q` and `_title_1x2y3_12`
 * keep their local name; a class that is all hash (`css-1x2y3z`, `sc-bdVaJa`) or that says a
 * state (`is-active`) is left out.
 */
export function stableClass(name: string): string | null {
  const local = /^(.+?)__[\w-]{5,}$/.exec(name)?.[1] ?? /^_(.+)_[a-z\d]{5}_\d+$/i.exec(name)?.[1] ?? name;
  return looksGenerated(local) || !lastingClass(local) ? null : local;
}

/** Its classes as they stay from build to build (see `stableClass`). */
export function stableClasses(el: Element): string[] {
  const classes: string[] = [];
  for (const name of el.classList) {
    const stable = stableClass(name);
    if (stable && !classes.includes(stable)) classes.push(stable);
    if (classes.length === 12) break;
  }
  return classes;
}

/** What an element looks like, in one string: look-alikes have the same. */
export function lookOf(tag: string, text: string, classes: readonly string[], attributes: AnchorAttributes): string {
  const { id, ...rest } = attributes;
  const sorted = Object.entries(rest).sort(([a], [b]) => (a < b ? -1 : 1));
  return JSON.stringify([tag, text, classes, sorted]);
}

/** Whether an element with `classes` is of the kind of one with `pinned` classes: it has them all, perhaps more. */
export const ofKind = (pinned: readonly string[], classes: readonly string[]) =>
  pinned.every((name) => classes.includes(name));

/** What is read off every candidate: cheap, and bounded whatever the element's size. */
export interface Features {
  tag: string;
  role: string;
  name: string;
  text: string;
  attributes: AnchorAttributes;
  classes: string[];
  label: string;
}

export function featuresOf(el: Element, text: TextReader = readText, masking?: Masking): Features {
  const role = roleOf(el);
  const field = el.localName === 'input' || el.localName === 'select' || el.localName === 'textarea';
  return {
    tag: el.localName,
    role,
    name: nameOf(el, role, text, masking),
    text: text(el),
    attributes: stableAttributes(el, masking),
    classes: stableClasses(el),
    label: field ? labelOf(el, masking) : '',
  };
}

/** Elements inside a text-less element read for its `contentOf`. */
const CONTENT_ELEMENTS = 8;
/** Attributes that say what an element inside another is (an icon's picture, a link's target, a field's name). */
const CONTENT_ATTRIBUTES = ['src', 'href', 'alt', 'name', 'value', 'type', 'aria-label', 'title'];
/** Of those, the ones read of a masked element: its names for the code, not its words. */
const MASKED_CONTENT_ATTRIBUTES = ['name', 'type'];
/** Of those, the ones read of a password field: all but what it holds. */
const PASSWORD_CONTENT_ATTRIBUTES = CONTENT_ATTRIBUTES.filter((name) => name !== 'value');

/** The attributes of `child` that `contentOf` reads: a masked element's names, a password field's all but its value. */
const contentAttributes = (child: Element, masking?: Masking) =>
  maskedIn(child, masking)
    ? MASKED_CONTENT_ATTRIBUTES
    : valueMaskedIn(child, masking)
      ? PASSWORD_CONTENT_ATTRIBUTES
      : CONTENT_ATTRIBUTES;

/**
 * What an element without text holds, in a line: the tags, lasting classes and naming
 * attributes of the first elements inside it (a swatch's checkbox and colour, a link's icon);
 * for a checkbox or a radio button, its value. Look-alikes without text differ by it. Empty
 * when it holds nothing that says so.
 */
export function contentOf(el: Element, masking?: Masking): string {
  const type = el.localName === 'input' ? attr(el, 'type').toLowerCase() : '';
  if (type === 'checkbox' || type === 'radio')
    return valueMaskedIn(el, masking) ? '' : normalize(attr(el, 'value')).slice(0, CONTENT_MAX);
  const inside = el.getElementsByTagName('*');
  const parts: string[] = [];
  for (let i = 0; i < inside.length && i < CONTENT_ELEMENTS; i += 1) {
    const child = inside[i] as Element;
    const said = contentAttributes(child, masking).flatMap((name) => {
      const value = attr(child, name);
      // An address as a new build or a tracking parameter leaves it.
      const kept = name === 'href' || name === 'src' ? lastingUrl(value) : value;
      return kept && !looksGenerated(kept) ? [`[${name}=${kept.slice(0, 60)}]`] : [];
    });
    parts.push([child.localName, ...stableClasses(child).map((name) => `.${name}`), ...said].join(''));
  }
  return normalize(parts.join(' ')).slice(0, CONTENT_MAX);
}

/** The text of the closest ancestor (up to four levels) that says more than the element itself. */
export function parentText(el: Element, own: string, read: TextReader = readText): string {
  let node = el.parentElement;
  for (let level = 0; node && level < 4; level += 1, node = node.parentElement) {
    const text = read(node).slice(0, CONTEXT_MAX);
    if (text && text !== own.slice(0, CONTEXT_MAX)) return text;
  }
  return '';
}

/** The text of the nearest sibling with any, before or after the element (up to three siblings away). */
export function siblingText(el: Element, direction: 'previous' | 'next', read: TextReader = readText): string {
  let node = direction === 'previous' ? el.previousElementSibling : el.nextElementSibling;
  for (let step = 0; node && step < 3; step += 1) {
    const text = read(node).slice(0, CONTEXT_MAX);
    if (text) return text;
    node = direction === 'previous' ? node.previousElementSibling : node.nextElementSibling;
  }
  return '';
}

/** The page's text just before or just after the element, outside it (a quote's prefix or suffix). */
export function textAround(
  el: Element,
  direction: 'before' | 'after',
  max = QUOTE_CONTEXT_MAX,
  masking?: Masking,
): string {
  const root = el.ownerDocument.body ?? el.ownerDocument.documentElement;
  if (!root.contains(el)) return '';
  const walker = el.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  let start: Node = el;
  if (direction === 'after') while (start.lastChild) start = start.lastChild;
  walker.currentNode = start;
  const parts: string[] = [];
  const shown = shownText(masking ? masking.some : masksWithin(el), masking);
  let length = 0;
  while (length < max) {
    const node = direction === 'before' ? walker.previousNode() : walker.nextNode();
    if (!node) break;
    if (!shown(node)) continue;
    const text = (node.nodeValue ?? '').replace(/\s+/g, ' ');
    if (direction === 'before') parts.unshift(text);
    else parts.push(text);
    length += text.trim().length;
  }
  const text = normalize(parts.join(''));
  return direction === 'before' ? text.slice(-max) : text.slice(0, max);
}

/** The text around the element: its parent's and its nearest siblings' (only the parts it has). */
export function contextOf(el: Element, own: string, read?: TextReader): NonNullable<Anchor['context']> {
  const context: NonNullable<Anchor['context']> = {};
  const parent = parentText(el, own, read).slice(0, CONTEXT_MAX);
  const previous = siblingText(el, 'previous', read);
  const next = siblingText(el, 'next', read);
  if (parent) context.parent = parent;
  if (previous) context.previous = previous;
  if (next) context.next = next;
  return context;
}
