// How the panel shows what the server said: the tab, what is being written or confirmed,
// what is open, and where the pins are. The shell and the actions change it through `set`,
// which announces the change; the views only read it.
import type { Anchor, CaptureContext, Comment } from '@svc/contract';
import type { WindowBox } from '@svc/contract/image-encoding';
import type { Placement } from './anchoring/index.js';
import type { Announce, FieldsOf } from './changes.js';
import type { Picture } from './images.js';

export type Tab = 'updates' | 'comments';

/** What a comment being written is about: a picked element (with its anchor), or the whole page; and the page it is on. */
export interface Draft {
  element: Element | null;
  anchor: Anchor | null;
  page: string;
  /** Sent with the page's context (where the element is in the window, what was hidden on its screenshot). */
  context?: Pick<CaptureContext, 'pinnedBox' | 'hidden'>;
  /** Its screenshot as the reviewer marked it up, sent instead of a new one. */
  marked?: MarkedShot;
}

/** The window when a screenshot was taken: where the element was in it, how far it was scrolled. */
export interface Taken {
  box: WindowBox | null;
  scroll: { x: number; y: number };
  width: number;
}

/** A marked-up screenshot, with when it was taken and the regions hidden on it (in the window's CSS pixels then), kept with the comment. */
export interface MarkedShot extends Picture {
  taken: Taken;
  hidden: WindowBox[];
}

/** The images attached to what is being written (re-encoded, not sent yet), and why some were refused. */
export interface Attached {
  images: readonly Picture[];
  refused: string | null;
}

export class ViewState {
  readonly tab: Tab = 'updates';
  /** The new comment being written. */
  readonly draft: Draft | null = null;
  /** The comment whose deletion waits for a confirmation. */
  readonly deleting: string | null = null;
  /** The comment whose "Not fixed" note is being written. */
  readonly rejecting: string | null = null;
  /** The comment whose pin is being moved. */
  readonly repinning: string | null = null;
  /** The comment just sent or opened, marked in the list. */
  readonly highlighted: string | null = null;
  /** Comments whose replies are shown. */
  readonly expanded: ReadonlySet<string> = new Set();
  /** Comments whose captured details are shown. */
  readonly details: ReadonlySet<string> = new Set();
  /** Comments whose before and now are shown at the page's own size. */
  readonly fullSize: ReadonlySet<string> = new Set();
  /** Pictures of now in which their author chose to show what they had hidden (see before-after's `nowKey`). */
  readonly uncovered: ReadonlySet<string> = new Set();
  /** The images attached to each form being written, by its key (`new`, `reply-<comment id>`). */
  readonly attached: ReadonlyMap<string, Attached> = new Map();
  /** Where each pin of this page is (null: its element is not found on this page), as the anchoring reports it. */
  readonly placements: ReadonlyMap<string, Placement | null> = new Map();
  /** A comment's element in words, once the anchoring is loaded (it brings the words). */
  readonly words: ((comment: Pick<Comment, 'id' | 'anchor'>) => string) | null = null;
  /** What the panel last showed of the pins (found, doubtful, missing), to redraw it only when that changes. */
  private pinStates = '';

  constructor(private readonly announce: Announce) {}

  set(patch: Partial<FieldsOf<ViewState>>): void {
    Object.assign(this, patch);
    this.announce('view');
  }

  /** Opens or closes comment `id`'s replies, details or pictures at full size (or shows a picture uncovered); true when it is now open. */
  toggle(which: 'expanded' | 'details' | 'fullSize' | 'uncovered', id: string): boolean {
    const open = new Set(this[which]);
    if (open.has(id)) open.delete(id);
    else open.add(id);
    this.set({ [which]: open });
    return open.has(id);
  }

  /** Where the pins are now: only the pins move, unless one was found, lost or doubted (the panel lists those). */
  place(placements: ReadonlyMap<string, Placement | null>): void {
    Object.assign(this, { placements });
    const states = [...placements].map(([id, p]) => `${id}:${p ? p.confidence : 'missing'}`).join();
    const listed = states !== this.pinStates;
    this.pinStates = states;
    this.announce(listed ? 'view' : 'pins');
  }
}
