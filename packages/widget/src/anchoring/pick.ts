// Picking the element a comment is about: an outline follows the pointer (or keyboard focus)
// into open shadow roots and same-origin iframes; a click, a tap, Enter or the picking shortcut
// picks. While picking, the page sees none of the pointer's presses, so a menu that closes on
// an outside click stays open; started from the shortcut, picking moves no focus, so an inline
// editor or a hover state can be pinned too.
import type { Anchor } from '@svc/contract';
import { matchesShortcut, type Shortcut } from '../config.js';
import { boxInTop } from '../geometry.js';
import { describeElement } from './describe.js';
import { isElement } from './selectors.js';

export interface Picked {
  element: Element;
  anchor: Anchor;
}

/** The documents picking listens to: the page's and those of its same-origin iframes (nested too). */
function documentsOf(doc: Document): Document[] {
  const found = [doc];
  for (const frame of doc.querySelectorAll('iframe, frame')) {
    try {
      const inner = (frame as HTMLIFrameElement).contentDocument;
      if (inner) found.push(...documentsOf(inner));
    } catch {
      // Another origin: its elements cannot be read, so they cannot be pinned.
    }
  }
  return found;
}

/** The element an event is really about: inside open shadow roots, not their host. */
function targetOf(event: Event): Element | null {
  const first = event.composedPath()[0] as Node | undefined;
  return isElement(first) ? first : (first?.parentElement ?? null);
}

/** How far a touch may move, in CSS pixels, and still be a tap. */
const TAP_SLOP = 10;

/**
 * Lets the user pick an element. `show` draws the outline (null hides it); `shortcut`, when
 * given, picks what the pointer is over (or what has focus) when pressed.
 */
export function pickElement(options: {
  host: Element;
  show: (box: DOMRect | null) => void;
  shortcut: Shortcut | null;
}): { done: Promise<Picked | null>; cancel: () => void } {
  const { host, show, shortcut } = options;
  let finish: (picked: Picked | null) => void = () => {};
  const done = new Promise<Picked | null>((resolve) => {
    finish = resolve;
  });
  let hovered: Element | null = null;
  /** The widget's own: the host, or anything in it or in its shadow root (the hint's button). */
  const ours = (target: Element | null) => {
    for (let node: Node | null = target; node; node = (node.getRootNode() as ShadowRoot).host ?? null) {
      if (node === host || host.contains(node)) return true;
    }
    return false;
  };
  const over = (el: Element | null) => {
    if (!el || ours(el)) return;
    hovered = el;
    show(boxInTop(el));
  };
  const pick = (el: Element, x: number, y: number) => end({ element: el, anchor: describeElement(el, { x, y }) });
  const block = (event: Event) => {
    if (ours(targetOf(event))) return;
    event.preventDefault();
    event.stopPropagation();
    event.stopImmediatePropagation();
  };
  const onMove = (event: Event) => over(targetOf(event));
  const onClick = (event: Event) => {
    const el = targetOf(event);
    if (!el || ours(el)) return;
    block(event);
    const box = el.getBoundingClientRect();
    const mouse = event as MouseEvent;
    pick(el, mouse.clientX - box.left, mouse.clientY - box.top);
  };
  // A tap picks as it ends: the page sees neither end of it, and the click the browser would
  // make of it is cancelled (picking is over by then, so the page would get it). A touch that
  // moved is a scroll, which the page is left to do.
  let tapFrom: { x: number; y: number } | null = null;
  const onTouchStart = (event: Event) => {
    if (ours(targetOf(event))) return;
    event.stopPropagation();
    event.stopImmediatePropagation();
    const touch = (event as TouchEvent).touches[0];
    tapFrom = touch ? { x: touch.clientX, y: touch.clientY } : null;
  };
  const onTouchEnd = (event: Event) => {
    const el = targetOf(event);
    if (!el || ours(el)) return;
    block(event);
    const touch = (event as TouchEvent).changedTouches[0];
    if (!touch || !tapFrom || Math.hypot(touch.clientX - tapFrom.x, touch.clientY - tapFrom.y) > TAP_SLOP) return;
    const box = el.getBoundingClientRect();
    pick(el, touch.clientX - box.left, touch.clientY - box.top);
  };
  const onKey = (event: Event) => {
    const key = event as KeyboardEvent;
    if (key.key === 'Escape') {
      // Wherever focus is, the hint's button included: the panel this reopens must not take
      // the same Esc as its own.
      event.preventDefault();
      event.stopImmediatePropagation();
      end(null);
      return;
    }
    const focused = targetOf(event);
    if (shortcut && matchesShortcut(key, shortcut)) {
      block(event);
      const el = hovered ?? focused;
      if (el && !ours(el)) pick(el, 8, 8);
    } else if (key.key === 'Enter' && focused && !ours(focused) && focused !== focused.ownerDocument.body) {
      block(event);
      pick(focused, 8, 8);
    }
  };
  const listeners: [string, EventListener][] = [
    ['pointermove', onMove],
    ['focusin', onMove],
    ['click', onClick],
    ['pointerdown', block],
    ['pointerup', block],
    ['mousedown', block],
    ['mouseup', block],
    ['touchstart', onTouchStart],
    ['touchend', onTouchEnd],
    ['keydown', onKey],
  ];
  const documents = documentsOf(document);
  for (const doc of documents) {
    // On the window, in the capture phase: before any listener of the page sees the event.
    const target = doc.defaultView ?? doc;
    for (const [type, listener] of listeners) target.addEventListener(type, listener, { capture: true });
    doc.documentElement.style.cursor = 'crosshair';
  }
  function end(picked: Picked | null) {
    for (const doc of documents) {
      const target = doc.defaultView ?? doc;
      for (const [type, listener] of listeners) target.removeEventListener(type, listener, { capture: true });
      doc.documentElement.style.cursor = '';
    }
    show(null);
    finish(picked);
  }
  return { done, cancel: () => end(null) };
}
