// The widget: the shell on the page (shell.ts), the state (store.ts, with the session and the
// view state), picking (picking.ts) and the panel (panel-content.ts, whose chunk brings its
// views and actions), put together.
// Every change of the state is announced here, and redrawn once (`changed`).

import { pickLocale } from '@svc/contract/i18n';
import { Poller } from '@svc/contract/poller';
import { takeAccessToken, takeParam } from './address.js';
import type { Change } from './changes.js';
import { type CaptureOptions, loadChunk, loadLocale, takeScreenshot } from './chunks.js';
import type { WidgetConfig } from './config.js';
import { wordsOf } from './i18n.js';
import { watchNavigation } from './navigation.js';
import { PanelContent } from './panel-content.js';
import { Picker, type PickResult } from './picking.js';
import { PinLayer } from './pin-layer.js';
import { Shell } from './shell.js';
import { Store } from './store.js';
import type { Tab } from './view-state.js';

export class Widget {
  private readonly shell: Shell;
  private readonly store: Store;
  private readonly poller: Poller;
  private readonly picker: Picker;
  private readonly pins: PinLayer;
  private readonly panel: PanelContent;
  /** The page whose comments are shown, to tell when an in-app navigation changed it. */
  private shownPage = '';
  /** Counts the changes of language asked for: only the latest is applied. */
  private languageAsked = 0;
  /** Changes announced while a batch runs (see `batch`), drawn once it ends. */
  private held: Set<Change> | null = null;
  /** Read when the widget starts, before a hash router can rewrite the address. */
  private readonly accessToken = takeAccessToken();

  constructor(private readonly config: WidgetConfig) {
    this.shell = new Shell(config.nonce, {
      launcher: () => (this.shell.panelShown ? this.close() : this.open()),
      // The panel's views load when someone reaches for the launcher (a pointer over it, focus;
      // a tap loads them as it opens): a page whose visitor never opens the panel never pays for them.
      reach: () => void this.panel.load(),
      escape: () => this.close(),
      redraw: () => this.changed(new Set(['view'])),
    });
    this.store = new Store(config, (change) => (this.held ? this.held.add(change) : this.changed(new Set([change]))));
    this.store.api.onUnauthorized = () => this.sessionEnded();
    this.poller = pollerOf(this.store, config, () => this.refreshOpenList());
    this.pins = new PinLayer(this.shell, this.store, config, (id, pageUrl) => this.openComment(id, pageUrl));
    this.picker = new Picker(this.shell, config.pickShortcut, () => this.pins.anchoring());
    this.panel = new PanelContent(
      this.shell,
      this.store,
      config,
      {
        store: this.store,
        focus: (selector) => this.shell.focus(selector),
        showPanel: () => this.showPanel(),
        close: () => this.close(),
        pick: () => this.pick(false),
        enterPanel: () => this.enterPanel(),
        speak: () => this.speak(),
        signedOut: () => {
          this.poller.stop();
          void this.speak();
        },
        screenshot: (element, cover) => this.screenshot(element, cover),
        chunk: (name) => loadChunk(this.config, name),
        elementOf: (id) => this.pins.elementOf(id),
        flash: (element) => this.shell.flash(element),
        batch: (work) => this.batch(work),
      },
      () => this.open(),
    );
    this.shell.panel.setAttribute('aria-label', this.store.i18n.t('widget.label'));
    this.shell.onDestroy(watchNavigation(() => void this.pageChanged()));
    this.picker.onShortcut(
      () => !!this.store.session.user,
      () => void this.pick(true),
    );
    this.showCount();
    this.keepSteps();
  }

  /**
   * Once a reviewer is signed in (from the start when a token is kept: before the server has
   * said whose it is), their steps are kept by the recorder's chunk; it forgets them, and keeps
   * no more, once the token is gone. A visitor's page never loads it.
   */
  private keepSteps(): void {
    const { session } = this.store;
    if (session.api.token) void loadChunk(this.config, '__svcSteps').then((steps) => steps.start(session));
  }

  async mount(): Promise<void> {
    this.shell.mount();
    void this.speak();
    if (!(await this.store.session.exchangeAccessLink(this.accessToken))) this.showPanel();
    if (await this.store.session.resume()) await this.signedIn();
    this.panel.draw();
    // "Open on page" from the console: ?svc_comment=<id> opens the panel on that comment.
    const shown = takeParam('svc_comment');
    if (shown && this.store.session.user) this.openComment(shown, this.store.page());
  }

  destroy(): void {
    this.poller.destroy();
    this.picker.cancel();
    this.pins.destroy();
    this.shell.destroy();
  }

  /** Draws again what shows the changes announced: the badge, the pins, the open panel. */
  private changed(changes: Set<Change>): void {
    const { i18n, view } = this.store;
    if (changes.has('language')) this.shell.speak(i18n.locale, i18n.dir, i18n.t('widget.label'));
    if (changes.has('count') || changes.has('session') || changes.has('language')) this.showCount();
    // A new count: a fresh Updates list when it is the one on screen.
    if (changes.has('count') && this.shell.panelShown && view.tab === 'updates' && this.store.updates.count > 0)
      void this.store.updates.load();
    if (changes.has('session') || changes.has('comments')) {
      this.shownPage = this.store.page();
      this.pins.follow();
    }
    if (changes.size === 1 && changes.has('count')) return;
    this.pins.draw();
    if ((changes.size > 1 || !changes.has('pins')) && (this.shell.panelShown || this.shell.welcome.firstChild))
      this.panel.draw();
  }

  /** Runs `work` with the redraws it announces held until it ends, then drawn once. */
  private async batch<T>(work: () => Promise<T>): Promise<T> {
    const outer = this.held;
    this.held ??= new Set();
    try {
      return await work();
    } finally {
      if (!outer) {
        const held = this.held;
        this.held = null;
        if (held?.size) this.changed(held);
      }
    }
  }

  /** After an in-app navigation: the new page's comments and pins, the panel left as it is. */
  private async pageChanged(): Promise<void> {
    const page = this.store.page();
    if (!this.store.session.user || page === this.shownPage) return;
    this.shownPage = page;
    this.store.view.place(new Map());
    await this.store.loadComments();
  }

  /** While the panel shows the comments, what it shows is re-read (a 304 when unchanged). */
  private async refreshOpenList(): Promise<void> {
    const { view } = this.store;
    if (this.shell.panelShown && view.tab === 'comments' && !view.draft) await this.store.refresh();
  }

  /** A screenshot of the page as it is, the widget left out, `element` outlined and `cover` painted over. */
  private screenshot(element: Element | null, cover: CaptureOptions['cover']): Promise<Blob> {
    const outline = element?.getBoundingClientRect() ?? null;
    return takeScreenshot(this.config, { exclude: this.shell.host, outline, cover });
  }

  open(tab?: Tab): void {
    if (tab) this.store.view.set({ tab });
    this.showPanel();
    this.shell.focus('[aria-selected=true], input, textarea');
    void this.panel.showOnceLoaded();
    if (this.store.session.user && this.store.view.tab === 'updates') void this.store.updates.load();
  }

  close(): void {
    this.store.confirm(null);
    this.shell.hidePanel();
    this.shell.focusLauncher();
  }

  private showPanel(): void {
    this.shell.showPanel();
    this.panel.draw();
  }

  /** Signed in (a stored token, a password, a second factor, single sign-on): comments, language, polling and pins; the panel's views (a first visit's welcome is theirs). */
  private async signedIn(): Promise<void> {
    void this.panel.load();
    this.keepSteps();
    await this.store.open();
    void this.speak();
    this.poller.start();
  }

  /** Just signed in from the panel: the panel, the poll, focus on the tabs. */
  private async enterPanel(): Promise<void> {
    await Promise.all([this.signedIn(), this.panel.load()]);
    this.panel.draw();
    this.shell.focus('[aria-selected=true]');
  }

  /** The server refused the token: back to the sign-in, saying why. */
  private sessionEnded(): void {
    if (!this.store.session.user) return;
    this.store.forget(this.store.i18n.t('signIn.sessionEnded'));
    this.poller.stop();
    this.showPanel();
  }

  private showCount(): void {
    const { i18n } = this.store;
    const { count } = this.store.updates;
    this.shell.showCount(count, count ? i18n.t('widget.unread', { count }) : i18n.t('widget.label'));
  }

  /**
   * Speaks the language the order gives (the person's, the site's, the browser's, the
   * workspace's; see i18n.ts): its chunk loaded first, then everything drawn again in it, right
   * to left where it is written so. A chunk that does not load leaves the language as it was.
   */
  private async speak(): Promise<void> {
    const asked = ++this.languageAsked;
    const { session } = this.store;
    const locale =
      pickLocale([session.user?.locale, this.config.locale, ...(navigator.languages ?? [])]) ??
      pickLocale([await session.readWorkspaceLocale()]) ??
      'en';
    if (locale === session.i18n.locale) return;
    const messages = locale === 'en' ? {} : await loadLocale(this.config, locale).catch(() => null);
    if (!messages || asked !== this.languageAsked) return;
    session.speak(wordsOf(locale, messages));
  }

  /** Opens the panel on comment `id` of page `pageUrl` (see `Actions.openComment`). */
  private openComment(id: string, pageUrl: string): void {
    void this.panel.act().then((actions) => actions?.openComment(id, pageUrl));
  }

  /** Picks an element: for a new comment, or to move the pin of `view.repinning`; `keepFocus` from the shortcut. */
  private async pick(keepFocus: boolean): Promise<void> {
    const { view } = this.store;
    const picked = await this.picker.pick(this.store.i18n.t, { wholePage: !view.repinning, keepFocus });
    this.picked(picked);
  }

  private picked(picked: PickResult): void {
    const { view } = this.store;
    const repinning = view.repinning;
    if (repinning) {
      view.set({ repinning: null });
      const moved = picked && picked !== 'page' ? this.store.repin(repinning, picked.anchor) : Promise.resolve();
      void moved.then(() => this.openComment(repinning, this.store.page()));
      return;
    }
    if (picked) {
      const page = this.store.page();
      view.set({ draft: picked === 'page' ? { element: null, anchor: null, page } : { ...picked, page } });
    }
    this.open('comments');
    // Cancelled: back where the user was, on the button that started it.
    if (!picked) this.shell.focus('[data-new]');
  }
}

/**
 * The poll of the unread count: one tab of the browser polls for all of them (same server, same
 * person); each re-reads its open panel (`refresh`) at the cadence of the polls, its own or
 * another tab's.
 */
function pollerOf(store: Store, config: WidgetConfig, refresh: () => Promise<void>): Poller {
  return new Poller(
    config.notifyPollMs,
    async () => {
      const result = await store.updates.poll();
      if (result.outcome === 'ok') await refresh();
      return result;
    },
    {
      key: () => `${config.apiBase}|${store.session.user?.id ?? ''}`,
      receive: (shared) => {
        store.updates.sharedCount(shared as { count: number; etag: string | null });
        void refresh();
      },
    },
  );
}
