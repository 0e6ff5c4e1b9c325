import { h } from '../dom.js';
import type { Store } from '../store.js';
import type { Actions } from './actions.js';
import { commentCard } from './comment-card.js';

export function commentsView(store: Store, actions: Actions): Node[] {
  const toggle = h(
    'label',
    { class: 'toggle' },
    h('input', {
      type: 'checkbox',
      id: 'svc-all-pages',
      checked: store.allPages,
      onChange: (event: Event) => actions.setAllPages((event.target as HTMLInputElement).checked),
    }),
    'All pages',
  );
  const list = store.comments.length
    ? h(
        'ul',
        { 'aria-label': 'Comments' },
        store.comments.map((c) => commentCard(store, actions, c)),
      )
    : h('p', { class: 'empty' }, store.allPages ? 'No comments yet.' : 'No comments on this page yet.');
  const more = store.nextCursor
    ? h('button', { class: 'btn', type: 'button', id: 'svc-more', onClick: () => actions.showMore() }, 'Show more')
    : null;
  return more ? [toggle, list, more] : [toggle, list];
}
