// What a page keeps to itself: anything marked `data-svc-mask` (a customer's name, a card
// number), and what a password field holds. Masked in pictures (screenshot.ts: a masked element
// blanked, a password field's value emptied), and so in every text the widget records with a
// comment: the anchor's texts, attributes and content (anchoring/features.ts), the page's title
// and errors (`maskedContext`). One rule, here, for each of those: a later feature that records
// the page's words asks `isMasked` (and, for what a field holds, `isValueMasked`) too, or reads
// what a root masks once (`maskingOf`) where it reads much of one root, as describing an element does.
import type { CaptureContext } from '@svc/contract';

/** What a page puts on an element whose content must not leave it. */
export const MASK_SELECTOR = '[data-svc-mask]';

/** What stands in a recorded text for the words of the page that were masked. */
const MASKED = '[masked]';

/** Shorter masked words are left in errors and titles: "5" would blank every five. */
const MASKED_WORDS_MIN = 3;

/** A password field: its value is masked (as in a picture), not its label or placeholder. */
export const isPasswordField = (el: Element) =>
  el.localName === 'input' && (el as HTMLInputElement).type === 'password';

type Root = Document | ShadowRoot;

/** `Node.ELEMENT_NODE`, read once rather than from the window at each call. */
const ELEMENT = 1;

/** What a document or shadow root masks: nothing (most pages), some of it, or all of it (held by a masked host or frame). */
enum Masks {
  None,
  Some,
  All,
}

/**
 * What each root masks, remembered for the rest of the task: the widget reads a page (a pass
 * of the anchoring) in one task, no page code running meanwhile; the next task asks again.
 * The last root asked is kept apart: it is nearly always the one asked next.
 */
let known: Map<Node, Masks> | null = null;
let last: { root: Node; masks: Masks } | null = null;

function masksOf(root: Node): Masks {
  if (last?.root === root) return last.masks;
  // Not in a document (a detached element is its own root): asked of each element.
  if (root.nodeType === ELEMENT) return Masks.Some;
  if (!known) {
    known = new Map();
    queueMicrotask(() => {
      known = null;
      last = null;
    });
  }
  let masks = known.get(root);
  if (masks === undefined) {
    const holder = (root as ShadowRoot).host ?? (root as Document).defaultView?.frameElement ?? null;
    masks =
      holder && isMasked(holder) ? Masks.All : (root as Root).querySelector(MASK_SELECTOR) ? Masks.Some : Masks.None;
    known.set(root, masks);
  }
  last = { root, masks };
  return masks;
}

/**
 * Whether nothing `node` says may be recorded (its text, its value, the words of its
 * attributes): inside an element marked `data-svc-mask`, through the shadow roots and iframes
 * it is in.
 */
export function isMasked(node: Node): boolean {
  // A text node by its element, a shadow root by its host.
  const el: Element | null =
    node.nodeType === ELEMENT ? (node as Element) : (node.parentElement ?? (node as ShadowRoot).host ?? null);
  if (!el) return false;
  const masks = masksOf(el.getRootNode());
  return masks === Masks.All || (masks === Masks.Some && el.closest(MASK_SELECTOR) !== null);
}

/**
 * Whether anything in `node`'s document or shadow root may be masked: where nothing is, its
 * text is read without asking node by node.
 */
export const masksWithin = (node: Node) => masksOf(node.getRootNode()) !== Masks.None;

/**
 * What one document or shadow root masks, read once and handed on (describing an element reads
 * all of it with one: anchoring/reading.ts): all of it (held by a masked host or frame), what
 * is inside an element marked `data-svc-mask` where `some` is, and what its password fields hold.
 */
export interface Masking {
  readonly all: boolean;
  readonly some: boolean;
  readonly passwords: ReadonlySet<Element>;
}

/** What `node`'s document or shadow root masks (see `Masking`), read now. */
export function maskingOf(node: Node): Masking {
  const root = node.getRootNode();
  const masks = masksOf(root);
  const fields = (root as Root).querySelectorAll?.('input') ?? [];
  const within = root.nodeType === ELEMENT ? [root as Element, ...fields] : fields;
  return {
    all: masks === Masks.All,
    some: masks !== Masks.None,
    passwords: new Set([...within].filter(isPasswordField)),
  };
}

/** Whether what a field holds (its value) may not be recorded: a password field's, or a masked field's. */
export const isValueMasked = (el: Element) => isPasswordField(el) || isMasked(el);

/**
 * The words of the page that are masked, longest first: the texts of masked elements (each
 * whole, and each of their text nodes) and the values of masked fields and password fields.
 */
export function maskedWords(doc: Document = document): string[] {
  const words = new Set<string>();
  const add = (text: string | null | undefined) => {
    const word = text?.replace(/\s+/g, ' ').trim();
    if (word && word.length >= MASKED_WORDS_MIN) words.add(word);
  };
  for (const el of doc.querySelectorAll(`${MASK_SELECTOR}, ${MASK_SELECTOR} *, input[type=password]`)) {
    if (el.localName === 'input' || el.localName === 'textarea') add((el as HTMLInputElement).value);
    for (const child of el.childNodes) if (child.nodeType === Node.TEXT_NODE) add(child.nodeValue);
    if (el.matches(MASK_SELECTOR)) add(el.textContent);
  }
  return [...words].sort((a, b) => b.length - a.length);
}

/** `text` with every masked word of the page in it replaced by `[masked]`. */
export function withoutMasked(text: string, words: readonly string[]): string {
  let said = text;
  for (const word of words) said = said.split(word).join(MASKED);
  return said;
}

/**
 * The context of a comment as it may leave the page: the masked words of the page taken out
 * of its title, its errors' messages and addresses, and its steps' words, paths and requests'
 * addresses (an app logs what it shows, asks for it by name, routes to it, and titles a page
 * with it).
 */
export function maskedContext(context: CaptureContext, doc: Document = document): CaptureContext {
  const words = maskedWords(doc);
  if (!words.length) return context;
  return {
    ...context,
    title: withoutMasked(context.title, words),
    errors: context.errors.map((error) => ({
      ...error,
      message: withoutMasked(error.message, words),
      ...(error.url ? { url: withoutMasked(error.url, words) } : {}),
    })),
    ...(context.actions && {
      actions: context.actions.map((action) => ({
        ...action,
        ...(action.name ? { name: withoutMasked(action.name, words) } : {}),
        ...(action.path ? { path: withoutMasked(action.path, words) } : {}),
      })),
    }),
    ...(context.requests && {
      requests: context.requests.map((request) => ({ ...request, url: withoutMasked(request.url, words) })),
    }),
  };
}
