// One comment, laid out for working through a list of them: what was said, its status and the
// actions the caller may take, then its discussion (its replies and what happened to it, in one
// list, each once) and the reply box; beside them on a wide screen, after them on a phone, the
// picture, the fix waiting for its verdict and where it was written. Opened from a list, it
// goes on to the list's next and previous comments (links, or J and K).

import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import { DuePill, PriorityPill, StatusPills } from '../../comment-pills.js';
import { t, tx } from '../../i18n.js';
import { ImageList, PrivateImage, WaitingPair } from '../../images.js';
import { Lazy, Loading, useAction, useLoad } from '../../loading.js';
import { FormError, PageTitle } from '../../ui.js';
import { ApplyDialog, CommentActions, DeleteDialog, NotFixedDialog } from './actions.js';
import { Discussion } from './discussion.js';
import { CommentFacts } from './facts.js';
import { type Act, attachedTo, type Comment } from './model.js';
import { Triage } from './triage.js';
import { useFocusOnArrival, useListWalk, useWalkKeys, WalkNav } from './walk.js';
import { ContextFacts } from './where-written.js';
import { BodyText } from './written-text.js';

/** The replay's player: rrweb's replayer, a chunk of its own, loaded for a comment that has a replay. */
const loadReplayPlayer = () => import('./replay-player.js').then((module) => module.ReplayPlayer);

export function CommentDetail({ id }: { id: string }) {
  const loaded = useLoad(() => api.call('GET /api/comments/{id}', { params: { id } }), [id]);
  const comment = loaded.data;
  if (!comment) {
    return (
      <>
        <PageTitle>{t('inbox.comment')}</PageTitle>
        <Loading error={loaded.error} />
      </>
    );
  }
  // A comment of its own each: nothing typed or opened for one stays for the next of the list.
  return <CommentPage key={comment.id} comment={comment} reload={loaded.reload} />;
}

/** "Comment 2 by Rita": numbered as the widget numbers its pin (none for a comment on no element, or archived). */
function CommentTitle({ comment }: { comment: Comment }) {
  if (comment.pin === null) return <>{t('comment.title', { author: comment.author.name })}</>;
  const number = (
    <span class="pin-number" title={t('comment.pinNumber', { number: comment.pin })}>
      {comment.pin}
    </span>
  );
  return <>{tx('comment.titlePinned', { number, author: comment.author.name })}</>;
}

function CommentPage({ comment, reload }: { comment: Comment; reload: () => void }) {
  const action = useAction();
  const [dialog, setDialog] = useState<'apply' | 'reject' | 'delete' | null>(null);
  const walking = useListWalk(comment.id);
  useWalkKeys(walking);
  useFocusOnArrival();
  const act: Act = async (request) => {
    const answer = await action.run(request as () => Promise<never>);
    if (answer) {
      setDialog(null);
      reload();
    }
    return answer;
  };
  const close = () => setDialog(null);
  const attached = attachedTo(comment, null);

  return (
    <div class="comment-page">
      <WalkNav walking={walking} />
      <PageTitle
        title={
          comment.pin === null
            ? t('comment.title', { author: comment.author.name })
            : t('comment.titlePinned', { number: comment.pin, author: comment.author.name })
        }
        actions={
          <>
            <StatusPills comment={comment} />
            <PriorityPill priority={comment.priority} />
            <DuePill comment={comment} />
          </>
        }
      >
        <CommentTitle comment={comment} />
      </PageTitle>
      <div class="comment-layout">
        <div class="comment-main">
          <div class="card stack">
            <BodyText text={comment.body} mentions={comment.mentions} />
            {attached.length ? (
              <section aria-label={t('images.title')}>
                <ImageList images={attached} />
              </section>
            ) : null}
            <CommentFacts comment={comment} />
            <CommentActions comment={comment} act={act} open={setDialog} />
            {dialog ? null : <FormError message={action.error} />}
          </div>
          {comment.replay ? <Lazy load={loadReplayPlayer} props={{ comment }} /> : null}
          <Discussion comment={comment} act={act} pending={action.pending} />
        </div>
        <aside class="comment-side" aria-label={t('comment.aboutPage')}>
          <div class="card">
            <Triage comment={comment} act={act} />
          </div>
          {comment.screenshot ? (
            <>
              <h2>{t('comment.screenshot')}</h2>
              <PrivateImage
                path={`/api/comments/${encodeURIComponent(comment.id)}/screenshot`}
                alt={t('comment.screenshotAlt')}
                className="screenshot"
              />
            </>
          ) : null}
          <WaitingPair comment={comment} />
          {comment.context ? <ContextFacts comment={comment} context={comment.context} /> : null}
        </aside>
      </div>

      <ApplyDialog comment={comment} open={dialog === 'apply'} onClose={close} act={act} action={action} />
      <NotFixedDialog comment={comment} open={dialog === 'reject'} onClose={close} act={act} action={action} />
      <DeleteDialog comment={comment} open={dialog === 'delete'} onClose={close} action={action} />
    </div>
  );
}
