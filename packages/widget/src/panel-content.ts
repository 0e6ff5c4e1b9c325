// The panel's content: the sign-in or the signed-in views, from the panel chunk (panel.ts,
// loaded the first time the panel needs them), drawn from the state.
import { type ChunkSource, type Chunks, loadChunk } from './chunks.js';
import { adoptStyles, h, redraw } from './dom.js';
import { addEnglish } from './i18n.js';
import type { PanelHost } from './panel-host.js';
import type { Shell } from './shell.js';
import type { Store } from './store.js';
import type { Actions } from './views/actions.js';

/** Where focus goes in the panel when it opens or loses what had it. */
const FIRST_FOCUS = '[aria-selected=true], input, textarea, .empty button';

export class PanelContent {
  /** The panel's views, once their chunk is loaded, and what their actions do. */
  private views: Chunks['__svcPanel'] | null = null;
  private actions: Actions | null = null;
  private failed = false;

  constructor(
    private readonly shell: Shell,
    private readonly store: Store,
    private readonly source: ChunkSource,
    private readonly host: PanelHost,
    /** "Try again" after the views failed to load. */
    private readonly retry: () => void,
  ) {}

  /** Loads the views once, and again after a failed load. */
  async load(): Promise<void> {
    this.failed = false;
    const views = this.views ?? (await loadChunk(this.source, '__svcPanel').catch(() => null));
    if (views && !this.views) {
      this.views = views;
      this.actions = views.panelActions(this.host);
      addEnglish(views.english);
      adoptStyles(this.shell.root, views.styles, this.source.nonce);
      // What waited for the views (a first visit's welcome) is drawn.
      this.draw();
    }
    this.failed = !this.views;
  }

  /** Opened before the views arrived: they show, and take focus, once loaded. */
  async showOnceLoaded(): Promise<void> {
    if (this.views) return;
    await this.load();
    if (!this.shell.panelShown) return;
    // Drawn meanwhile (the sign-in finished first, an update arrived): drawn again, it would
    // lose what has focus. Focus goes in all the same unless something inside has it already.
    if (!this.shell.panel.querySelector('[role=tablist]')) this.draw();
    if (!this.shell.panel.contains(this.shell.root.activeElement)) this.shell.focus(FIRST_FOCUS);
  }

  /** The panel's actions, loading them first; null when their chunk does not load. */
  async act(): Promise<Actions | null> {
    await this.load();
    return this.actions;
  }

  /**
   * Redraws the panel from the state, and a first visit's welcome; focus, typed text and scroll
   * position survive (see `redraw`). A hidden panel is drawn as it opens (see `Widget.showPanel`).
   */
  draw(): void {
    if (this.shell.holdRedraw()) return;
    const { session } = this.store;
    const shown = this.shell.panelShown;
    const { views, actions } = this;
    redraw(this.shell.welcome, views && actions ? views.welcomeView(this.store, actions) : []);
    if (views && !shown) return;
    // The sign-in offers the workspace's own provider: asked once, shown when it answers.
    if (!session.user && shown && session.sso === undefined) void session.discoverSso();
    const { t } = this.store.i18n;
    // Shown before the views are loaded (a session ended, a refused link): drawn once they are.
    if (!views && !this.failed && shown) void this.load().then(() => this.views && this.draw());
    const focused = () => this.shell.panel.contains(this.shell.root.activeElement);
    const hadFocus = focused();
    redraw(
      this.shell.panel,
      views && actions
        ? session.user
          ? views.signedInView(this.store, actions)
          : views.signInView(this.store, actions)
        : this.failed
          ? [
              h(
                'p',
                { class: 'empty', role: 'alert' },
                `${t('widget.panelFailed')} `,
                h('button', { class: 'link', type: 'button', onClick: this.retry }, t('widget.tryAgain')),
              ),
            ]
          : [h('p', { class: 'empty', role: 'status' }, t('widget.loading'))],
    );
    // What had focus went with the redraw (the sign-in's field, once the stored session was
    // confirmed): focus stays in the open panel, on its first place, never on the page.
    if (hadFocus && !focused()) this.shell.focus(FIRST_FOCUS);
  }
}
