import { h } from '../dom.js';
import type { Comment, Store } from '../store.js';
import type { Actions } from './actions.js';

// The team puts the workspace's labels on a comment from its card: a menu adds one, each label
// shown has a button that takes it off. The workspace's labels are the Store's lists (asked
// when a card first needs them, the panel drawn again when they arrive).

/** Its labels: each its name after a dot of its colour; for the team, with a button that takes it off. */
export function labelChips(store: Store, actions: Actions, c: Comment): Node | null {
  if (!c.labels.length) return null;
  const { t } = store.i18n;
  const ids = c.labels.map((label) => label.id);
  return h(
    'div',
    { class: 'labels' },
    c.labels.map((label) =>
      h(
        'span',
        { class: 'label' },
        h('span', { class: `dot ${label.color}`, 'aria-hidden': 'true' }),
        label.name,
        c.can.triage
          ? h(
              'button',
              {
                type: 'button',
                class: 'unlabel',
                id: `svc-unlabel-${c.id}-${label.id}`,
                'aria-label': t('triage.removeLabel', { name: label.name }),
                onClick: () =>
                  actions.setLabels(
                    c.id,
                    ids.filter((id) => id !== label.id),
                  ),
              },
              '×',
            )
          : null,
      ),
    ),
  );
}

/** The team adds one of the workspace's labels the comment has not: a menu of them (none left: no menu). */
export function labelMenu(store: Store, actions: Actions, c: Comment): Node | null {
  const { t } = store.i18n;
  const have = new Set(c.labels.map((label) => label.id));
  const left = (store.lists.labels() ?? []).filter((label) => !have.has(label.id));
  if (!left.length) return null;
  return h(
    'select',
    {
      id: `svc-label-${c.id}`,
      class: 'priority',
      'aria-label': t('triage.addLabel'),
      onChange: (event: Event) => actions.setLabels(c.id, [...have, (event.target as HTMLSelectElement).value]),
    },
    h('option', { value: '', selected: true }, t('triage.addLabel')),
    left.map((label) => h('option', { value: label.id }, label.name)),
  );
}
