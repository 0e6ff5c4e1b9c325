// A person's first visit: a short welcome beside the launcher, saying what this is and how to
// pin a comment, with that as its first action. Shown once per person in a browser: gone for
// good once they dismiss it or take its action (remembered in localStorage, by API server and
// person, under `svc:welcomed:<apiBase>:<user id>`); hidden while the panel is open or an
// element is being picked. Not a dialog: it takes no focus from the page; Tab from the
// launcher reaches it.
import { h } from '../dom.js';
import type { Store } from '../store.js';
import type { Actions } from './actions.js';

/** Welcomed in this page visit, where the browser keeps nothing (storage blocked). */
const welcomedHere = new Set<string>();

/** Where the browser remembers that this person was welcomed by this API server's widget. */
const memoryOf = (store: Store) => `svc:welcomed:${store.session.embed.apiBase}:${store.session.user?.id}`;

function welcomed(store: Store): boolean {
  const key = memoryOf(store);
  try {
    if (localStorage.getItem(key)) return true;
  } catch {
    // Storage blocked: what this visit remembers.
  }
  return welcomedHere.has(key);
}

/** The person was welcomed: not again, in this browser. */
export function rememberWelcomed(store: Store): void {
  const key = memoryOf(store);
  welcomedHere.add(key);
  try {
    localStorage.setItem(key, new Date().toISOString());
  } catch {
    // Storage blocked or full: remembered for this visit.
  }
}

/** The welcome, for a signed-in person not yet welcomed in this browser; nothing otherwise. */
export function welcomeView(store: Store, actions: Actions): Node[] {
  if (!store.session.user || welcomed(store)) return [];
  const { t } = store.i18n;
  return [
    h(
      'section',
      { class: 'welcome', 'aria-labelledby': 'svc-welcome-title' },
      h('h2', { id: 'svc-welcome-title' }, t('welcome.title')),
      h('p', null, t('welcome.text')),
      h(
        'div',
        { class: 'actions start' },
        h(
          'button',
          { class: 'btn primary', type: 'button', id: 'svc-welcome-pin', onClick: () => actions.welcomed(true) },
          t('welcome.pin'),
        ),
        h(
          'button',
          { class: 'btn', type: 'button', id: 'svc-welcome-dismiss', onClick: () => actions.welcomed(false) },
          t('welcome.dismiss'),
        ),
      ),
    ),
  ];
}
