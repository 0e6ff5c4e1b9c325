// What a page keeps to itself: anything marked `data-svc-mask` (a customer's name, a card
// number) and every password field. Blank in pictures (screenshot.ts), and left out of every
// text the widget records with a comment: the anchor's texts, attributes and content
// (anchoring/features.ts), the page's title and errors (`maskedContext`). One rule, here, for
// each of those: a later feature that records the page's words asks `isMasked` too.
import type { CaptureContext } from '@svc/contract';

/** What a page puts on an element whose content must not leave it. */
export const MASK_SELECTOR = '[data-svc-mask]';

/** What stands in a recorded text for the words of the page that were masked. */
const MASKED = '[masked]';

/** Shorter masked words are left in errors and titles: "5" would blank every five. */
const MASKED_WORDS_MIN = 3;

const isPasswordField = (el: Element) => el.localName === 'input' && (el as HTMLInputElement).type === 'password';

/**
 * Whether nothing `node` says may be recorded (its text, its value, the words of its
 * attributes): inside an element marked `data-svc-mask` (through shadow roots and the
 * iframes it is in), or a password field.
 */
export function isMasked(node: Node): boolean {
  // A text node by its element, a shadow root by its host.
  let el: Element | null =
    node.nodeType === Node.ELEMENT_NODE ? (node as Element) : (node.parentElement ?? (node as ShadowRoot).host ?? null);
  if (el && isPasswordField(el)) return true;
  while (el) {
    if (el.closest(MASK_SELECTOR)) return true;
    const root = el.getRootNode();
    el = (root as ShadowRoot).host ?? (root as Document).defaultView?.frameElement ?? null;
  }
  return false;
}

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
 * of its title and its errors' messages and addresses (an app logs what it shows, asks for it
 * by name, and titles a page with it).
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
  };
}
