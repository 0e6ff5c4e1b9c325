import type { Notification } from '@svc/contract';
import { h, timeAgo } from '../dom.js';
import type { MessageId } from '../i18n.js';
import type { Store } from '../store.js';
import type { Actions } from './actions.js';
import { commitLink } from './parts.js';

const TYPE_LABELS: Record<Notification['type'], MessageId> = {
  CommentApplied: 'updates.CommentApplied',
  CommentReopened: 'updates.CommentReopened',
  ReplyAdded: 'updates.ReplyAdded',
  CommentAssigned: 'updates.CommentAssigned',
  CommentMentioned: 'updates.CommentMentioned',
  CommentCreated: 'updates.CommentCreated',
};

export function updatesView(store: Store, actions: Actions): Node {
  const { t } = store.i18n;
  if (!store.updates.notifications) return h('p', { class: 'empty' }, t('updates.loading'));
  if (store.updates.notifications.length === 0) return h('p', { class: 'empty' }, t('updates.empty'));
  return h(
    'ul',
    { 'aria-label': t('updates.list') },
    store.updates.notifications.map((n) =>
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
            h('span', { class: 'type' }, TYPE_LABELS[n.type] ? t(TYPE_LABELS[n.type], { count: n.commentCount ?? 1 }) : n.type),
            n.actor ? h('span', { class: 'muted' }, t('updates.by', { name: n.actor.name })) : null,
            h('span', { class: 'muted end' }, timeAgo(n.createdAt, store.i18n)),
          ),
          h('span', { class: 'excerpt' }, n.excerpt),
        ),
        n.type === 'CommentApplied' && n.commitSha ? commitLink(store, n.commitSha, n.commitUrl ?? null) : null,
      ),
    ),
  );
}
