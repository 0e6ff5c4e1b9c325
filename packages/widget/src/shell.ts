// The widget's frame on the host page: its element and shadow root, the launcher with its
// badge, the panel as a dialog (focus kept inside, Esc closes it), the pins' layer and the
// picking outline. It owns the DOM and focus; what the panel shows is drawn by the widget.
import { adoptStyles, h } from './dom.js';
import { styles } from './styles.js';
import { flashView } from './views/pins.js';

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

function hostElement(): HTMLElement {
  const host = document.createElement('svc-feedback');
  host.setAttribute('data-svc-widget', '');
  return host;
}

/** What the shell asks of the widget: the launcher was pressed (or is about to be), Esc was pressed in the open panel, a held redraw may run. */
export interface ShellEvents {
  launcher(): void;
  /** A pointer came over the launcher, or focus: the panel may open soon. */
  reach(): void;
  escape(): void;
  redraw(): void;
}

export class Shell {
  /** A host element of its own name: no page rule written for divs or spans reaches it. */
  readonly host = hostElement();
  readonly root = this.host.attachShadow({ mode: 'open' });
  readonly panel = h('section', { class: 'panel', role: 'dialog', 'aria-modal': 'true', hidden: true });
  readonly pins = h('div');
  readonly outline = h('div', { class: 'outline' });
  /** A first visit's welcome, beside the launcher (drawn by the panel's views). */
  readonly welcome = h('div');
  private readonly badge = h('span', { class: 'badge', hidden: true, 'aria-hidden': 'true' });
  private readonly launcher: HTMLButtonElement;
  private readonly cleanups: (() => void)[] = [];
  /**
   * While a pointer is pressed on the widget, redraws wait for its release (a button replaced
   * between press and release would never get its click), for a second at most: a release the
   * page never hears (over an iframe) must not leave the panel stale.
   */
  private pressedAt = 0;
  private redrawAfterPress = false;

  constructor(
    nonce: string,
    private readonly events: ShellEvents,
  ) {
    this.launcher = h('button', {
      class: 'launcher',
      type: 'button',
      'aria-haspopup': 'dialog',
      'aria-expanded': 'false',
      onClick: () => events.launcher(),
      onPointerenter: () => events.reach(),
      onFocus: () => events.reach(),
    });
    this.launcher.append(icon(), this.badge);
    this.root.append(this.pins, this.outline, this.panel, this.launcher, this.welcome);
    adoptStyles(this.root, styles, nonce);
    // Esc from anywhere in the widget closes the panel; picking handles its own Esc. Tab
    // stays inside the open panel, as in any dialog.
    this.root.addEventListener('keydown', (event) => {
      const key = (event as KeyboardEvent).key;
      if (key === 'Escape' && this.panelShown) {
        event.stopPropagation();
        events.escape();
      } else if (key === 'Tab' && this.panelShown) {
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
    for (const type of ['pointerup', 'pointercancel']) this.listen(type, released, true);
  }

  /** Listens on the window until the widget is destroyed. */
  listen(type: string, listener: (event: Event) => void, capture: boolean): void {
    addEventListener(type, listener, capture);
    this.cleanups.push(() => removeEventListener(type, listener, capture));
  }

  /** Runs `cleanup` when the widget is destroyed. */
  onDestroy(cleanup: () => void): void {
    this.cleanups.push(cleanup);
  }

  /** Puts the widget on the page, and keeps it there. */
  mount(): void {
    document.body.append(this.host);
    this.stayOnPage();
  }

  destroy(): void {
    for (const cleanup of this.cleanups) cleanup();
    this.host.remove();
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
    this.onDestroy(() => observer.disconnect());
  }

  get panelShown(): boolean {
    return !this.panel.hidden;
  }

  showPanel(): void {
    this.panel.hidden = false;
    this.launcher.setAttribute('aria-expanded', 'true');
  }

  hidePanel(): void {
    this.panel.hidden = true;
    this.launcher.setAttribute('aria-expanded', 'false');
  }

  /** Focus back on the launcher, after the panel closed. */
  focusLauncher(): void {
    this.launcher.focus();
  }

  /** Moves focus to the first element of the panel matching `selector`. */
  focus(selector: string): HTMLElement | null {
    const el = this.panel.querySelector<HTMLElement>(selector);
    el?.focus();
    return el;
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

  /** The unread count on the badge, and the launcher's name (`label`) saying it. */
  showCount(count: number, label: string): void {
    this.badge.hidden = count === 0;
    this.badge.textContent = count > 99 ? '99+' : String(count);
    this.launcher.setAttribute('aria-label', label);
  }

  /** The language the widget speaks, for screen readers and the direction of its text. */
  speak(locale: string, dir: string, panelLabel: string): void {
    this.host.setAttribute('lang', locale);
    this.host.setAttribute('dir', dir);
    this.panel.setAttribute('aria-label', panelLabel);
  }

  /** Outlines an element of the page for a moment: under the panel, which may cover it (a phone's). */
  flash(target: Element): void {
    const mark = flashView(target, this.host);
    this.root.insertBefore(mark, this.panel);
    setTimeout(() => mark.remove(), 2500);
  }

  /** Whether a redraw waits for a pointer pressed on the widget (see `pressedAt`); noted if so. */
  holdRedraw(): boolean {
    if (!this.pressedAt || performance.now() - this.pressedAt > 1000) return false;
    if (!this.redrawAfterPress) setTimeout(() => this.redrawHeldBack(), 1000);
    this.redrawAfterPress = true;
    return true;
  }

  private redrawHeldBack(): void {
    if (!this.redrawAfterPress) return;
    this.redrawAfterPress = false;
    this.events.redraw();
  }
}
