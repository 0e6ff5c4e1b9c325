/** A keyboard shortcut, as the embed names it ("alt+shift+c"). */
export interface Shortcut {
  key: string;
  alt: boolean;
  shift: boolean;
  ctrl: boolean;
  meta: boolean;
}

/** Whether a key press is the shortcut. `code` for letters and digits: Alt changes what `key` says on some layouts. */
export function matchesShortcut(event: KeyboardEvent, shortcut: Shortcut): boolean {
  const pressed = /^(Key|Digit)/.test(event.code) ? event.code.slice(-1).toLowerCase() : event.key.toLowerCase();
  return (
    pressed === shortcut.key &&
    event.altKey === shortcut.alt &&
    event.shiftKey === shortcut.shift &&
    event.ctrlKey === shortcut.ctrl &&
    event.metaKey === shortcut.meta
  );
}

/** The widget's configuration, read from the embed (see `configFrom`). */
export interface WidgetConfig {
  apiBase: string;
  projectKey: string;
  /** The project's workspace (`data-workspace`), so that its single sign-on is found by id, not by a key another workspace may share; null: by key. */
  workspace: string | null;
  notifyPollMs: number;
  /** Record console errors, uncaught errors and rejections for new comments. */
  captureConsole: boolean;
  /** Record failed requests (method, address without query, status, duration) for new comments. */
  captureNetwork: boolean;
  /** Whether "Attach a screenshot" starts checked on the new-comment form. */
  screenshot: boolean;
  /** Starts picking without moving focus out of the page (and picks, pressed again); null: none. */
  pickShortcut: Shortcut | null;
  /** The page's CSP nonce (the widget script's own by default), for the scripts it loads and, in old browsers, its style. */
  nonce: string;
  /** The language the site asks for (`data-locale`), after the person's own choice; null: none. */
  locale: string | null;
}

const DEFAULT_POLL_MS = 60_000;
/** The badge is never polled more often than this, whatever the embed asks. */
export const MIN_POLL_MS = 1_000;

/** Picking without a click starts with this, unless the embed names another or "none". */
export const DEFAULT_PICK_SHORTCUT = 'alt+shift+c';

/** A shortcut as the embed writes it ("alt+shift+c", "ctrl+alt+p"), or null for "none" or nonsense. */
export function shortcutFrom(text: string): Shortcut | null {
  const parts = text
    .toLowerCase()
    .split('+')
    .map((part) => part.trim());
  const key = parts.pop() ?? '';
  const modifiers = new Set(parts);
  if (key.length !== 1 || modifiers.size === 0 || [...modifiers].some((m) => !/^(alt|shift|ctrl|meta)$/.test(m))) {
    return null;
  }
  return {
    key,
    alt: modifiers.has('alt'),
    shift: modifiers.has('shift'),
    ctrl: modifiers.has('ctrl'),
    meta: modifiers.has('meta'),
  };
}

/**
 * The embed's configuration: `window.__SVC_CONFIG__` first, then the script tag's `data-`
 * attributes; the API defaults to the script's origin. Null when it names no project.
 */
/** What an embed may set in `window.__SVC_CONFIG__` (the shortcut as text). */
export type EmbedOptions = Partial<Omit<WidgetConfig, 'pickShortcut'>> & { pickShortcut?: string };

/** Where the embed's script tag says what it is: its data attributes, address and nonce. */
export interface EmbedScript {
  dataset: Record<string, string | undefined>;
  src?: string;
  nonce?: string;
}

export function configFrom(global: EmbedOptions, script: EmbedScript | null): WidgetConfig | null {
  const data = script?.dataset ?? {};
  const scriptOrigin = script?.src ? new URL(script.src).origin : '';
  const apiBase = String(global.apiBase ?? data.apiBase ?? scriptOrigin).replace(/\/+$/, '');
  const projectKey = global.projectKey ?? data.projectKey;
  if (!apiBase || !projectKey) return null;
  const poll = Number(global.notifyPollMs ?? data.notifyPollMs ?? DEFAULT_POLL_MS);
  /** On unless the embed says false (`captureConsole: false`, `data-capture-console="false"`). */
  const flag = (name: 'captureConsole' | 'captureNetwork' | 'screenshot') => {
    const value = global[name] ?? data[name];
    return value !== false && value !== 'false';
  };
  return {
    apiBase,
    projectKey: String(projectKey),
    workspace: global.workspace ?? data.workspace ?? null,
    notifyPollMs: Number.isFinite(poll) ? Math.max(MIN_POLL_MS, poll) : DEFAULT_POLL_MS,
    captureConsole: flag('captureConsole'),
    captureNetwork: flag('captureNetwork'),
    screenshot: flag('screenshot'),
    pickShortcut: shortcutFrom(String(global.pickShortcut ?? data.pickShortcut ?? DEFAULT_PICK_SHORTCUT)),
    nonce: String(global.nonce ?? script?.nonce ?? ''),
    locale: global.locale ?? data.locale ?? null,
  };
}
