import { h, placeOf } from '../dom.js';
import type { Store } from '../store.js';

/** The element a comment is pinned to, or null when the page no longer has it (or the selector is bad). */
export function pageElement(selector: string): Element | null {
  try {
    return document.querySelector(selector);
  } catch {
    return null;
  }
}

/**
 * A numbered pin on each open comment of this page whose element is still there, at the
 * element's top-right corner (beside its content, not over it), numbered like its card.
 */
export function pinsView(
  store: Store,
  host: Element,
  openComment: (id: string, pageUrl: string) => void,
): HTMLElement[] {
  const pins: HTMLElement[] = [];
  for (const [id, number] of store.pinNumbers()) {
    const c = store.comment(id);
    const target = pageElement(c?.anchor?.selector ?? '');
    if (!c || !target) continue;
    const p = placeOf(target, host);
    pins.push(
      h(
        'button',
        {
          class: 'pin',
          type: 'button',
          style: `left:${p.left + p.width}px;top:${p.top}px`,
          'aria-label': `Comment ${number} by ${c.author.name}: ${c.body.slice(0, 60)}`,
          onClick: () => openComment(c.id, c.pageUrl),
        },
        String(number),
      ),
    );
  }
  return pins;
}

/** Outlines an element for a moment, scrolled into view. */
export function flashView(selector: string, host: Element): HTMLElement | null {
  const target = pageElement(selector);
  if (!target) return null;
  target.scrollIntoView({ block: 'center' });
  const p = placeOf(target, host);
  return h('div', {
    class: 'flash',
    'data-flash': '',
    style: `left:${p.left - 4}px;top:${p.top - 4}px;width:${p.width + 8}px;height:${p.height + 8}px`,
  });
}
