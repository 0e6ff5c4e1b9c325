// The anchoring chunk: loaded by the widget (a script of its own) when a page has pins to find
// or an element is being picked, so that the widget's first load stays small.
import type { Anchor } from '@svc/contract';
import { elementInWords } from '@svc/contract/element-words';
import type { Translate } from '@svc/contract/i18n';
import type { Shortcut } from '../config.js';
import { describeElement } from './describe.js';
import { type Picked, pickElement } from './pick.js';
import { PinTracker, type Placement } from './track.js';

export interface Anchoring {
  pickElement: typeof pickElement;
  PinTracker: typeof PinTracker;
  /** The pinned element in words, for the cards (here, as only comments with anchors need it). */
  inWords: typeof inWords;
}

/** The element in words: from its anchor, or from the element itself for an anchor of a selector alone. */
function inWords(anchor: Anchor, element: Element | null, t: Translate): string {
  return elementInWords(anchor.tag === undefined && element ? describeElement(element) : anchor, t);
}

export type { Picked, PinTracker, Placement, Shortcut };

(window as unknown as { __svcAnchoring?: Anchoring }).__svcAnchoring = { pickElement, PinTracker, inWords };
