// The widget's shell: launcher, badge, panel, pins and picking on the host page. It owns the
// DOM and focus; the state lives in the store and each view is a function of it.

import { Poller } from '@svc/contract/poller';
import { h, redraw } from './dom.js';
import { type Picked, pickElement } from './picker.js';
import { currentPage, Store, type Tab } from './store.js';
import { styles } from './styles.js';
import type { Actions } from './views/actions.js';
import { submit } from './views/form.js';
import { flashView, pinsView } from './views/pins.js';
import { signInView } from './views/sign-in.js';
import { signedInView } from './views/signed-in.js';

export interface WidgetConfig {
  apiBase: string;
  projectKey: string;
  notifyPollMs: number;
  /** Record console errors, uncaught errors and rejections for new comments. */
  captureConsole: boolean;
  /** Record failed requests (method, address without query, status, duration) for new comments. */
  captureNetwork: boolean;
  /** Whether "Attach a screenshot" starts checked on the new-comment form. */
  screenshot: boolean;
}

const ICON =
  '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true"><path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.6A8 8 0 1 1 21 12z"/></svg>';

/** A parameter of the page's address, removed from the address bar once read. */
export function takeParam(name: string): string | null {
  const url = new URL(location.href);
  const value = url.searchParams.get(name);
  if (value === null) return null;
  url.searchParams.delete(name);
  history.replaceState(history.state, '', url.href);
  return value;
}

function hostElement(): HTMLElement {
  const host = document.createElement('svc-feedback');
  host.setAttribute('data-svc-widget', '');
  return host;
}

export class Widget {
  /** A host element of its own name: no page rule written for divs or spans reaches it. */
  private readonly host = hostElement();
  private readonly root = this.host.attachShadow({ mode: 'open' });
  private readonly badge = h('span', { class: 'badge', hidden: true, 'aria-hidden': 'true' });
  private readonly launcher = h('button', {
    class: 'launcher',
    type: 'button',
    'aria-haspopup': 'dialog',
    'aria-expanded': 'false',
    onClick: () => (this.panel.hidden ? this.open() : this.close()),
  });
  private readonly panel = h('section', {
    class: 'panel',
    role: 'dialog',
    'aria-modal': 'true',
    'aria-label': 'Feedback',
    hidden: true,
  });
  private readonly pins = h('div');
  private readonly outline = h('div', { class: 'outline' });
  private readonly store: Store;
  private readonly poller: Poller;
  private readonly cleanups: (() => void)[] = [];
  private picking: { cancel: () => void } | null = null;

  constructor(config: WidgetConfig) {
    this.store = new Store(config.apiBase, config.projectKey, config.screenshot, () => this.countChanged());
    this.store.api.onUnauthorized = () => this.sessionEnded();
    this.poller = new Poller(config.notifyPollMs, async () => {
      const result = await this.store.pollCount();
      // While the panel is open, what it shows is re-read at the same cadence (304s when unchanged).
      if (result.outcome === 'ok' && !this.panel.hidden && this.store.tab === 'comments' && !this.store.draft) {
        if (await this.store.refresh()) {
          this.renderPins();
          this.render();
        }
      }
      return result;
    });
    const style = h('style');
    style.textContent = styles;
    this.launcher.innerHTML = ICON;
    this.launcher.append(this.badge);
    this.root.append(style, this.pins, this.outline, this.panel, this.launcher);
    // Esc from anywhere in the widget closes the panel; picking handles its own Esc. Tab
    // stays inside the open panel, as in any dialog.
    this.root.addEventListener('keydown', (event) => {
      const key = (event as KeyboardEvent).key;
      if (key === 'Escape' && !this.panel.hidden) {
        event.stopPropagation();
        this.close();
      } else if (key === 'Tab' && !this.panel.hidden) {
        this.keepFocusInside(event as KeyboardEvent);
      }
    });
    const relayout = () => this.renderPins();
    window.addEventListener('resize', relayout);
    this.cleanups.push(() => window.removeEventListener('resize', relayout));
    this.updateBadge();
  }

  async mount(): Promise<void> {
    document.body.append(this.host);
    if (!(await this.store.exchangeAccessLink(takeParam('svc_access')))) this.showPanel();
    const user = await this.store.resume();
    if (user) await this.signedIn(user);
    this.render();
    // "Open on page" from the console: ?svc_comment=<id> opens the panel on that comment.
    const shown = takeParam('svc_comment');
    if (shown && this.store.user) this.actions.openComment(shown, currentPage());
  }

  destroy(): void {
    this.poller.destroy();
    this.picking?.cancel();
    for (const cleanup of this.cleanups) cleanup();
    this.host.remove();
  }

  open(tab?: Tab): void {
    if (tab) this.store.tab = tab;
    this.showPanel();
    this.render();
    this.focus('[aria-selected=true], input, textarea');
    if (this.store.user && this.store.tab === 'updates') void this.store.loadUpdates(() => this.render());
  }

  close(): void {
    this.store.confirmation = null;
    this.hidePanel();
    this.launcher.focus();
  }

  private showPanel(): void {
    this.panel.hidden = false;
    this.launcher.setAttribute('aria-expanded', 'true');
  }

  private hidePanel(): void {
    this.panel.hidden = true;
    this.launcher.setAttribute('aria-expanded', 'false');
  }

  /** Moves focus to the first element of the panel matching `selector`. */
  private focus(selector: string): HTMLElement | null {
    const el = this.panel.querySelector<HTMLElement>(selector);
    el?.focus();
    return el;
  }

  private async signedIn(user: Parameters<Store['signedIn']>[0]): Promise<void> {
    await this.store.signedIn(user);
    this.poller.start();
    this.renderPins();
  }

  /** The server refused the token: back to the sign-in, saying why. */
  private sessionEnded(): void {
    if (!this.store.user) return;
    this.forget('Your session has ended. Please sign in again.');
    this.showPanel();
    this.render();
  }

  private forget(notice = ''): void {
    this.store.forget(notice);
    this.poller.stop();
    this.updateBadge();
    this.renderPins();
  }

  /** Tab from the last element goes to the first, Shift+Tab from the first to the last. */
  private keepFocusInside(event: KeyboardEvent): void {
    const focusable = [
      ...this.panel.querySelectorAll<HTMLElement>('button, a[href], input, textarea, [tabindex="0"]'),
    ].filter((el) => !(el as HTMLButtonElement).disabled && el.getClientRects().length > 0);
    const first = focusable[0];
    const last = focusable[focusable.length - 1];
    const active = this.root.activeElement;
    if (!first || !last) return;
    if (!this.panel.contains(active)) {
      event.preventDefault();
      first.focus();
    } else if (event.shiftKey && active === first) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  }

  /** A new count: the badge, and a fresh Updates list when it is the one on screen. */
  private countChanged(): void {
    this.updateBadge();
    if (!this.panel.hidden && this.store.tab === 'updates' && this.store.count > 0) {
      void this.store.loadUpdates(() => this.render());
    }
  }

  private updateBadge(): void {
    const count = this.store.count;
    this.badge.hidden = count === 0;
    this.badge.textContent = count > 99 ? '99+' : String(count);
    this.launcher.setAttribute(
      'aria-label',
      count ? `Feedback, ${count} unread update${count === 1 ? '' : 's'}` : 'Feedback',
    );
  }

  // --- rendering -------------------------------------------------------------------------

  /** Redraws the panel from the state; focus, typed text and scroll position survive (see `redraw`). */
  private render(): void {
    redraw(this.panel, this.store.user ? signedInView(this.store, this.actions) : signInView(this.store, this.actions));
  }

  private renderPins(): void {
    this.pins.replaceChildren(
      ...pinsView(this.store, this.host, (id, pageUrl) => this.actions.openComment(id, pageUrl)),
    );
  }

  private flash(selector: string): void {
    const mark = flashView(selector, this.host);
    if (!mark) return;
    this.root.append(mark);
    setTimeout(() => mark.remove(), 2500);
  }

  // --- picking an element for a new comment -----------------------------------------------

  private startPicking(): void {
    this.hidePanel();
    const hint = h(
      'div',
      { class: 'hint', role: 'status' },
      h(
        'span',
        { class: 'long' },
        'Click the element your comment is about (or Tab to it and press Enter). Esc cancels.',
      ),
      h('span', { class: 'short' }, 'Tap what your comment is about'),
      h('button', { class: 'btn', type: 'button', onClick: () => this.finishPicking('page') }, 'Whole page'),
    );
    this.root.append(hint);
    // Pins would sit on top of the very elements being picked.
    this.pins.hidden = true;
    const picking = pickElement(this.host, this.outline);
    this.picking = picking;
    void picking.done.then((picked) => {
      hint.remove();
      if (this.picking === picking) this.finishPicking(picked);
    });
  }

  private finishPicking(picked: Picked | 'page' | null): void {
    const picking = this.picking;
    this.picking = null;
    picking?.cancel();
    this.pins.hidden = false;
    this.store.draft = picked;
    this.open('comments');
    // Cancelled: back where the user was, on the button that started it.
    if (!picked) this.focus('[data-new]');
  }

  // --- what the views ask for -------------------------------------------------------------

  private readonly actions: Actions = {
    close: () => this.close(),
    startPicking: () => this.startPicking(),
    switchTab: (tab) => {
      const store = this.store;
      store.tab = tab;
      this.render();
      this.focus('[aria-selected=true]');
      if (tab === 'updates') void store.loadUpdates(() => this.render());
      else void store.loadComments().then(() => this.render());
    },
    signIn: async (form, email, password) => {
      const answer = await submit(form, () => this.store.signIn(email, password));
      if (!answer?.ok) return;
      this.poller.start();
      this.renderPins();
      this.render();
      this.focus('[aria-selected=true]');
    },
    signOut: async () => {
      await this.store.signOut();
      this.forget();
      this.render();
      this.focus('input');
    },
    openComment: async (id, pageUrl) => {
      await this.store.showComment(id, pageUrl);
      this.renderPins();
      this.showPanel();
      this.render();
      const card = this.focus(`[data-comment="${CSS.escape(id)}"]`);
      card?.scrollIntoView({ block: 'nearest' });
      const comment = this.store.comment(id);
      if (comment?.anchor && comment.pageUrl === currentPage()) this.flash(comment.anchor.selector);
    },
    setStatus: async (status) => {
      this.store.status = status;
      await this.store.loadComments();
      this.renderPins();
      this.render();
    },
    triage: async (id, action) => {
      const answer = await this.store.triage(id, action).catch(() => null);
      this.renderPins();
      this.render();
      if (answer?.ok) this.focus(`[data-comment="${CSS.escape(id)}"]`);
    },
    setDeleting: (id) => {
      const was = this.store.deleting;
      this.store.deleting = id;
      this.render();
      if (id) this.focus(`#svc-keep-${CSS.escape(id)}`);
      else if (was) this.focus(`#svc-delete-${CSS.escape(was)}`);
    },
    remove: async (id) => {
      await this.store.remove(id).catch(() => null);
      this.renderPins();
      this.render();
      this.focus('[aria-selected=true]');
    },
    setAllPages: async (all) => {
      this.store.allPages = all;
      await this.store.loadComments();
      this.renderPins();
      this.render();
    },
    showMore: async () => {
      await this.store.loadComments(true);
      this.renderPins();
      this.render();
    },
    toggleDetails: (id) => {
      const details = this.store.details;
      if (details.has(id)) details.delete(id);
      else details.add(id);
      this.render();
    },
    toggleReplies: async (id) => {
      const expanded = this.store.expanded;
      if (expanded.has(id)) expanded.delete(id);
      else {
        expanded.add(id);
        await this.store.loadThread(id);
      }
      this.render();
    },
    reply: async (form, id, body) => {
      const answer = await submit(form, () => this.store.reply(id, body));
      if (!answer?.ok) return;
      this.render();
      this.focus(`#svc-reply-${CSS.escape(id)}`);
    },
    verify: async (form, id, body) => {
      const answer = await submit(form, () => this.store.verify(id, body));
      if (!answer?.ok) return;
      this.renderPins();
      this.render();
      this.focus(`[data-comment="${CSS.escape(id)}"]`);
    },
    setRejecting: (id) => {
      const was = this.store.rejecting;
      this.store.rejecting = id;
      this.render();
      if (id) this.focus(`#svc-note-${CSS.escape(id)}`);
      else if (was) this.focus(`#svc-not-fixed-${CSS.escape(was)}`);
    },
    sendComment: async (form, body, attach) => {
      const answer = await submit(form, () => this.store.createComment(body, attach ? { exclude: this.host } : null));
      if (!answer?.ok) return;
      this.renderPins();
      this.render();
      this.focus(`[data-comment="${CSS.escape(answer.data.id)}"]`);
    },
    cancelDraft: () => {
      this.store.draft = null;
      this.render();
      this.focus('[data-new]');
    },
  };
}
