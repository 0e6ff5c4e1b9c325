// The discussion: the comment's replies and what happened to it, in one list, each once, and the reply box.

import type { Reply } from '@svc/contract';
import { sendImages } from '@svc/contract/image-encoding';
import { encodeMentions, type Mentionable } from '@svc/contract/mentions';
import { COMMENT_BODY_MAX, REJECTED_REPLY_PREFIX, VERIFIED_REPLY } from '@svc/contract/rules';
import { durationText, timelineSentence } from '@svc/contract/vocabulary';
import { useId, useRef, useState } from 'preact/hooks';
import { api } from '../../api.js';
import { intlLocale, t } from '../../i18n.js';
import { ImageList, ImagePicker, useAttaching, VerdictPair } from '../../images.js';
import { MentionField } from '../../mention-field.js';
import { Time } from '../../ui.js';
import { type Act, attachedTo, type Comment, type TimelineEvent } from './model.js';
import { MentionText } from './written-text.js';

/** One entry of the discussion: a reply, or a change of the comment (with the one before it, for the time between). */
type Entry = { at: string } & ({ reply: Reply } | { event: TimelineEvent; before: TimelineEvent | undefined });

/** How far apart a verdict and its reply may be written (one transaction) and still be one thing said. */
const SAME_MOMENT_MS = 5_000;

/**
 * The replies and the changes, oldest first, each said once: a reply is not repeated by its
 * `replied` event, a verdict's own reply ("Verified ✓", "Not fixed: …") not beside the verdict,
 * and the comment's writing is its card.
 */
function discussionOf(comment: Comment): Entry[] {
  const near = (a: string, b: string) => Math.abs(Date.parse(a) - Date.parse(b)) <= SAME_MOMENT_MS;
  const verdicts = comment.timeline.filter((event) => event.kind === 'verified' || event.kind === 'not_fixed');
  const saidByVerdict = (reply: Reply) =>
    verdicts.some((verdict) =>
      !near(verdict.at, reply.createdAt)
        ? false
        : verdict.kind === 'verified'
          ? reply.kind === 'system' && reply.body === VERIFIED_REPLY
          : reply.author?.id === verdict.by?.id && reply.body.startsWith(REJECTED_REPLY_PREFIX),
    );
  const events: Entry[] = comment.timeline.flatMap((event, index) =>
    event.kind === 'replied' || event.kind === 'created'
      ? []
      : [{ at: event.at, event, before: comment.timeline[index - 1] }],
  );
  const replies: Entry[] = comment.replies
    .filter((reply) => !saidByVerdict(reply))
    .map((reply) => ({ at: reply.createdAt, reply }));
  return [...events, ...replies].sort((a, b) => Date.parse(a.at) - Date.parse(b.at));
}

/** How many of the latest entries a long discussion shows until asked for the earlier ones. */
const DISCUSSION_SHOWN = 6;

/** The discussion, the latest entries first shown, and the box to reply. */
export function Discussion({ comment, act, pending }: { comment: Comment; act: Act; pending: boolean }) {
  const entries = discussionOf(comment);
  const [whole, setWhole] = useState(false);
  const list = useRef<HTMLOListElement>(null);
  const hidden = !whole && entries.length > DISCUSSION_SHOWN + 2 ? entries.length - DISCUSSION_SHOWN : 0;
  const id = useId();
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{t('comment.discussion')}</h2>
      {hidden ? (
        <button
          type="button"
          class="link"
          onClick={() => {
            setWhole(true);
            // The list takes the focus the button had: its first entry is read next.
            requestAnimationFrame(() => list.current?.focus());
          }}
        >
          {t('comment.showEarlier', { count: hidden })}
        </button>
      ) : null}
      {entries.length ? (
        <ol class="history" ref={list} tabIndex={-1} aria-labelledby={id}>
          {entries
            .slice(hidden)
            .map((entry) =>
              'reply' in entry ? (
                <ReplyEntry key={entry.reply.id} comment={comment} reply={entry.reply} />
              ) : (
                <EventEntry key={entry.event.id} comment={comment} event={entry.event} before={entry.before} />
              ),
            )}
        </ol>
      ) : (
        <p class="muted">{t('comment.noReplies')}</p>
      )}
      <ReplyForm comment={comment} act={act} pending={pending} />
    </section>
  );
}

function ReplyEntry({ comment, reply }: { comment: Comment; reply: Reply }) {
  return (
    <li class="history-reply">
      <div class="row">
        <strong>{reply.author?.name ?? t('comment.update')}</strong>
        <span class="muted small">
          <Time iso={reply.createdAt} />
        </span>
      </div>
      <div class="body-text">
        <MentionText text={reply.body} mentions={reply.mentions} />
      </div>
      <ImageList images={attachedTo(comment, reply.id)} />
    </li>
  );
}

/** A change of the comment in a line, with the time it took; a verdict with its before and after. */
function EventEntry({
  comment,
  event,
  before,
}: {
  comment: Comment;
  event: TimelineEvent;
  before: TimelineEvent | undefined;
}) {
  const when = (
    <span class="muted small">
      <Time iso={event.at} />
      {before
        ? ` · ${t('comment.after', { duration: durationText(Date.parse(event.at) - Date.parse(before.at), t, intlLocale()) })}`
        : ''}
      {event.derived ? ` · ${t('comment.derived')}` : ''}
    </span>
  );
  if (event.kind === 'verified' || event.kind === 'not_fixed') {
    return (
      <li class={`history-event timeline-${event.kind}`}>
        <VerdictPair comment={comment} verdict={event} />
        {when}
      </li>
    );
  }
  return (
    <li class={`history-event timeline-${event.kind}`}>
      <span>{timelineSentence(event, t, intlLocale())}</span> {when}
    </li>
  );
}

/** The box to reply: mentions suggested on @, images picked, pasted or dropped. */
function ReplyForm({ comment, act, pending }: { comment: Comment; act: Act; pending: boolean }) {
  const [reply, setReply] = useState('');
  const [chosen, setChosen] = useState<Mentionable[]>([]);
  const attaching = useAttaching();
  return (
    <form
      class="card reply-form"
      {...attaching.receivers}
      onSubmit={async (event) => {
        event.preventDefault();
        const body = encodeMentions(reply.trim(), chosen);
        const images = attaching.state.images.map((image) => image.blob);
        const answer = await act(async () => {
          const sent = await api.call('POST /api/comments/{id}/replies', {
            params: { id: comment.id },
            body: { body },
          });
          // The images follow the reply they belong to, before the page reads the thread again.
          if (sent.ok && images.length) await sendImages(api, images, comment.id, sent.data.id);
          return sent;
        });
        if (answer) {
          setReply('');
          setChosen([]);
          attaching.clear();
        }
      }}
    >
      <MentionField
        label={t('comment.reply')}
        projectKey={comment.projectKey}
        required
        maxLength={COMMENT_BODY_MAX}
        value={reply}
        onValue={setReply}
        onChosen={(person) => setChosen([...chosen, person])}
      />
      <ImagePicker attaching={attaching} />
      <button type="submit" class="primary" disabled={pending || !reply.trim()}>
        {t('comment.sendReply')}
      </button>
    </form>
  );
}
