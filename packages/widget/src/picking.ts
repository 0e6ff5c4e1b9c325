// Picking an element of the page for a new comment, or to move a comment's pin: the hint,
// the outline following the pointer, and the end of it (an element, the whole page, or
// cancelled). The picking itself is the anchoring chunk's (`pickElement`).

import type { Anchoring, Picked } from './anchoring/index.js';
import { matchesShortcut, type Shortcut } from './config.js';
import { h } from './dom.js';
import { overlaps } from './geometry.js';
import type { Words } from './i18n.js';
import type { Shell } from './shell.js';

/** What picking ends with: an element, the whole page, or nothing (cancelled). */
export type PickResult = Picked | 'page' | null;

/** The shortcut as the hint names it: Ctrl+Alt+C. */
function shortcutName(key: Shortcut): string {
  return [key.ctrl && 'Ctrl', key.alt && 'Alt', key.shift && 'Shift', key.meta && 'Meta', key.key.toUpperCase()]
    .filter(Boolean)
    .join('+');
}

export class Picker {
  private picking: { cancel: () => void } | null = null;

  constructor(
    private readonly shell: Shell,
    private readonly shortcut: Shortcut | null,
    private readonly anchoring: () => Promise<Anchoring>,
  ) {}

  get active(): boolean {
    return this.picking !== null;
  }

  /**
   * Lets the reviewer pick an element, the panel hidden meanwhile; `wholePage` offers the whole
   * page instead. With `keepFocus` (from the shortcut), focus stays in the page, so a menu or
   * an inline editor that closes when focus leaves can be pinned.
   */
  async pick(t: Words['t'], options: { wholePage: boolean; keepFocus: boolean }): Promise<PickResult> {
    this.shell.hidePanel();
    // Pins would sit on top of the very elements being picked.
    this.shell.pins.hidden = true;
    const anchoring = await this.anchoring().catch(() => null);
    if (!anchoring) return this.end(null);
    return new Promise((resolve) => {
      const finish = (picked: PickResult) => {
        if (this.picking !== picking) return;
        hint.remove();
        resolve(this.end(picked));
      };
      const hint = this.hint(t, options.wholePage ? () => finish('page') : null);
      const picking = anchoring.pickElement({
        host: this.shell.host,
        shortcut: this.shortcut,
        show: (box) => this.outline(box, hint),
      });
      // Shown once picking has the page's clicks, not while its code loads: a click then would
      // reach the app (and tick the box, or follow the link, the reviewer meant to pin).
      this.shell.root.append(hint);
      this.picking = picking;
      // Keyboard users start from the hint (its Whole page button), not from the page's top.
      if (!options.keepFocus) hint.querySelector('button')?.focus({ preventScroll: true });
      void picking.done.then(finish);
    });
  }

  /** Calls `start` when the page hears the shortcut, unless picking already or not `allowed`. */
  onShortcut(allowed: () => boolean, start: () => void): void {
    const shortcut = this.shortcut;
    if (!shortcut) return;
    // In the capture phase, before the page's own shortcuts; picking handles it once started.
    const heard = (event: Event) => {
      if (this.picking || !allowed() || !matchesShortcut(event as KeyboardEvent, shortcut)) return;
      event.preventDefault();
      event.stopPropagation();
      start();
    };
    this.shell.listen('keydown', heard, true);
  }

  /** Stops picking, as if cancelled. */
  cancel(): void {
    this.picking?.cancel();
  }

  private end(picked: PickResult): PickResult {
    const picking = this.picking;
    this.picking = null;
    picking?.cancel();
    this.shell.pins.hidden = false;
    return picked;
  }

  private hint(t: Words['t'], wholePage: (() => void) | null): HTMLElement {
    const key = this.shortcut;
    return h(
      'div',
      { class: 'hint', role: 'status' },
      h('span', { class: 'long' }, key ? t('pick.hintWithShortcut', { shortcut: shortcutName(key) }) : t('pick.hint')),
      h('span', { class: 'short' }, t('pick.hintShort')),
      wholePage ? h('button', { class: 'btn', type: 'button', onClick: wholePage }, t('pick.wholePage')) : null,
    );
  }

  /** The outline on what is pointed at (none: `box` null). */
  private outline(box: DOMRect | null, hint: HTMLElement): void {
    const { outline } = this.shell;
    if (!box) {
      outline.style.display = 'none';
      return;
    }
    const origin = this.shell.host.getBoundingClientRect();
    Object.assign(outline.style, {
      display: 'block',
      left: `${box.left - origin.left}px`,
      top: `${box.top - origin.top}px`,
      width: `${box.width}px`,
      height: `${box.height}px`,
    });
    // The hint lets the pointer through (but for its button) and steps to the other edge when
    // it covers what is pointed at: a link in a sticky header can be picked. Only for an
    // element it can hide: a page's body or main reach both edges, and would send it back and
    // forth.
    if (box.height < innerHeight / 3 && overlaps(box, hint.getBoundingClientRect())) {
      hint.classList.toggle('below', box.top + box.height / 2 < innerHeight / 2);
    }
  }
}
