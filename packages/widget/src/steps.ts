// The steps recorder, a chunk of its own: loaded only once a reviewer is signed in (a visitor's
// page never fetches it), it keeps what they did last and what the page asked its servers, for
// the steps to reproduce a comment (read by the server: @svc/contract steps.ts).
// Kept: what was pressed, in words (its accessible name, not a selector); the routes taken,
// single-page ones included, as paths without their query; which field was typed in, by its
// label, never what was typed; the page's requests (method, address without query or
// fragment, status, duration). Never: the widget's own interface and requests, the words of a
// masked element (mask.ts). Bounded: the last `STEPS_ACTIONS_MAX` actions and
// `STEPS_REQUESTS_MAX` requests, none older than `STEPS_KEPT_MS`, and nothing once signed out.
import type { TrailAction, TrailRequest } from '@svc/contract';
import { STEPS_ACTIONS_MAX, STEPS_KEPT_MS, STEPS_REQUESTS_MAX } from '@svc/contract/rules';
import { nameOf, roleOf } from './anchoring/features.js';
import { type AnsweredRequest, bare, watchRequests } from './capture.js';
import { isMasked } from './mask.js';

/** What the chunk gives the widget (`window.__svcSteps`), and the replay's timeline. */
export interface StepsRecorder {
  /** Starts keeping steps (once; again after a sign-out) while `session` holds a token; its own requests (to its API) are left out. */
  start(session: SignedIn): void;
  /** The reviewer's last actions, oldest first, each with its time (`at`, ISO 8601). */
  recentActions(): TrailAction[];
  /** The page's last requests, oldest first, each with the time it was answered (`at`). */
  recentRequests(): TrailRequest[];
}

/** The widget's session, as far as the recorder reads it: its token (none: signed out) and its API. */
export interface SignedIn {
  api: { readonly token: string | null };
  embed: { apiBase: string };
}

/** Roles of what a person presses on purpose: a click on anything else is named by these around it, or not at all. */
const PRESSABLE = new Set([
  'button',
  'link',
  'checkbox',
  'radio',
  'switch',
  'tab',
  'menuitem',
  'menuitemcheckbox',
  'menuitemradio',
  'option',
  'treeitem',
  'combobox',
  'listbox',
  'slider',
]);

/** A field typed in: a click into it says nothing its typing will not (`typed`). */
const isTextField = (el: Element) =>
  (el as HTMLElement).isContentEditable || ['textbox', 'searchbox'].includes(roleOf(el));

const actions: TrailAction[] = [];
const requests: TrailRequest[] = [];
let started = false;
let session: SignedIn | null = null;
const signedIn = () => !!session?.api.token;
/** The field typed in last, so that typing on in it is one action. */
let typingIn: Element | null = null;
/** The path of the last route taken, so that a `replaceState` to the same path is none. */
let lastPath = '';

const now = () => new Date().toISOString();

/** The page's address as a step says it: its path, and a hash route (`#/cart`) without its query; never the query. */
function currentPath(): string {
  const route = /^#!?\//.test(location.hash) ? location.hash.split('?')[0] : '';
  return (location.pathname + route).slice(0, 2000);
}

/** Keeps `entry` at the end of `list`, at most `max` of them; nothing, and all forgotten, once signed out. */
function keep<T>(list: T[], max: number, entry: T): void {
  if (!signedIn()) {
    forget();
    return;
  }
  list.push(entry);
  if (list.length > max) list.splice(0, list.length - max);
}

function forget(): void {
  actions.length = 0;
  requests.length = 0;
  typingIn = null;
}

function act(action: TrailAction): void {
  if (action.kind !== 'type') typingIn = null;
  keep(actions, STEPS_ACTIONS_MAX, action);
}

function routeTaken(kind: 'open' | 'navigate'): void {
  const path = currentPath();
  if (kind === 'navigate' && path === lastPath) return;
  lastPath = path;
  act({ kind, at: now(), path });
}

/** The elements an event went through, innermost first, through open shadow roots; none when it was in the widget. */
function pageElements(event: Event): Element[] | null {
  const path = event.composedPath().filter((node): node is Element => node instanceof Element);
  return path.some((el) => el.hasAttribute('data-svc-widget')) ? null : path;
}

/** The words of what was pressed or typed in: its accessible name, none when it is masked. */
const wordsOf = (el: Element) => (isMasked(el) ? '' : nameOf(el, roleOf(el)));

function pressed(event: Event): void {
  const path = pageElements(event);
  if (!path?.[0] || isTextField(path[0])) return;
  const target = path.find((el) => PRESSABLE.has(roleOf(el)) || el.localName === 'summary' || el.localName === 'label');
  act({ kind: 'press', at: now(), name: target ? wordsOf(target) : '' });
}

function typed(event: Event): void {
  const field = pageElements(event)?.[0];
  if (!field || field === typingIn) return;
  act({ kind: 'type', at: now(), name: wordsOf(field) });
  typingIn = field;
}

/** A request of the page kept, unless it is the widget's own (to its API). */
function answered({ method, url, status, durationMs }: AnsweredRequest): void {
  if (!session || url.startsWith(session.embed.apiBase)) return;
  keep(requests, STEPS_REQUESTS_MAX, {
    method: method.slice(0, 10),
    url: bare(url).slice(0, 2000),
    status,
    durationMs,
    at: now(),
  });
}

/** Single-page routes: the history's changes (after the app made them), its back and forward, the hash. */
function watchRoutes(): void {
  for (const name of ['pushState', 'replaceState'] as const) {
    const original = history[name];
    history[name] = function (this: History, ...args: Parameters<History['pushState']>) {
      const result = original.apply(this, args);
      routeTaken('navigate');
      return result;
    };
  }
  addEventListener('popstate', () => routeTaken('navigate'));
  addEventListener('hashchange', () => routeTaken('navigate'));
}

function start(widgetSession: SignedIn): void {
  session = widgetSession;
  if (started) return;
  started = true;
  routeTaken('open');
  // In the capture phase, so that a page that stops a click's propagation still has it kept.
  document.addEventListener('click', pressed, true);
  document.addEventListener('input', typed, true);
  watchRoutes();
  watchRequests(answered);
}

const recent = <T extends { at: string }>(list: T[]): T[] => {
  if (!signedIn()) forget();
  const since = new Date(Date.now() - STEPS_KEPT_MS).toISOString();
  return list.filter((entry) => entry.at >= since);
};

export const recentActions = (): TrailAction[] => recent(actions);
export const recentRequests = (): TrailRequest[] => recent(requests);

(window as { __svcSteps?: StepsRecorder }).__svcSteps = { start, recentActions, recentRequests };
