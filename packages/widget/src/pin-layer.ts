// The pins on the page: the anchoring chunk's tracker follows each pinned comment's element,
// and a numbered pin is drawn where it is (see views/pins.ts).
import type { Translate } from '@svc/contract/i18n';
import type { PinTracker } from './anchoring/index.js';
import { type ChunkSource, loadChunk } from './chunks.js';
import { anchorsOfPage, fixedPins } from './pinned.js';
import type { Shell } from './shell.js';
import type { Store } from './store.js';
import { pinsView } from './views/pins.js';

export class PinLayer {
  private tracker: PinTracker | null = null;

  constructor(
    private readonly shell: Shell,
    private readonly store: Store,
    private readonly source: ChunkSource,
    /** A pin was clicked: its comment is opened. */
    private readonly open: (id: string, pageUrl: string) => void,
  ) {}

  /** The anchoring chunk; the first time, its words for elements go to the cards. */
  async anchoring() {
    const anchoring = await loadChunk(this.source, '__svcAnchoring');
    if (!this.store.view.words) {
      // In the words spoken when a card is drawn: the language may change after the anchoring loaded.
      const { store } = this;
      store.view.set({
        words: (c) =>
          c.anchor
            ? anchoring.inWords(c.anchor, this.elementOf(c.id), store.i18n.t as Translate)
            : store.i18n.t('comment.wholePage'),
      });
    }
    return anchoring;
  }

  /**
   * Hands this page's anchors to the tracker, loading the anchoring the first time a page has
   * any, with those whose comment was fixed; the pins and the "not found" list follow what it
   * reports (`view.place`).
   */
  follow(): void {
    const anchors = this.store.session.user ? anchorsOfPage(this.store) : new Map();
    if (!anchors.size && !this.tracker && !this.store.comments.some((c) => c.anchor)) return;
    void this.anchoring()
      .then((anchoring) => {
        this.tracker ??= new anchoring.PinTracker(this.shell.host, (placements) => this.store.view.place(placements));
        this.tracker.set(anchors, fixedPins(this.store, anchors));
      })
      .catch(() => {});
  }

  draw(): void {
    if (this.shell.holdRedraw()) return;
    this.shell.pins.replaceChildren(...pinsView(this.store, this.open));
  }

  /** The element of the page comment `id` is pinned to, when it is found. */
  elementOf(id: string): Element | null {
    return this.tracker?.element(id) ?? null;
  }

  destroy(): void {
    this.tracker?.destroy();
  }
}
