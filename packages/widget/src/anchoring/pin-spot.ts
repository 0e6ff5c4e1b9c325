// Where on its element a pin points: where the element's content is, not the far corner of its
// box. A headline is a block as wide as the page, its words a few hundred pixels of it: its pin
// goes at the end of the words' first line (measured with a Range's client rects), beside them.
// An image, a control or an element without words shows itself whole: its pin goes at its
// box's top-right corner. Measured once per layout (see PinTracker), not per frame: scrolling
// moves the element and its words together.

/** Elements that are their own content: pinned at their box's corner. */
const WHOLE = new Set([
  'img',
  'svg',
  'video',
  'canvas',
  'iframe',
  'object',
  'embed',
  'picture',
  'input',
  'select',
  'textarea',
  'button',
  'meter',
  'progress',
]);

/** Text nodes read looking for the first line, at the most: a long container costs no more than a heading. */
const TEXT_NODES_MAX = 40;

/** Where the words are written right to left, the pin stands this far left of the line's start, beside it rather than over it. */
const RTL_GAP = 20;

/** Where the pin points, from the top-left corner of the element's box, in CSS pixels of its document. */
export interface Spot {
  x: number;
  y: number;
}

/** The spot of `el`, whose box is `box` (its getBoundingClientRect). */
export function pinSpot(el: Element, box: DOMRect): Spot {
  const corner = { x: box.width, y: 0 };
  if (WHOLE.has(el.localName)) return corner;
  const line = firstLine(el);
  if (!line) return corner;
  const rtl = getComputedStyle(el).direction === 'rtl';
  const x = rtl ? line.left - RTL_GAP : line.right;
  // Words scrolled or overflowing out of the box (an ellipsis, a scroller) keep the pin on the element.
  return { x: within(x - box.left, -RTL_GAP, box.width), y: within(line.top - box.top, 0, box.height) };
}

const within = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/** The extent of the first line of `el`'s shown words, or null when it shows none. */
function firstLine(el: Element): { left: number; right: number; top: number } | null {
  const doc = el.ownerDocument;
  const walker = doc.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  const range = doc.createRange();
  let line: { left: number; right: number; top: number; bottom: number } | null = null;
  for (let node = walker.nextNode(), read = 0; node && read < TEXT_NODES_MAX; node = walker.nextNode(), read++) {
    if (!/\S/.test((node as Text).data)) continue;
    range.selectNodeContents(node);
    for (const r of range.getClientRects()) {
      if (!r.width || !r.height) continue;
      if (!line) line = { left: r.left, right: r.right, top: r.top, bottom: r.bottom };
      // Below the first line: it has ended (words come in the order they are laid out).
      else if (r.top >= line.bottom) return line;
      else if (r.bottom > line.top) {
        line.left = Math.min(line.left, r.left);
        line.right = Math.max(line.right, r.right);
        line.top = Math.min(line.top, r.top);
      }
    }
  }
  return line;
}
