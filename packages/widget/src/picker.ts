import { placeOf } from './dom.js';

/** A CSS selector that finds `el` again: an id or test id when unique, else a short nth-of-type path. */
export function selectorFor(el: Element): string {
  const unique = (selector: string) => {
    try {
      return document.querySelectorAll(selector).length === 1;
    } catch {
      return false;
    }
  };
  const steps: string[] = [];
  let node: Element | null = el;
  while (node && node !== document.documentElement) {
    if (node.id && !/\d{3,}|^[a-f0-9-]{16,}$/i.test(node.id) && unique(`#${CSS.escape(node.id)}`)) {
      steps.unshift(`#${CSS.escape(node.id)}`);
      break;
    }
    const testId = node.getAttribute('data-testid');
    if (testId && unique(`[data-testid="${CSS.escape(testId)}"]`)) {
      steps.unshift(`[data-testid="${CSS.escape(testId)}"]`);
      break;
    }
    const tag = node.tagName.toLowerCase();
    if (tag === 'body') {
      steps.unshift('body');
      break;
    }
    const parent: Element | null = node.parentElement;
    const sameTag = parent ? [...parent.children].filter((child) => child.tagName === node?.tagName) : [];
    steps.unshift(sameTag.length > 1 ? `${tag}:nth-of-type(${sameTag.indexOf(node) + 1})` : tag);
    if (unique(steps.join(' > '))) break;
    node = parent;
  }
  return steps.join(' > ');
}

export interface Picked {
  element: Element;
  selector: string;
  x: number;
  y: number;
}

/**
 * Lets the user pick an element of the page: an outline follows the pointer (or keyboard
 * focus), a click or Enter picks, Esc cancels. Events on the page are held while picking.
 */
export function pickElement(host: Element, outline: HTMLElement): { done: Promise<Picked | null>; cancel: () => void } {
  let finish: (picked: Picked | null) => void = () => {};
  const done = new Promise<Picked | null>((resolve) => {
    finish = resolve;
  });
  const ours = (target: EventTarget | null) => target instanceof Node && (target === host || host.contains(target));
  const show = (el: Element) => {
    const p = placeOf(el, host);
    Object.assign(outline.style, {
      display: 'block',
      left: `${p.left}px`,
      top: `${p.top}px`,
      width: `${p.width}px`,
      height: `${p.height}px`,
    });
  };
  const onMove = (event: MouseEvent) => {
    if (!ours(event.target) && event.target instanceof Element) show(event.target);
  };
  const onFocus = (event: FocusEvent) => {
    if (!ours(event.target) && event.target instanceof Element) show(event.target);
  };
  const block = (event: Event) => {
    if (ours(event.target)) return;
    event.preventDefault();
    event.stopPropagation();
  };
  const onClick = (event: MouseEvent) => {
    if (ours(event.target) || !(event.target instanceof Element)) return;
    block(event);
    const r = event.target.getBoundingClientRect();
    end({
      element: event.target,
      selector: selectorFor(event.target),
      x: Math.round(event.clientX - r.left),
      y: Math.round(event.clientY - r.top),
    });
  };
  const onKey = (event: KeyboardEvent) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      end(null);
    } else if (event.key === 'Enter' && document.activeElement && !ours(document.activeElement)) {
      block(event);
      const el = document.activeElement;
      end({ element: el, selector: selectorFor(el), x: 8, y: 8 });
    }
  };
  const listeners: [string, EventListener][] = [
    ['mousemove', onMove as EventListener],
    ['focusin', onFocus as EventListener],
    ['click', onClick as EventListener],
    ['mousedown', block],
    ['mouseup', block],
    ['keydown', onKey as EventListener],
  ];
  for (const [type, listener] of listeners) document.addEventListener(type, listener, true);
  document.documentElement.style.cursor = 'crosshair';
  function end(picked: Picked | null) {
    for (const [type, listener] of listeners) document.removeEventListener(type, listener, true);
    document.documentElement.style.cursor = '';
    outline.style.display = 'none';
    finish(picked);
  }
  return { done, cancel: () => end(null) };
}
