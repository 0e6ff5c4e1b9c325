// The widget's shell: launcher, badge, panel, pins and picking on the host page. It owns the
// DOM and focus; the state lives in the store and each view is a function of it.

import { pickLocale, type Translate } from '@svc/contract/i18n';
import { Poller } from '@svc/contract/poller';
import type { Picked, PinTracker, Placement } from './anchoring/index.js';
import { type Chunks, loadChunk, loadLocale, takeScreenshot } from './chunks.js';
import { matchesShortcut, type WidgetConfig } from './config.js';
import { adoptStyles, h, redraw } from './dom.js';
import { overlaps } from './geometry.js';
import { addEnglish, wordsOf } from './i18n.js';
import { watchNavigation } from './navigation.js';
import { Store, type Tab } from './store.js';
import { styles } from './styles.js';
import type { Actions } from './views/actions.js';
import { formStatus, submit } from './views/form.js';
import { flashView, pinsView } from './views/pins.js';

/** The launcher's speech bubble, built node by node: a page that enforces Trusted Types refuses markup strings. */
function icon(): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  const path = document.createElementNS(ns, 'path');
  const attributes: [string, string][] = [
    ['viewBox', '0 0 24 24'],
    ['fill', 'none'],
    ['stroke', 'currentColor'],
    ['stroke-width', '2'],
    ['aria-hidden', 'true'],
  ];
  for (const [name, value] of attributes) svg.setAttribute(name, value);
  path.setAttribute('d', 'M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.6A8 8 0 1 1 21 12z');
  svg.append(path);
  return svg;
}

/**
 * The access link's token: after the `#` (`#svc_access=…`, which no server ever receives), or
 * in the query as links made before were; removed from the address bar once read, the rest of
 * the address kept.
 */
export function takeAccessToken(): string | null {
  const hash = new URLSearchParams(location.hash.slice(1));
  const token = hash.get('svc_access');
  if (token === null) return takeParam('svc_access');
  hash.delete('svc_access');
  const rest = hash.toString();
  history.replaceState(history.state, '', `${location.pathname}${location.search}${rest ? `#${rest}` : ''}`);
  return token;
}

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
  private readonly panel = h('section', { class: 'panel', role: 'dialog', 'aria-modal': 'true', hidden: true });
  private readonly pins = h('div');
  private readonly outline = h('div', { class: 'outline' });
  private readonly store: Store;
  private readonly poller: Poller;
  private readonly cleanups: (() => void)[] = [];
  private picking: { cancel: () => void } | null = null;
  private tracker: PinTracker | null = null;
  /** The page whose comments are shown, to tell when an in-app navigation changed it. */
  private shownPage = '';
  /** What the panel last showed of the pins (found, doubtful, missing), to redraw it only when that changes. */
  private pinStates = '';
  /**
   * While a pointer is pressed on the widget, redraws wait for its release (a button replaced
   * between press and release would never get its click), for a second at most: a release the
   * page never hears (over an iframe) must not leave the panel stale.
   */
  private pressedAt = 0;
  private redrawAfterPress = false;
  /** Counts the changes of language asked for: only the latest is applied. */
  private languageAsked = 0;

  /** The signed-in panel's views, once their chunk is loaded. */
  private views: Chunks['__svcPanel'] | null = null;
  private viewsFailed = false;

  /** Asked when a request fails without an answer: is this page's origin not allowed? */
  private readonly unreachable = () => this.store.refusedOrigin();

  /** Read when the widget starts, before a hash router can rewrite the address. */
  private readonly accessToken = takeAccessToken();

  constructor(private readonly config: WidgetConfig) {
    this.store = new Store(config.apiBase, config.projectKey, config.workspace, config.screenshot, () =>
      this.countChanged(),
    );
    this.store.api.onUnauthorized = () => this.sessionEnded();
    // One tab of the browser polls for all of them (same server, same person); each re-reads
    // its open panel at the cadence of the polls, its own or another tab's.
    this.poller = new Poller(
      config.notifyPollMs,
      async () => {
        const result = await this.store.pollCount();
        if (result.outcome === 'ok') await this.refreshOpenList();
        return result;
      },
      {
        key: () => `${config.apiBase}|${this.store.user?.id ?? ''}`,
        receive: (shared) => {
          this.store.sharedCount(shared as { count: number; etag: string | null });
          void this.refreshOpenList();
        },
      },
    );
    this.panel.setAttribute('aria-label', this.store.i18n.t('widget.label'));
    this.launcher.append(icon(), this.badge);
    this.root.append(this.pins, this.outline, this.panel, this.launcher);
    adoptStyles(this.root, styles, config.nonce);
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
    this.root.addEventListener('pointerdown', () => {
      this.pressedAt = performance.now();
    });
    const released = () => {
      this.pressedAt = 0;
      // After the click this release makes, which may redraw by itself.
      if (this.redrawAfterPress) setTimeout(() => this.redrawHeldBack());
    };
    for (const type of ['pointerup', 'pointercancel']) {
      addEventListener(type, released, true);
      this.cleanups.push(() => removeEventListener(type, released, true));
    }
    this.cleanups.push(watchNavigation(() => void this.pageChanged()));
    const shortcut = config.pickShortcut;
    if (shortcut) {
      // In the capture phase, before the page's own shortcuts; picking handles it once started.
      const onKey = (event: KeyboardEvent) => {
        if (this.picking || !this.store.user || !matchesShortcut(event, shortcut)) return;
        event.preventDefault();
        event.stopPropagation();
        void this.startPicking({ keepFocus: true });
      };
      addEventListener('keydown', onKey, true);
      this.cleanups.push(() => removeEventListener('keydown', onKey, true));
    }
    this.updateBadge();
  }

  async mount(): Promise<void> {
    document.body.append(this.host);
    void this.speak();
    this.stayOnPage();
    if (!(await this.store.exchangeAccessLink(this.accessToken))) this.showPanel();
    const user = await this.store.resume();
    if (user) await this.signedIn(user);
    this.render();
    // "Open on page" from the console: ?svc_comment=<id> opens the panel on that comment.
    const shown = takeParam('svc_comment');
    if (shown && this.store.user) this.actions.openComment(shown, this.store.page());
  }

  /**
   * Puts the widget back when the app replaces the body or what is in it (some do on sign-in):
   * watched on the root and the body's own children only, so the app's work inside its
   * containers costs nothing here.
   */
  private stayOnPage(): void {
    const observer = new MutationObserver(() => {
      if (!this.host.isConnected && document.body) document.body.append(this.host);
      observer.disconnect();
      observer.observe(document.documentElement, { childList: true });
      if (document.body) observer.observe(document.body, { childList: true });
    });
    observer.observe(document.documentElement, { childList: true });
    observer.observe(document.body, { childList: true });
    this.cleanups.push(() => observer.disconnect());
  }

  destroy(): void {
    this.poller.destroy();
    this.picking?.cancel();
    this.tracker?.destroy();
    for (const cleanup of this.cleanups) cleanup();
    this.host.remove();
  }

  /** After an in-app navigation: the new page's comments and pins, the panel left as it is. */
  private async pageChanged(): Promise<void> {
    const page = this.store.page();
    if (!this.store.user || page === this.shownPage) return;
    this.shownPage = page;
    this.store.placements = new Map();
    this.renderPins();
    await this.store.loadComments();
    this.syncPins();
    if (!this.panel.hidden) this.render();
  }

  /**
   * Hands this page's anchors to the pin tracker, loading the anchoring the first time a page
   * has any; pins and the "not found" list follow what it reports.
   */
  private syncPins(): void {
    this.shownPage = this.store.page();
    const anchors = this.store.user ? this.store.anchorsOfPage() : new Map();
    if (!anchors.size && !this.tracker && !this.store.comments.some((c) => c.anchor)) return;
    void this.anchoring()
      .then((anchoring) => {
        this.tracker ??= new anchoring.PinTracker(this.host, (placements) => this.placed(placements));
        this.tracker.set(anchors);
      })
      .catch(() => {});
  }

  /** While the panel shows the comments, what it shows is re-read (a 304 when unchanged). */
  private async refreshOpenList(): Promise<void> {
    if (!this.panel.hidden && this.store.tab === 'comments' && !this.store.draft) {
      if (await this.store.refresh()) this.refreshed();
    }
  }

  /** A screenshot of the page as it is, the widget left out and `element` outlined. */
  private screenshot(element: Element | null): Promise<Blob> {
    return takeScreenshot(this.config, { exclude: this.host, outline: element?.getBoundingClientRect() ?? null });
  }

  /** The anchoring chunk; the first time, its words for elements go to the cards. */
  private async anchoring() {
    const anchoring = await loadChunk(this.config, '__svcAnchoring');
    if (!this.store.words) {
      this.store.words = (c) =>
        c.anchor
          ? anchoring.inWords(c.anchor, this.tracker?.element(c.id) ?? null, this.store.i18n.t as Translate)
          : this.store.i18n.t('comment.wholePage');
      if (!this.panel.hidden) this.render();
    }
    return anchoring;
  }

  private placed(placements: Map<string, Placement | null>): void {
    this.store.placements = placements;
    this.renderPins();
    const states = [...placements].map(([id, p]) => `${id}:${p ? p.confidence : 'missing'}`).join();
    if (states !== this.pinStates) {
      this.pinStates = states;
      if (!this.panel.hidden && this.store.tab === 'comments') this.render();
    }
  }

  open(tab?: Tab): void {
    if (tab) this.store.tab = tab;
    this.showPanel();
    this.render();
    this.focus('[aria-selected=true], input, textarea');
    // Opened before the panel's views arrived: they show, and take focus, once loaded.
    if (!this.views) {
      void this.panelViews().then(() => {
        // Shown meanwhile (the sign-in finished first): drawn again, it would lose what has focus.
        if (this.panel.hidden || this.panel.querySelector('[role=tablist]')) return;
        this.render();
        this.focus('[aria-selected=true], input, textarea, .empty button');
      });
    }
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
    if (!this.store.user && this.store.sso === undefined) this.render();
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
    // The panel's views load meanwhile: polling and pins do not wait for them.
    const views = this.panelViews();
    await this.store.signedIn(user);
    void this.speak();
    this.poller.start();
    this.syncPins();
    await views;
  }

  /** The server refused the token: back to the sign-in, saying why. */
  private sessionEnded(): void {
    if (!this.store.user) return;
    this.forget(this.store.i18n.t('signIn.sessionEnded'));
    this.showPanel();
    this.render();
  }

  private forget(notice = ''): void {
    this.store.forget(notice);
    this.poller.stop();
    this.updateBadge();
    this.syncPins();
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
    const { t } = this.store.i18n;
    this.launcher.setAttribute('aria-label', count ? t('widget.unread', { count }) : t('widget.label'));
  }

  // --- rendering -------------------------------------------------------------------------

  /** Redraws the panel from the state; focus, typed text and scroll position survive (see `redraw`). */
  private render(): void {
    if (this.holdRedraw()) return;
    // The sign-in offers the workspace's own provider: asked once, shown when it answers.
    if (!this.store.user && !this.panel.hidden && this.store.sso === undefined) {
      void this.store.discoverSso().then(() => this.render());
    }
    const views = this.views;
    const { t } = this.store.i18n;
    // Shown before the panel's views are loaded (a session ended, a refused link): drawn once they are.
    if (!views && !this.viewsFailed && !this.panel.hidden)
      void this.panelViews().then(() => this.views && this.render());
    redraw(
      this.panel,
      views
        ? this.store.user
          ? views.signedInView(this.store, this.actions)
          : views.signInView(this.store, this.actions)
        : this.viewsFailed
          ? [
              h(
                'p',
                { class: 'empty', role: 'alert' },
                `${t('widget.panelFailed')} `,
                h('button', { class: 'link', type: 'button', onClick: () => this.open() }, t('widget.tryAgain')),
              ),
            ]
          : [h('p', { class: 'empty', role: 'status' }, t('widget.loading'))],
    );
  }

  /** Whether a redraw waits for a pointer pressed on the widget (see `pressedAt`); noted if so. */
  private holdRedraw(): boolean {
    if (!this.pressedAt || performance.now() - this.pressedAt > 1000) return false;
    if (!this.redrawAfterPress) setTimeout(() => this.redrawHeldBack(), 1000);
    this.redrawAfterPress = true;
    return true;
  }

  private redrawHeldBack(): void {
    if (!this.redrawAfterPress) return;
    this.redrawAfterPress = false;
    this.renderPins();
    this.render();
  }

  /** Just signed in (a password, a second factor, single sign-on): the panel, the poll, focus on the tabs. */
  private async enterPanel(): Promise<void> {
    await this.panelViews();
    this.poller.start();
    this.refreshed();
    this.focus('[aria-selected=true]');
  }

  /** The signed-in panel's views; loaded once, and again after a failed load. */
  private async panelViews(): Promise<void> {
    this.viewsFailed = false;
    const views = this.views ?? (await loadChunk(this.config, '__svcPanel').catch(() => null));
    if (views && !this.views) {
      this.views = views;
      addEnglish(views.english);
      adoptStyles(this.root, views.styles, this.config.nonce);
    }
    this.viewsFailed = !this.views;
  }

  /**
   * Speaks the language the order gives (the person's, the site's, the browser's, the
   * workspace's; see i18n.ts): its chunk loaded first, then everything drawn again in it, right
   * to left where it is written so. A chunk that does not load leaves the language as it was.
   */
  private async speak(): Promise<void> {
    const asked = ++this.languageAsked;
    const locale =
      pickLocale([this.store.user?.locale, this.config.locale, ...(navigator.languages ?? [])]) ??
      pickLocale([await this.store.readWorkspaceLocale()]) ??
      'en';
    if (locale === this.store.i18n.locale) return;
    const messages = locale === 'en' ? {} : await loadLocale(this.config, locale).catch(() => null);
    if (!messages || asked !== this.languageAsked) return;
    const words = wordsOf(locale, messages);
    this.store.i18n = words;
    this.host.setAttribute('lang', locale);
    this.host.setAttribute('dir', words.dir);
    this.panel.setAttribute('aria-label', words.t('widget.label'));
    this.updateBadge();
    this.renderPins();
    this.render();
  }

  private renderPins(): void {
    if (this.holdRedraw()) return;
    this.pins.replaceChildren(...pinsView(this.store, (id, pageUrl) => this.actions.openComment(id, pageUrl)));
  }

  /** The list changed (a comment added, removed, re-read): pins follow, and the panel shows it. */
  private refreshed(): void {
    this.syncPins();
    this.renderPins();
    this.render();
  }

  private flash(id: string): void {
    const target = this.tracker?.element(id);
    if (!target) return;
    const mark = flashView(target, this.host);
    this.root.append(mark);
    setTimeout(() => mark.remove(), 2500);
  }

  // --- picking an element for a new comment -----------------------------------------------

  /**
   * Lets the reviewer pick an element: for a new comment, or to move a comment's pin
   * (`store.repinning`). From the shortcut, focus stays in the page, so a menu or an inline
   * editor that closes when focus leaves can be pinned.
   */
  private async startPicking(options: { keepFocus?: boolean } = {}): Promise<void> {
    this.hidePanel();
    const key = this.config.pickShortcut;
    const { t } = this.store.i18n;
    const shortcut = key
      ? [key.ctrl && 'Ctrl', key.alt && 'Alt', key.shift && 'Shift', key.meta && 'Meta', key.key.toUpperCase()]
          .filter(Boolean)
          .join('+')
      : '';
    const hint = h(
      'div',
      { class: 'hint', role: 'status' },
      h('span', { class: 'long' }, shortcut ? t('pick.hintWithShortcut', { shortcut }) : t('pick.hint')),
      h('span', { class: 'short' }, t('pick.hintShort')),
      this.store.repinning
        ? null
        : h('button', { class: 'btn', type: 'button', onClick: () => this.finishPicking('page') }, t('pick.wholePage')),
    );
    // Pins would sit on top of the very elements being picked.
    this.pins.hidden = true;
    const anchoring = await this.anchoring().catch(() => null);
    if (!anchoring) {
      this.finishPicking(null);
      return;
    }
    const origin = () => this.host.getBoundingClientRect();
    const picking = anchoring.pickElement({
      host: this.host,
      shortcut: key,
      show: (box) => {
        const o = origin();
        if (!box) this.outline.style.display = 'none';
        else {
          Object.assign(this.outline.style, {
            display: 'block',
            left: `${box.left - o.left}px`,
            top: `${box.top - o.top}px`,
            width: `${box.width}px`,
            height: `${box.height}px`,
          });
          // The hint lets the pointer through (but for its button) and steps to the other edge
          // when it covers what is pointed at: a link in a sticky header can be picked. Only for
          // an element it can hide: a page's body or main reach both edges, and would send it
          // back and forth.
          if (box.height < innerHeight / 3 && overlaps(box, hint.getBoundingClientRect())) {
            hint.classList.toggle('below', box.top + box.height / 2 < innerHeight / 2);
          }
        }
      },
    });
    // Shown once picking has the page's clicks, not while its code loads: a click then would
    // reach the app (and tick the box, or follow the link, the reviewer meant to pin).
    this.root.append(hint);
    this.picking = picking;
    if (!options.keepFocus) this.focusHint(hint);
    void picking.done.then((picked) => {
      hint.remove();
      if (this.picking === picking) this.finishPicking(picked);
    });
  }

  /** Keyboard users start from the hint (its Whole page button), not from the page's top. */
  private focusHint(hint: HTMLElement): void {
    hint.querySelector('button')?.focus({ preventScroll: true });
  }

  private finishPicking(picked: Picked | 'page' | null): void {
    const picking = this.picking;
    this.picking = null;
    picking?.cancel();
    this.pins.hidden = false;
    const repinning = this.store.repinning;
    if (repinning) {
      this.store.repinning = null;
      if (picked && picked !== 'page') {
        void this.store.repin(repinning, picked.anchor).then(() => {
          this.refreshed();
          this.actions.openComment(repinning, this.store.page());
        });
      } else this.actions.openComment(repinning, this.store.page());
      return;
    }
    if (picked) {
      const page = this.store.page();
      this.store.draft = picked === 'page' ? { element: null, anchor: null, page } : { ...picked, page };
    }
    this.open('comments');
    // Cancelled: back where the user was, on the button that started it.
    if (!picked) this.focus('[data-new]');
  }

  // --- what the views ask for -------------------------------------------------------------

  private readonly actions: Actions = {
    close: () => this.close(),
    startPicking: () => void this.startPicking(),
    repin: (id) => {
      this.store.repinning = id;
      void this.startPicking();
    },
    switchTab: (tab) => {
      const store = this.store;
      store.tab = tab;
      this.render();
      this.focus('[aria-selected=true]');
      if (tab === 'updates') void store.loadUpdates(() => this.render());
      else void store.loadComments().then(() => this.render());
    },
    signIn: async (form, email, password) => {
      const answer = await submit(form, () => this.store.signIn(email, password), this.store.i18n, this.unreachable);
      if (!answer?.ok) return;
      if (!this.store.user) {
        // A second factor to answer, or one to set up elsewhere.
        this.render();
        this.focus('input');
        return;
      }
      await this.enterPanel();
    },
    continueWithSso: async () => {
      const popup = window.open('', 'svc-sso', 'popup,width=520,height=700');
      if (!popup) {
        this.store.notice = this.store.i18n.t('signIn.popupBlocked');
        this.render();
        return;
      }
      const refused = await this.store.signInWithSso(popup).catch(() => this.store.i18n.t('request.unreachable'));
      if (refused || !this.store.user) {
        this.store.notice = refused ?? '';
        this.render();
        return;
      }
      await this.enterPanel();
    },
    answerSecondFactor: async (form, code) => {
      const answer = await submit(form, () => this.store.answerSecondFactor(code), this.store.i18n, this.unreachable);
      if (!this.store.user) {
        if (answer?.status === 401) this.render();
        return;
      }
      await this.enterPanel();
    },
    signOut: async () => {
      await this.store.signOut();
      this.forget();
      void this.speak();
      this.render();
      this.focus('input');
    },
    openComment: async (id, pageUrl) => {
      await this.store.showComment(id, pageUrl);
      this.showPanel();
      this.refreshed();
      const card = this.focus(`[data-comment="${CSS.escape(id)}"]`);
      card?.scrollIntoView({ block: 'nearest' });
      if (pageUrl === this.store.page()) this.flash(id);
    },
    setStatus: async (status) => {
      this.store.status = status;
      await this.store.loadComments();
      this.refreshed();
    },
    triage: async (id, action) => {
      const answer = await this.store.triage(id, action).catch(() => null);
      this.refreshed();
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
      this.refreshed();
      this.focus('[aria-selected=true]');
    },
    setAllPages: async (all) => {
      this.store.allPages = all;
      await this.store.loadComments();
      this.refreshed();
    },
    showMore: async () => {
      await this.store.loadComments(true);
      this.refreshed();
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
      const answer = await submit(form, () => this.store.reply(id, body), this.store.i18n, this.unreachable);
      if (!answer?.ok) return;
      this.render();
      this.focus(`#svc-reply-${CSS.escape(id)}`);
    },
    verify: async (form, id, body) => {
      const answer = await submit(form, () => this.store.verify(id, body), this.store.i18n, this.unreachable);
      if (!answer?.ok) return;
      this.refreshed();
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
      const shoot = (element: Element | null) => {
        formStatus(form, this.store.i18n.t('screenshot.sentTaking'));
        return this.screenshot(element);
      };
      const answer = await submit(
        form,
        () => this.store.createComment(body, attach ? shoot : null),
        this.store.i18n,
        this.unreachable,
      );
      if (!answer?.ok) return;
      this.refreshed();
      this.focus(`[data-comment="${CSS.escape(answer.data.id)}"]`);
    },
    retryScreenshot: async (id) => {
      this.store.confirmation = { id, text: this.store.i18n.t('screenshot.taking') };
      this.render();
      const attached = await this.store.attachScreenshot(id, () => this.screenshot(this.tracker?.element(id) ?? null));
      if (attached) this.store.confirmation = { id, text: this.store.i18n.t('screenshot.attached') };
      await this.store.loadComments();
      this.refreshed();
      this.focus(attached ? `[data-comment="${CSS.escape(id)}"]` : `#svc-shoot-${CSS.escape(id)}`);
    },
    setLanguage: async (locale) => {
      await this.store.setLocale(locale).catch(() => null);
      await this.speak();
      this.render();
      this.focus('#svc-language');
    },
    cancelDraft: () => {
      this.store.draft = null;
      this.render();
      this.focus('[data-new]');
    },
  };
}
