// A selector of the pin that finds one twin alone where that says it is the pinned one (an
// accordion by its id, moved with its items; a table's footer). The selectors are recorded
// with the rest of the description (selectors.ts); this reads them back among twins.

import type { RootIndex } from '../root-index.js';
import { matching } from '../selectors.js';
import type { TwinHint } from './hint.js';

/**
 * The twin `selector` finds alone, where that says it is the pinned one: a selector not by
 * place, or one by place within what its steps before the first place find alone, holding no
 * other twin; not among twins whose places shift alike (an item added first).
 */
function foundAmong(index: RootIndex, selector: string, twins: Element[]): Element[] {
  const place = selector.indexOf(':nth-');
  const scope =
    place < 0 ? '' : selector.slice(0, Math.max(0, selector.lastIndexOf(' ', place))).replace(/[\s>]+$/, '');
  if (place >= 0 && !scope) return [];
  const [found, another] = matching(index.root, selector);
  if (!found || another || !twins.includes(found)) return [];
  if (place < 0) return [found];
  const [around, again] = matching(index.root, scope);
  return around && !again && twins.filter((twin) => around.contains(twin)).length === 1 ? [found] : [];
}

export const bySelector: TwinHint = {
  tell(index, anchor, twins) {
    const named = new Set(
      [anchor.selector, ...(anchor.selectors ?? [])].flatMap((selector) => foundAmong(index, selector, twins)),
    );
    return named.size === 1 ? [...named][0] : undefined;
  },
};
