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

/**
 * Where an update takes its reader. A fix is checked where it was asked for: one of this page
 * opens its card (before and now, the verdict), one of another page goes to that page, where
 * its card opens (`?svc_comment=`). Any other update opens its comment here.
 */
function opener(store: Store, actions: Actions, n: Notification, shown: Node[]): Node {
  const { t } = store.i18n;
  const id = `svc-notification-${n.id}`;
  const fixed = n.type === 'CommentApplied';
  if (fixed && n.comment.pageUrl !== store.page()) {
    const page = new URL(n.comment.pageUrl);
    page.searchParams.set('svc_comment', n.comment.id);
    return h('a', { class: 'open', href: page.href, id }, shown, how(t('updates.goCheck')));
  }
  const open = () => actions.openComment(n.comment.id, n.comment.pageUrl);
  return h(
    'button',
    { class: 'open', type: 'button', id, onClick: open },
    shown,
    fixed ? how(t('updates.compare')) : null,
  );
}

const how = (text: string) => h('span', { class: 'how' }, `${text} →`);

/**
 * Whether the reader is shown the commit of a fix: those who record fixes are (a client has no
 * use for a hash, nor access to the repository it links to), as the workspace's abilities say.
 */
const teamReads = (store: Store) => store.session.can?.applyComments ?? false;

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
        opener(store, actions, n, [
          h(
            'span',
            { class: 'row' },
            h(
              'span',
              { class: 'type' },
              TYPE_LABELS[n.type] ? t(TYPE_LABELS[n.type], { count: n.commentCount ?? 1 }) : n.type,
            ),
            n.actor ? h('span', { class: 'muted' }, t('updates.by', { name: n.actor.name })) : null,
            h('span', { class: 'muted end' }, timeAgo(n.createdAt, store.i18n)),
          ),
          h('span', { class: 'excerpt' }, n.excerpt),
        ]),
        n.type === 'CommentApplied' && n.commitSha && teamReads(store)
          ? commitLink(store, n.commitSha, n.commitUrl ?? null)
          : null,
      ),
    ),
  );
}
