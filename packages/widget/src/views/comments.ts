import { STATUS_FILTERS } from '@svc/contract/vocabulary';
import { h } from '../dom.js';
import { pinNumbers } from '../pinned.js';
import type { Comment, Store } from '../store.js';
import type { Actions } from './actions.js';
import { commentCard } from './comment-card.js';

export function commentsView(store: Store, actions: Actions): Node[] {
  const { t } = store.i18n;
  const filter = h(
    'div',
    { class: 'filters', role: 'group', 'aria-label': t('comments.show') },
    STATUS_FILTERS.map(([value, label]) =>
      h(
        'button',
        {
          class: 'chip',
          type: 'button',
          id: `svc-filter-${value || 'all'}`,
          'aria-pressed': String(store.status === value),
          onClick: () => actions.setStatus(value),
        },
        t(label),
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
    t('comments.allPages'),
  );
  // Those who divide the work choose whose comments (clients see who is on one, no more).
  const whose = store.session.can?.assignComments
    ? h(
        'label',
        { class: 'whose' },
        `${t('comments.whose')} `,
        h(
          'select',
          {
            id: 'svc-whose',
            onChange: (event: Event) =>
              actions.setAssignee((event.target as HTMLSelectElement).value as '' | 'me' | 'none'),
          },
          (
            [
              ['', 'comments.anyone'],
              ['me', 'comments.mine'],
              ['none', 'comments.unassigned'],
            ] as const
          ).map(([value, label]) => h('option', { value, selected: store.assignee === value }, t(label))),
        ),
      )
    : null;
  const numbers = pinNumbers(store);
  const card = (c: Comment) => commentCard(store, actions, c, numbers.get(c.id));
  // This page's comments whose element is not found: apart, so that nobody takes them for pinned.
  const missing = store.comments.filter((c) => numbers.has(c.id) && store.view.placements.get(c.id) === null);
  const listed = store.comments.filter((c) => !missing.includes(c));
  const list = listed.length
    ? h('ul', { 'aria-label': t('comments.list') }, listed.map(card))
    : h(
        'p',
        { class: 'empty' },
        t(
          store.status
            ? 'comments.emptyStatus'
            : store.allPages
              ? 'comments.emptyAll'
              : missing.length
                ? 'comments.emptyOthers'
                : 'comments.emptyPage',
        ),
      );
  const apart = missing.length
    ? h(
        'section',
        { class: 'missing', 'aria-labelledby': 'svc-missing-title' },
        h('h3', { id: 'svc-missing-title' }, t('comments.missingTitle', { count: missing.length })),
        h('p', { class: 'muted' }, t('comments.missingHelp')),
        h('ul', { 'aria-label': t('comments.missingList') }, missing.map(card)),
      )
    : null;
  const more = store.nextCursor
    ? h(
        'button',
        { class: 'btn', type: 'button', id: 'svc-more', onClick: () => actions.showMore() },
        t('comments.more'),
      )
    : null;
  return [toggle, whose, filter, list, apart, more].filter((node): node is HTMLElement => node !== null);
}
