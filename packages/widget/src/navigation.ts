// Single-page apps change page without loading one: through history.pushState/replaceState,
// the back and forward buttons (popstate) and hash routes (hashchange). The widget hears of
// each, so its list, pins and new comments follow the page the reviewer is on.

type Method = 'pushState' | 'replaceState';

/** Calls `changed` after every in-app navigation; returns how to stop. */
export function watchNavigation(changed: () => void): () => void {
  const wrapped = (['pushState', 'replaceState'] as const).map((method: Method) => {
    const original = history[method];
    const wrapper = function (this: History, ...args: Parameters<History[Method]>) {
      const result = original.apply(this, args);
      changed();
      return result;
    };
    history[method] = wrapper;
    return { method, original, wrapper };
  });
  addEventListener('popstate', changed);
  addEventListener('hashchange', changed);
  return () => {
    removeEventListener('popstate', changed);
    removeEventListener('hashchange', changed);
    // Only ours to undo: another script may have wrapped it after us.
    for (const { method, original, wrapper } of wrapped) if (history[method] === wrapper) history[method] = original;
  };
}
