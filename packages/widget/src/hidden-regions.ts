// What a reviewer hid on a comment's screenshot (markup's Hide) stays hidden in every picture
// of the comment taken later: the card's picture of now, the verdict's, a screenshot taken
// again. The regions are kept with the comment (its context's `hidden`, in the window's CSS
// pixels when the screenshot was taken, with the scroll then, beside `pinnedBox`) and painted
// over in each picture before it leaves the browser, unless its author uncovers them for that
// picture (the before-and-now card).
//
// The page has changed since (a fix), and what moved with it cannot be told, so each region is
// covered wherever what it hid may be now, erring on covering more: where it was in the page
// (scrolled since), where it was in the window (a fixed bar); and, its element found, as far
// from the element's corner as it was, and at the same place in the element's box scaled as
// the box was (a fix that widened a card moves its text along). Where nothing moved, these are
// one place; where something did, a picture may have a box too many, which its author can
// uncover, never a region shown that they hid.
import type { CaptureContext } from '@svc/contract';
import type { WindowBox } from '@svc/contract/image-encoding';
import { HIDDEN_REGIONS_MAX } from '@svc/contract/rules';

export type Hidden = NonNullable<CaptureContext['hidden']>;

/** The colour a hidden region is painted in: opaque, the pixels under it replaced. */
export const HIDDEN_FILL = '#111827';

const union = (boxes: WindowBox[]): WindowBox => {
  const left = Math.min(...boxes.map((b) => b.x));
  const top = Math.min(...boxes.map((b) => b.y));
  const right = Math.max(...boxes.map((b) => b.x + b.width));
  const bottom = Math.max(...boxes.map((b) => b.y + b.height));
  return { x: left, y: top, width: right - left, height: bottom - top };
};

/** The regions as the contract takes them: at most `HIDDEN_REGIONS_MAX`, those beyond joined into one box that covers them all. */
export function keptRegions(regions: WindowBox[]): WindowBox[] {
  if (regions.length <= HIDDEN_REGIONS_MAX) return regions;
  return [...regions.slice(0, HIDDEN_REGIONS_MAX - 1), union(regions.slice(HIDDEN_REGIONS_MAX - 1))];
}

/**
 * Where to paint over, in the window's CSS pixels, in a picture taken now of a comment whose
 * screenshot had hidden regions: `element` is its element's box now (null when not found, or
 * for the whole page), `scroll` the window's scroll now.
 */
export function coversNow(
  context: Pick<CaptureContext, 'hidden' | 'pinnedBox'> | null,
  element: WindowBox | null,
  scroll: { x: number; y: number },
): WindowBox[] {
  const hidden = context?.hidden;
  if (!hidden) return [];
  const then = context.pinnedBox;
  return hidden.regions.flatMap((r) => {
    const covers = [r, { ...r, x: r.x + hidden.scroll.x - scroll.x, y: r.y + hidden.scroll.y - scroll.y }];
    if (element && then) {
      const [dx, dy] = [r.x - then.x, r.y - then.y];
      const sx = then.width ? element.width / then.width : 1;
      const sy = then.height ? element.height / then.height : 1;
      covers.push(
        { x: element.x + dx, y: element.y + dy, width: r.width, height: r.height },
        { x: element.x + dx * sx, y: element.y + dy * sy, width: r.width * sx, height: r.height * sy },
      );
    }
    return covers;
  });
}

/** Paints `covers` (in the window's CSS pixels) over a picture of the window drawn at `scale` image pixels per CSS pixel. */
export function paintCovers(drawing: CanvasRenderingContext2D, covers: readonly WindowBox[], scale: number): void {
  drawing.fillStyle = HIDDEN_FILL;
  for (const c of covers) {
    // Whole pixels outward: no edge of what is under it left half-covered.
    const [left, top] = [Math.floor(c.x * scale), Math.floor(c.y * scale)];
    drawing.fillRect(left, top, Math.ceil((c.x + c.width) * scale) - left, Math.ceil((c.y + c.height) * scale) - top);
  }
}
