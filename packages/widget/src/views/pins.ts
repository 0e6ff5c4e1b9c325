import { h } from '../dom.js';
import { currentPage, type Store } from '../store.js';

/** The element a comment is pinned to, or null when the page no longer has it (or the selector is bad). */
export function pageElement(selector: string): Element | null {
  try {
    return document.querySelector(selector);
  } catch {
    return null;
  }
}

/** A numbered pin on each open comment of this page whose element is still there. */
export function pinsView(store: Store, openComment: (id: string, pageUrl: string) => void): HTMLElement[] {
  const pins: HTMLElement[] = [];
  const onThisPage = store.comments.filter((c) => c.status === 'open' && c.anchor && c.pageUrl === currentPage());
  onThisPage.forEach((c, i) => {
    const target = pageElement(c.anchor?.selector ?? '');
    if (!target || !c.anchor) return;
    const r = target.getBoundingClientRect();
    pins.push(
      h(
        'button',
        {
          class: 'pin',
          type: 'button',
          style: `left:${r.left + scrollX + c.anchor.x}px;top:${r.top + scrollY + c.anchor.y}px`,
          'aria-label': `Comment by ${c.author.name}: ${c.body.slice(0, 60)}`,
          onClick: () => openComment(c.id, c.pageUrl),
        },
        String(i + 1),
      ),
    );
  });
  return pins;
}

/** Outlines an element for a moment, scrolled into view. */
export function flashView(selector: string): HTMLElement | null {
  const target = pageElement(selector);
  if (!target) return null;
  target.scrollIntoView({ block: 'center', behavior: 'smooth' });
  const r = target.getBoundingClientRect();
  return h('div', {
    class: 'flash',
    'data-flash': '',
    style: `left:${r.left + scrollX - 4}px;top:${r.top + scrollY - 4}px;width:${r.width + 8}px;height:${r.height + 8}px`,
  });
}
