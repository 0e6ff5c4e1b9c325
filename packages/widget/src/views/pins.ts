import { h, placeOf } from '../dom.js';
import { pinNumbers } from '../pinned.js';
import type { Store } from '../store.js';

/**
 * A numbered pin on each comment of this page whose element is found, beside the element's
 * content (see anchoring/pin-spot.ts), numbered like its card. A doubtful
 * match ("moved?") is marked; a pin whose element is hidden or scrolled away hides with it.
 */
export function pinsView(store: Store, openComment: (id: string, pageUrl: string) => void): HTMLElement[] {
  const pins: HTMLElement[] = [];
  for (const [id, number] of pinNumbers(store)) {
    const c = store.comment(id);
    const placed = store.view.placements.get(id);
    if (!c || !placed) continue;
    const doubtful = placed.confidence === 'doubtful';
    pins.push(
      h(
        'button',
        {
          class: `pin ${c.status}${doubtful ? ' doubtful' : ''}`,
          type: 'button',
          hidden: !placed.visible,
          style: { left: `${placed.x}px`, top: `${placed.y}px` },
          'aria-label': store.i18n.t(doubtful ? 'pin.labelDoubtful' : 'pin.label', {
            number,
            author: c.author.name,
            excerpt: c.body.slice(0, 60),
          }),
          'data-pin': c.id,
          onClick: () => openComment(c.id, c.pageUrl),
        },
        doubtful ? `${number}?` : String(number),
      ),
    );
  }
  return pins;
}

/** Outlines an element for a moment, scrolled into view. */
export function flashView(target: Element, host: Element): HTMLElement {
  target.scrollIntoView({ block: 'center' });
  const p = placeOf(target, host);
  return h('div', {
    class: 'flash',
    'data-flash': '',
    style: { left: `${p.left - 4}px`, top: `${p.top - 4}px`, width: `${p.width + 8}px`, height: `${p.height + 8}px` },
  });
}
