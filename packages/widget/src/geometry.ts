// Geometry shared by the widget's first load and its anchoring chunk: a module of its own, so
// that importing it brings nothing else into either.

/** Whether two boxes share some area. */
export const overlaps = (a: DOMRect, b: DOMRect) =>
  a.right > b.left && a.left < b.right && a.bottom > b.top && a.top < b.bottom;

/** The box of `el` in the top document's viewport, through the iframes it is in. */
export function boxInTop(el: Element): DOMRect {
  const box = el.getBoundingClientRect();
  let { left, top } = box;
  for (let view: Window | null = el.ownerDocument.defaultView; view?.frameElement; view = view.parent) {
    const frame = view.frameElement;
    const outer = frame.getBoundingClientRect();
    const style = getComputedStyle(frame);
    left += outer.left + Number.parseFloat(style.borderLeftWidth) + Number.parseFloat(style.paddingLeft);
    top += outer.top + Number.parseFloat(style.borderTopWidth) + Number.parseFloat(style.paddingTop);
  }
  return new DOMRect(left, top, box.width, box.height);
}
