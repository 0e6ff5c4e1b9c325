// Geometry shared by the widget's first load and its anchoring chunk: a module of its own, so
// that importing it brings nothing else into either.

/** Whether two boxes share some area. */
export const overlaps = (a: DOMRect, b: DOMRect) =>
  a.right > b.left && a.left < b.right && a.bottom > b.top && a.top < b.bottom;
