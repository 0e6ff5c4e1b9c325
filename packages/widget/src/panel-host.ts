// What the panel's actions need of the widget (see panel-actions.ts and draft-actions.ts),
// and what both read of the page.
import type { WindowBox } from '@svc/contract/image-encoding';
import type { MarkUp } from './markup.js';
import type { ReplayRecorder } from './replay.js';
import type { Store } from './store.js';
import type { Taken } from './view-state.js';

/** The chunks the actions load themselves (see chunks.ts, which loads them). */
interface LaterChunks {
  __svcMarkup: MarkUp;
  __svcReplay: ReplayRecorder;
}

/** What the actions need of the widget. */
export interface PanelHost {
  store: Store;
  /** Moves focus to the first element of the panel matching the selector. */
  focus(selector: string): HTMLElement | null;
  showPanel(): void;
  close(): void;
  /** Picks an element: for a new comment, or for the pin of `store.view.repinning`. */
  pick(): Promise<void>;
  /** Just signed in: the panel, the poll, focus on the tabs. */
  enterPanel(): Promise<void>;
  /** The language changed: the widget speaks as the order says (see `Widget.speak`). */
  speak(): Promise<void>;
  /** Signed out: polling stops, and the widget speaks as the page or browser says. */
  signedOut(): void;
  /** A screenshot of the page as it is, `element` outlined, `cover` painted over (see hidden-regions.ts). */
  screenshot(element: Element | null, cover: readonly WindowBox[]): Promise<Blob>;
  /** The markup's chunk, or the replay's recorder's, loaded the first time. */
  chunk<K extends keyof LaterChunks>(name: K): Promise<LaterChunks[K]>;
  /** The element of the page comment `id` is pinned to, when it is found. */
  elementOf(id: string): Element | null;
  /** Outlines an element of the page for a moment. */
  flash(element: Element): void;
  /** Runs `work` with the redraws it announces held until it ends, then drawn once. */
  batch<T>(work: () => Promise<T>): Promise<T>;
}

export const card = (id: string) => `[data-comment="${CSS.escape(id)}"]`;

export const byId = (prefix: string, id: string) => `#${prefix}${CSS.escape(id)}`;

/** The window as it is now, for a screenshot taken now: where `element` is in it, how far it is scrolled. */
export function windowNow(element: Element | null): Taken {
  const r = element?.getBoundingClientRect();
  return {
    box: r ? { x: r.x, y: r.y, width: r.width, height: r.height } : null,
    scroll: { x: scrollX, y: scrollY },
    width: innerWidth,
  };
}
