import { h } from '../dom.js';
import type { Store, Tab } from '../store.js';
import type { Actions } from './actions.js';
import { commentsView } from './comments.js';
import { newCommentView } from './new-comment.js';
import { closeButton } from './parts.js';
import { updatesView } from './updates.js';

/** The header with its tabs and buttons, and the active tab's panel. */
export function signedInView(store: Store, actions: Actions): Node[] {
  const tab = (id: Tab, label: string) =>
    h(
      'button',
      {
        role: 'tab',
        type: 'button',
        id: `svc-tab-${id}`,
        'aria-selected': String(store.tab === id),
        'aria-controls': 'svc-tabpanel',
        tabindex: store.tab === id ? '0' : '-1',
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
    h('div', { role: 'tablist', 'aria-label': 'Feedback' }, tab('updates', 'Updates'), tab('comments', 'Comments')),
    h(
      'button',
      {
        class: 'icon',
        type: 'button',
        'data-new': '',
        'aria-label': 'New comment',
        onClick: () => actions.startPicking(),
      },
      '+ New',
    ),
    closeButton(actions),
    h(
      'div',
      { class: 'who' },
      h('span', null, 'Signed in as ', h('strong', null, store.user?.name ?? '')),
      h('button', { class: 'link', type: 'button', onClick: () => actions.signOut() }, 'Sign out'),
    ),
  );
  const content =
    store.tab === 'updates'
      ? updatesView(store, actions)
      : store.draft
        ? newCommentView(store.draft, actions, store.screenshotByDefault, store.words)
        : commentsView(store, actions);
  return [
    header,
    h(
      'div',
      { class: 'body', id: 'svc-tabpanel', role: 'tabpanel', 'aria-labelledby': `svc-tab-${store.tab}` },
      content,
    ),
  ];
}
