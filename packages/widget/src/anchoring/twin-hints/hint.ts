// What tells a pinned element from its twins (twins.ts), one hint a module: each records its
// part of the anchor when the element is pinned (describe.ts) and reads it back when the page
// changed. A new hint is one more entry in `TWIN_HINTS`, in the order they are tried.
import type { Anchor } from '@svc/contract';
import type { Masking } from '../../mask.js';
import type { RootIndex } from '../root-index.js';

/** The anchor's fields that the twin hints record. */
export type TwinHintFields = Pick<Anchor, 'twinsByQuote' | 'twinsByItem' | 'twinsByShape'>;

/** The text just before and after the pinned element, as the anchor records it. */
export interface Quote {
  prefix: string;
  suffix: string;
}

export interface TwinHint {
  /**
   * Its part of the anchor of `el` among its `twins` (a field left undefined when it tells
   * nothing), read by `masking`, what their root masks (read once with the rest of `el`).
   */
  record?(el: Element, twins: Element[], quote: Quote, masking: Masking): Partial<TwinHintFields>;
  /** Whether `twin` agrees with what was recorded (always, when nothing was): read where the page did not change around it. */
  fits?(index: RootIndex, anchor: Anchor, twin: Element): boolean;
  /** Of the twins (as many as when it was pinned, in the page's order), the one this hint names alone; else undefined. */
  tell(index: RootIndex, anchor: Anchor, twins: Element[]): Element | undefined;
}

/** Most twins whose text around and above them is read to know whether the pinned one's is its own. */
export const TWINS_READ_MAX = 100;
