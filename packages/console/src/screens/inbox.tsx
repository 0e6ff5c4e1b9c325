// The caller's notifications, newest first, unread marked; each opens its comment.
import type { AnswerOf } from '@svc/contract/endpoints';
import { shortSha } from '@svc/contract/sha';
import { api } from '../api.js';
import { setUnread } from '../badge.js';
import { type MessageId, t } from '../i18n.js';
import { Link } from '../router.js';
import { FormError, Loading, MoreRows, PageTitle, TableHead, Time, useAction, usePages } from '../ui.js';

type Notification = AnswerOf<'GET /api/me/notifications'>['items'][number];

const LABELS: Record<Notification['type'], MessageId> = {
  CommentApplied: 'inbox.CommentApplied',
  CommentReopened: 'inbox.CommentReopened',
  ReplyAdded: 'inbox.ReplyAdded',
  CommentAssigned: 'inbox.CommentAssigned',
  CommentMentioned: 'inbox.CommentMentioned',
};

export function Inbox() {
  const list = usePages((cursor) => api.call('GET /api/me/notifications', { query: { limit: 50, cursor } }), []);
  const action = useAction();
  const items = list.data?.items ?? [];
  const newest = items[0];
  return (
    <>
      <PageTitle
        actions={
          newest && items.some((n) => !n.read) ? (
            <button
              type="button"
              disabled={action.pending}
              onClick={async () => {
                const answer = await action.run(() =>
                  api.call('POST /api/me/notifications/read-all', { body: { upTo: newest.id } }),
                );
                if (answer) {
                  setUnread(answer.data.unreadCount);
                  list.reload();
                }
              }}
            >
              {t('inbox.markAllRead')}
            </button>
          ) : null
        }
      >
        {t('nav.inbox')}
      </PageTitle>
      <FormError message={action.error} />
      {list.data ? null : <Loading error={list.error} />}
      {list.data && items.length === 0 ? <p class="empty">{t('inbox.empty')}</p> : null}
      {items.length ? (
        <div class="table-wrap">
          <table>
            <caption class="skip">{t('inbox.caption')}</caption>
            <TableHead columns={[t('inbox.what'), t('inbox.comment'), [t('inbox.by'), 'wide'], t('inbox.when')]} />
            <tbody>
              {items.map((n) => (
                <tr key={n.id} class={n.read ? '' : 'unread'}>
                  <td>
                    <strong>{t(LABELS[n.type])}</strong>
                    {n.read ? null : <span class="skip"> {t('inbox.unread')}</span>}
                    {n.commitSha ? (
                      <div class="muted small">{t('inbox.commit', { sha: shortSha(n.commitSha) })}</div>
                    ) : null}
                  </td>
                  <td class="wrap">
                    <Link href={`/comments/${encodeURIComponent(n.comment.id)}`}>
                      {n.excerpt || t('inbox.openComment')}
                    </Link>
                    <div class="muted small">{n.comment.projectKey}</div>
                  </td>
                  <td class="hide-phone">{n.actor?.name ?? t('inbox.automatic')}</td>
                  <td>
                    <Time iso={n.createdAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <MoreRows pages={list} label={t('inbox.older')} />
    </>
  );
}
