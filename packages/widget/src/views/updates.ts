import type { Notification } from '@svc/contract';
import { h, timeAgo } from '../dom.js';
import type { Store } from '../store.js';
import type { Actions } from './actions.js';
import { commitLink } from './parts.js';

const TYPE_LABELS: Record<Notification['type'], string> = {
  CommentApplied: 'Fix applied',
  CommentReopened: 'Reopened',
  ReplyAdded: 'New reply',
};

export function updatesView(store: Store, actions: Actions): Node {
  if (!store.notifications) return h('p', { class: 'empty' }, 'Loading…');
  if (store.notifications.length === 0) return h('p', { class: 'empty' }, 'No updates yet.');
  return h(
    'ul',
    { 'aria-label': 'Updates' },
    store.notifications.map((n) =>
      h(
        'li',
        { class: `item${n.read ? '' : ' unread'}`, 'data-notification': n.id },
        h(
          'button',
          {
            class: 'open',
            type: 'button',
            id: `svc-notification-${n.id}`,
            onClick: () => actions.openComment(n.comment.id, n.comment.pageUrl),
          },
          h(
            'span',
            { class: 'row' },
            h('span', { class: 'type' }, TYPE_LABELS[n.type] ?? n.type),
            n.actor ? h('span', { class: 'muted' }, `by ${n.actor.name}`) : null,
            h('span', { class: 'muted end' }, timeAgo(n.createdAt)),
          ),
          h('span', { class: 'excerpt' }, n.excerpt),
        ),
        n.type === 'CommentApplied' && n.commitSha ? commitLink(n.commitSha, n.commitUrl ?? null) : null,
      ),
    ),
  );
}
