import { h } from '../dom.js';
import type { StatusFilter, Store } from '../store.js';
import type { Actions } from './actions.js';
import { commentCard } from './comment-card.js';

const FILTERS: [StatusFilter, string][] = [
  ['', 'All'],
  ['open', 'Open'],
  ['applied', 'Completed'],
  ['live', 'Live'],
  ['verified', 'Verified'],
];

export function commentsView(store: Store, actions: Actions): Node[] {
  const filter = h(
    'div',
    { class: 'filters', role: 'group', 'aria-label': 'Show' },
    FILTERS.map(([value, label]) =>
      h(
        'button',
        {
          class: 'chip',
          type: 'button',
          id: `svc-filter-${value || 'all'}`,
          'aria-pressed': String(store.status === value),
          onClick: () => actions.setStatus(value),
        },
        label,
      ),
    ),
  );
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
  const numbers = store.pinNumbers();
  const list = store.comments.length
    ? h(
        'ul',
        { 'aria-label': 'Comments' },
        store.comments.map((c) => commentCard(store, actions, c, numbers.get(c.id))),
      )
    : h(
        'p',
        { class: 'empty' },
        store.status
          ? 'No comments with this status.'
          : store.allPages
            ? 'No comments yet.'
            : 'No comments on this page yet.',
      );
  const more = store.nextCursor
    ? h('button', { class: 'btn', type: 'button', id: 'svc-more', onClick: () => actions.showMore() }, 'Show more')
    : null;
  return more ? [toggle, filter, list, more] : [toggle, filter, list];
}
