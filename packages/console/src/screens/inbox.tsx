// The caller's notifications, newest first, unread marked; each opens its comment. New comments
// of a project the caller follows come as one item while it is unread (how many it stands for,
// the newest shown), with the way to the project's comments nobody is on and a control to stop
// hearing of its new comments (pressed again, to hear of them again).
import type { AnswerOf } from '@svc/contract/endpoints';
import { shortSha } from '@svc/contract/sha';
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { setUnread } from '../badge.js';
import { useFollowing } from '../following.js';
import { type MessageId, t } from '../i18n.js';
import { Loading, MoreRows, useAction, usePages } from '../loading.js';
import { Link } from '../router.js';
import { FormError, PageTitle, TableHead, Time } from '../ui.js';

type Notification = AnswerOf<'GET /api/me/notifications'>['items'][number];

const LABELS: Record<Notification['type'], MessageId> = {
  CommentApplied: 'inbox.CommentApplied',
  CommentReopened: 'inbox.CommentReopened',
  ReplyAdded: 'inbox.ReplyAdded',
  CommentAssigned: 'inbox.CommentAssigned',
  CommentMentioned: 'inbox.CommentMentioned',
  CommentCreated: 'inbox.CommentCreated',
};

/** The comments of the project that wait for triage: open, nobody on them (as My work lists them). */
const waitingIn = (projectKey: string) =>
  `/comments?project=${encodeURIComponent(projectKey)}&status=open&assignee=none`;

export function Inbox() {
  const list = usePages((cursor) => api.call('GET /api/me/notifications', { query: { limit: 50, cursor } }), []);
  const action = useAction();
  const follows = useFollowing();
  // What the last press of an item's follow control did, said once to screen readers too.
  const [said, setSaid] = useState('');
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
      <FormError message={action.error || follows.error} />
      <p class="skip" role="status">
        {said}
      </p>
      {list.data ? null : <Loading error={list.error} />}
      {list.data && items.length === 0 ? (
        <div class="empty">
          <p>{t('inbox.empty')}</p>
          <ul class="arrives">
            <li>{t('inbox.arrivesNew')}</li>
            <li>{t('inbox.arrivesAssigned')}</li>
            <li>{t('inbox.arrivesMentions')}</li>
            <li>{t('inbox.arrivesReplies')}</li>
            <li>{t('inbox.arrivesFixes')}</li>
          </ul>
        </div>
      ) : null}
      {items.length ? (
        <div class="table-wrap">
          <table>
            <caption class="skip">{t('inbox.caption')}</caption>
            <TableHead columns={[t('inbox.what'), t('inbox.comment'), [t('inbox.by'), 'wide'], t('inbox.when')]} />
            <tbody>
              {items.map((n) => (
                <tr key={n.id} class={n.read ? '' : 'unread'}>
                  <td>
                    <strong>{t(LABELS[n.type], { count: n.commentCount ?? 1 })}</strong>
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
                    {n.type === 'CommentCreated' ? (
                      <NewCommentsOf
                        projectKey={n.comment.projectKey}
                        gathered={(n.commentCount ?? 1) > 1}
                        follows={follows}
                        onSaid={setSaid}
                      />
                    ) : null}
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

/** Under an item of new comments: where the project's untriaged comments are, and whether to hear of more. */
function NewCommentsOf({
  projectKey,
  gathered,
  follows,
  onSaid,
}: {
  projectKey: string;
  gathered: boolean;
  follows: ReturnType<typeof useFollowing>;
  onSaid: (text: string) => void;
}) {
  const following = follows.of(projectKey);
  return (
    <div class="row small item-actions">
      {gathered ? <Link href={waitingIn(projectKey)}>{t('inbox.waitingIn', { project: projectKey })}</Link> : null}
      {following === undefined ? null : (
        // One button that changes what it does: pressed, it keeps the focus (never disabled meanwhile, which would drop it).
        <button
          type="button"
          aria-disabled={follows.pending}
          onClick={async () => {
            if (follows.pending) return;
            if (await follows.set(projectKey, !following))
              onSaid(t(following ? 'inbox.stopped' : 'inbox.resumed', { project: projectKey }));
          }}
        >
          {t(following ? 'inbox.stopNotifying' : 'inbox.notifyAgain', { project: projectKey })}
        </button>
      )}
    </div>
  );
}
