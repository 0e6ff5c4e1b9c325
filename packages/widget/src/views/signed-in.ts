import { isLocale, LOCALE_NAMES, LOCALES } from '@svc/contract/i18n';
import { h } from '../dom.js';
import type { Store } from '../store.js';
import type { Tab } from '../view-state.js';
import type { Actions } from './actions.js';
import { commentsView } from './comments.js';
import { newCommentView } from './new-comment.js';
import { closeButton } from './parts.js';
import { updatesView } from './updates.js';

/** The header with its tabs and buttons, and the active tab's panel. */
export function signedInView(store: Store, actions: Actions): Node[] {
  const { t } = store.i18n;
  const tab = (id: Tab, label: string) =>
    h(
      'button',
      {
        role: 'tab',
        type: 'button',
        id: `svc-tab-${id}`,
        'aria-selected': String(store.view.tab === id),
        'aria-controls': 'svc-tabpanel',
        tabindex: store.view.tab === id ? '0' : '-1',
        onClick: () => actions.switchTab(id),
        onKeydown: (event: KeyboardEvent) => {
          if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
            actions.switchTab(id === 'updates' ? 'comments' : 'updates');
          }
        },
      },
      label,
    );
  const header = h(
    'header',
    null,
    h(
      'div',
      { role: 'tablist', 'aria-label': t('panel.tabs') },
      tab('updates', t('panel.updates')),
      tab('comments', t('panel.comments')),
    ),
    h(
      'button',
      {
        class: 'icon',
        type: 'button',
        'data-new': '',
        'aria-label': t('panel.newLabel'),
        onClick: () => actions.startPicking(),
      },
      t('panel.new'),
    ),
    closeButton(store, actions),
    h(
      'div',
      { class: 'who' },
      h(
        'span',
        null,
        ...store.i18n.parts('panel.signedInAs', { name: h('strong', null, store.session.user?.name ?? '') }),
      ),
      h('button', { class: 'link', type: 'button', onClick: () => actions.signOut() }, t('panel.signOut')),
      languageMenu(store, actions),
    ),
  );
  const content =
    store.view.tab === 'updates'
      ? updatesView(store, actions)
      : store.view.draft
        ? newCommentView(store, store.view.draft, actions)
        : commentsView(store, actions);
  return [
    header,
    h(
      'div',
      { class: 'body', id: 'svc-tabpanel', role: 'tabpanel', 'aria-labelledby': `svc-tab-${store.view.tab}` },
      content,
    ),
  ];
}

/** The person's language, kept on their account: "as this page or browser says", or one of the ten. */
function languageMenu(store: Store, actions: Actions): Node {
  const chosen = store.session.user?.locale ?? '';
  return h(
    'select',
    {
      id: 'svc-language',
      class: 'language',
      'aria-label': store.i18n.t('panel.language'),
      onChange: (event: Event) => {
        const value = (event.target as HTMLSelectElement).value;
        actions.setLanguage(isLocale(value) ? value : null);
      },
    },
    h('option', { value: '', selected: chosen === '' }, store.i18n.t('panel.languageAuto')),
    LOCALES.map((locale) =>
      h('option', { value: locale, lang: locale, selected: chosen === locale }, LOCALE_NAMES[locale]),
    ),
  );
}
