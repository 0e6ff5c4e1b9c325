// Selectors of different kinds for one element: each breaks under a different change (an id
// regenerated, a class renamed, a sibling inserted), so together they survive more than one.
import type { AnchorFrame } from '@svc/contract';
import type { Features } from './features.js';

export type Root = Document | ShadowRoot;

/** Whether `root` is a document (not a shadow root); by node type, as an iframe's nodes are of another window's classes. */
export const isDocument = (root: Node): root is Document => root.nodeType === Node.DOCUMENT_NODE;

/** Whether `node` is a shadow root. */
export const isShadowRoot = (node: Node): node is ShadowRoot =>
  node.nodeType === Node.DOCUMENT_FRAGMENT_NODE && 'host' in node;

/** Whether `node` is an element, whatever window it comes from. */
export const isElement = (node: unknown): node is Element => (node as Node | null)?.nodeType === Node.ELEMENT_NODE;

/** Sorts elements in the page's order. */
export const inPageOrder = (a: Element, b: Element) =>
  a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;

/** Every element of `root` matching `selector`; none when the selector is not valid. */
export function matching(root: Root, selector: string): Element[] {
  try {
    return [...root.querySelectorAll(selector)];
  } catch {
    return [];
  }
}

/** The first element of `root` matching `selector`, or null (also when the selector is not valid). */
export function first(root: Root, selector: string): Element | null {
  try {
    return root.querySelector(selector);
  } catch {
    return null;
  }
}

const unique = (root: Root, selector: string) => matching(root, selector).length === 1;

const quote = (value: string) => `"${CSS.escape(value)}"`;

/**
 * The short structural selector anchors have always carried: an id or test id when unique,
 * else a `tag:nth-of-type(n)` path, as short as stays unique.
 */
export function pathSelector(el: Element, root: Root = el.getRootNode() as Root): string {
  const steps: string[] = [];
  let node: Element | null = el;
  while (node?.parentNode) {
    if (node.id && !/\d{3,}|^[a-f0-9-]{16,}$/i.test(node.id) && unique(root, `#${CSS.escape(node.id)}`)) {
      steps.unshift(`#${CSS.escape(node.id)}`);
      break;
    }
    const testId = node.getAttribute('data-testid');
    if (testId && unique(root, `[data-testid=${quote(testId)}]`)) {
      steps.unshift(`[data-testid=${quote(testId)}]`);
      break;
    }
    const tag = node.localName;
    if (tag === 'body' || tag === 'html') {
      steps.unshift(tag);
      break;
    }
    const parent: Element | null = node.parentElement;
    const same = parent ? [...parent.children].filter((child) => child.localName === tag) : [];
    steps.unshift(same.length > 1 ? `${CSS.escape(tag)}:nth-of-type(${same.indexOf(node) + 1})` : CSS.escape(tag));
    if (unique(root, steps.join(' > '))) break;
    node = parent;
  }
  return steps.join(' > ');
}

/**
 * Other unique selectors for the element: by a stable id or test id, by naming attributes, by
 * classes (within `scopeId`, the stable id of the closest element around it with an id, when
 * it has one).
 */
export function otherSelectors(features: Features, scopeId: string | undefined, root: Root, primary: string): string[] {
  const tag = CSS.escape(features.tag);
  const found: string[] = [];
  const consider = (selector: string) => {
    if (found.length < 4 && selector !== primary && !found.includes(selector) && unique(root, selector)) {
      found.push(selector);
    }
  };
  const a = features.attributes;
  if (a.id) consider(`#${CSS.escape(a.id)}`);
  if (a.testId) consider(`[data-testid=${quote(a.testId)}]`);
  const named: [string, string | undefined][] = [
    ['name', a.name],
    ['href', a.href],
    ['src', a.src],
    ['alt', a.alt],
    ['aria-label', a.ariaLabel],
    ['placeholder', a.placeholder],
    ['title', a.title],
  ];
  for (const [name, value] of named) {
    if (value) {
      consider(`${tag}[${name}=${quote(value)}]`);
      break;
    }
  }
  if (features.classes.length) {
    const classes = features.classes
      .slice(0, 3)
      .map((name) => `.${CSS.escape(name)}`)
      .join('');
    consider(`${tag}${classes}`);
    // Within the closest ancestor with a stable id, when the classes alone are shared.
    if (scopeId !== undefined) consider(`#${CSS.escape(scopeId)} ${tag}${classes}`);
  }
  return found;
}

/** The shadow roots and same-origin iframes between the top document and `el`, outermost first. */
export function framesOf(el: Element): AnchorFrame[] {
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
