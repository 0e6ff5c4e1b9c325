// One comment: what was said and where, what happened to it, its thread, and the actions the
// caller may take on it.

import { elementInWords, sourceText } from '@svc/contract/element-words';
import type { AnswerOf } from '@svc/contract/endpoints';
import type { Translate } from '@svc/contract/i18n';
import { sendImages } from '@svc/contract/image-encoding';
import { encodeMentions, type Mentionable } from '@svc/contract/mentions';
import { COMMENT_BODY_MAX, VERIFY_NOTE_MAX } from '@svc/contract/rules';
import { normalizeSha, shortSha } from '@svc/contract/sha';
import { durationText, fixStory, timelineSentence } from '@svc/contract/vocabulary';
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { intlLocale, t, tx } from '../i18n.js';
import { BeforeAfter, ImageList, ImagePicker, PrivateImage, useAttaching } from '../images.js';
import { MentionField } from '../mention-field.js';
import { Link, navigate } from '../router.js';
import {
  assigneeName,
  ConfirmDialog,
  Dialog,
  Field,
  FormError,
  LabelChips,
  Loading,
  PageTitle,
  priorityOptions,
  StatusPills,
  TableHead,
  Time,
  useAction,
  useLoad,
  usePages,
} from '../ui.js';

type Context = NonNullable<AnswerOf<'GET /api/comments/{id}'>['context']>;

/** The browser and page the comment was written in, and the page's recent errors. */
function ContextFacts({ context }: { context: Context }) {
  const software = (s: { name: string; version: string | null } | null) =>
    s ? `${s.name} ${s.version ?? ''}`.trim() : t('comment.unknown');
  return (
    <>
      <h2>{t('comment.whereWritten')}</h2>
      <div class="card">
        <dl class="facts">
          <dt>{t('comment.browser')}</dt>
          <dd>{t('comment.browserValue', { browser: software(context.browser), os: software(context.os) })}</dd>
          <dt>{t('comment.window')}</dt>
          <dd>
            {t('comment.windowValue', {
              width: String(context.viewport.width),
              height: String(context.viewport.height),
              ratio: String(context.devicePixelRatio),
              screenWidth: String(context.screen.width),
              screenHeight: String(context.screen.height),
            })}
          </dd>
          <dt>{t('comment.language')}</dt>
          <dd>
            {t('comment.languageValue', {
              language: context.language,
              timeZone: context.timeZone,
              scheme: context.colorScheme,
            })}
          </dd>
          <dt>{t('comment.pageTitle')}</dt>
          <dd>{context.title || '—'}</dd>
          <dt>{t('comment.address')}</dt>
          <dd>{context.url}</dd>
          <dt>{t('comment.build')}</dt>
          <dd>{context.buildSha ? <code>{shortSha(context.buildSha)}</code> : t('comment.notStamped')}</dd>
        </dl>
      </div>
      <h2>{t('comment.pageErrors', { count: context.errors.length })}</h2>
      {context.errors.length ? (
        <div class="table-wrap">
          <table>
            <TableHead columns={[t('comment.kind'), t('inbox.what'), [t('inbox.when'), 'wide']]} />
            <tbody>
              {context.errors.map((e) => (
                <tr key={`${e.at}${e.message}`}>
                  <td>{e.kind}</td>
                  <td class="wrap">
                    {e.message}
                    {e.kind === 'network' && e.durationMs !== undefined ? (
                      <span class="muted small"> · {e.durationMs} ms</span>
                    ) : null}
                  </td>
                  <td class="hide-phone">
                    <Time iso={e.at} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p class="muted">{t('comment.noneRecorded')}</p>
      )}
    </>
  );
}

type TimelineEvent = AnswerOf<'GET /api/comments/{id}'>['timeline'][number];

/** What happened to the comment, oldest first, with the time each step took. */
function CommentTimeline({ timeline }: { timeline: TimelineEvent[] }) {
  const fix = fixStory(timeline, t, intlLocale());
  return (
    <>
      <h2>{t('comment.timeline')}</h2>
      {fix ? <p class="small">{fix}</p> : null}
      <ol class="timeline">
        {timeline.map((event, index) => {
          const before = timeline[index - 1];
          return (
            <li key={event.id} class={`timeline-${event.kind}`}>
              <span class="body-text">{timelineSentence(event, t)}</span>{' '}
              <span class="muted small">
                <Time iso={event.at} />
                {before
                  ? ` · ${t('comment.after', { duration: durationText(Date.parse(event.at) - Date.parse(before.at), t, intlLocale()) })}`
                  : ''}
                {event.derived ? ` · ${t('comment.derived')}` : ''}
              </span>
            </li>
          );
        })}
      </ol>
    </>
  );
}

type Comment = AnswerOf<'GET /api/comments/{id}'>;
/** Runs a change of the comment: the dialog closes and the comment is read again when it succeeds. */
type Act = (request: () => ReturnType<typeof api.call>) => Promise<unknown>;
type Action = ReturnType<typeof useAction>;

export function CommentDetail({ id }: { id: string }) {
  const loaded = useLoad(() => api.call('GET /api/comments/{id}', { params: { id } }), [id]);
  const action = useAction();
  const [dialog, setDialog] = useState<'apply' | 'reject' | 'delete' | null>(null);
  const comment = loaded.data;
  if (!comment) {
    return (
      <>
        <PageTitle>{t('inbox.comment')}</PageTitle>
        <Loading error={loaded.error} />
      </>
    );
  }
  const act: Act = async (request) => {
    const answer = await action.run(request as () => Promise<never>);
    if (answer) {
      setDialog(null);
      loaded.reload();
    }
    return answer;
  };
  const close = () => setDialog(null);

  return (
    <>
      <p class="small">
        <Link href="/comments">{t('comment.back')}</Link>
      </p>
      <PageTitle actions={<StatusPills comment={comment} />}>
        {t('comment.title', { author: comment.author.name })}
      </PageTitle>
      <div class="card stack">
        <p class="body-text" style="margin:0;font-size:16px">
          {comment.body}
        </p>
        <CommentFacts comment={comment} act={act} />
        <CommentActions comment={comment} act={act} open={setDialog} />
        {dialog ? null : <FormError message={action.error} />}
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
      {attachedTo(comment, null).length ? (
        <>
          <h2>{t('images.title')}</h2>
          <ImageList images={attachedTo(comment, null)} />
        </>
      ) : null}
      {comment.context ? <ContextFacts context={comment.context} /> : null}

      <BeforeAfter comment={comment} />
      <CommentTimeline timeline={comment.timeline} />
      <Thread comment={comment} act={act} pending={action.pending} />

      <ApplyDialog comment={comment} open={dialog === 'apply'} onClose={close} act={act} action={action} />
      <NotFixedDialog comment={comment} open={dialog === 'reject'} onClose={close} act={act} action={action} />
      <DeleteDialog comment={comment} open={dialog === 'delete'} onClose={close} action={action} />
    </>
  );
}

/** Where it is, what it is pinned to, when it was written, fixed, Live and verified. */
function CommentFacts({ comment, act }: { comment: Comment; act: Act }) {
  const openOnPage = new URL(comment.pageUrl);
  openOnPage.searchParams.set('svc_comment', comment.id);
  return (
    <dl class="facts">
      <dt>{t('comments.project')}</dt>
      <dd>{comment.projectKey}</dd>
      <dt>{t('comment.page')}</dt>
      <dd>
        <a href={comment.pageUrl} target="_blank" rel="noopener noreferrer">
          {comment.pageUrl}
        </a>{' '}
        ·{' '}
        <a href={openOnPage.href} target="_blank" rel="noopener noreferrer">
          {t('comment.openOnPage')}
        </a>
      </dd>
      <dt>{t('comment.pinnedTo')}</dt>
      <dd>
        {comment.anchor ? (
          <>
            {elementInWords(comment.anchor, t as Translate)} <code class="muted small">{comment.anchor.selector}</code>
            {comment.repinned ? (
              <div class="muted small">
                {tx('comment.pinMovedBy', { name: comment.repinned.by.name, when: <Time iso={comment.repinned.at} /> })}
              </div>
            ) : null}
          </>
        ) : (
          t('comment.wholePage')
        )}
      </dd>
      {comment.anchor?.source ? (
        <>
          <dt>{t('comment.source')}</dt>
          <dd>
            <code>{sourceText(comment.anchor.source)}</code>
          </dd>
        </>
      ) : null}
      <dt>{t('comment.written')}</dt>
      <dd>{tx('comment.writtenBy', { when: <Time iso={comment.createdAt} />, name: comment.author.name })}</dd>
      <dt>{t('comments.assignee')}</dt>
      <dd>
        <Assignee comment={comment} act={act} />
      </dd>
      <dt>{t('comments.priority')}</dt>
      <dd>
        {comment.can.triage ? (
          <select
            aria-label={t('comments.priority')}
            style="width:auto;max-width:100%"
            value={comment.priority}
            onChange={(e) => {
              const priority = (e.target as HTMLSelectElement).value as Comment['priority'];
              act(() =>
                api.call('PUT /api/comments/{id}/priority', { params: { id: comment.id }, body: { priority } }),
              );
            }}
          >
            {priorityOptions().map(([p, label]) => (
              <option key={p} value={p}>
                {label}
              </option>
            ))}
          </select>
        ) : (
          t(`priority.${comment.priority}`)
        )}
      </dd>
      <dt>{t('comment.labels')}</dt>
      <dd>
        {comment.can.triage ? (
          <LabelChoice key={comment.updatedAt} comment={comment} act={act} />
        ) : comment.labels.length ? (
          <LabelChips labels={comment.labels} />
        ) : (
          t('comment.noLabels')
        )}
      </dd>
      {comment.commitSha ? (
        <>
          {/* A reopened comment keeps the commit that did not fix it: said as such. */}
          <dt>{t(comment.status === 'open' ? 'comment.earlierFix' : 'comment.fixedIn')}</dt>
          <dd>
            {tx(comment.appliedBy ? 'comment.appliedBy' : 'comment.applied', {
              commit: comment.commitUrl ? (
                <a href={comment.commitUrl} target="_blank" rel="noopener noreferrer">
                  {t('comment.commit', { sha: shortSha(comment.commitSha) })}
                </a>
              ) : (
                <code>{shortSha(comment.commitSha)}</code>
              ),
              name: comment.appliedBy?.name ?? '',
              when: <Time iso={comment.appliedAt} />,
            })}
          </dd>
        </>
      ) : null}
      {comment.deployedAt && comment.deployedBuildSha ? (
        <>
          <dt>{t('state.live')}</dt>
          <dd>
            {tx('comment.liveIn', {
              build: <code>{shortSha(comment.deployedBuildSha)}</code>,
              when: <Time iso={comment.deployedAt} />,
            })}
          </dd>
        </>
      ) : null}
      {comment.verifiedAt ? (
        <>
          <dt>{t('state.verified')}</dt>
          <dd>
            <Time iso={comment.verifiedAt} />
          </dd>
        </>
      ) : null}
    </dl>
  );
}

/**
 * The workspace's labels as checkboxes: ticking one puts it on the comment at once (the box
 * shows the choice while the server answers; a refusal redraws it as the comment stands).
 */
function LabelChoice({ comment, act }: { comment: Comment; act: Act }) {
  const labels = useLoad(() => api.call('GET /api/workspace/labels', {}), []);
  const [has, setHas] = useState(() => new Set(comment.labels.map((label) => label.id)));
  const all = labels.data?.items;
  if (!all) return <LabelChips labels={comment.labels} />;
  if (all.length === 0) return <span class="muted">{t('comment.noLabelsYet')}</span>;
  const toggle = (id: string, on: boolean) => {
    const labelIds = all.map((label) => label.id).filter((labelId) => (labelId === id ? on : has.has(labelId)));
    const before = has;
    setHas(new Set(labelIds));
    void act(() => api.call('PUT /api/comments/{id}/labels', { params: { id: comment.id }, body: { labelIds } })).then(
      (answer) => answer || setHas(before),
    );
  };
  return (
    <fieldset class="checks">
      <legend class="skip">{t('comment.labels')}</legend>
      {all.map((label) => (
        <label key={label.id}>
          <input
            type="checkbox"
            checked={has.has(label.id)}
            onChange={(e) => toggle(label.id, (e.target as HTMLInputElement).checked)}
          />
          <span class={`dot ${label.color}`} aria-hidden="true" />
          {label.name}
        </label>
      ))}
    </fieldset>
  );
}

/** Who is on it; for the team, who to put on it (the team and its agents, or nobody), and "Take it". */
function Assignee({ comment, act }: { comment: Comment; act: Act }) {
  const { can, id } = comment;
  const team = usePages(
    (cursor) =>
      can.assign ? api.call('GET /api/workspace/members', { query: { limit: 100, cursor } }) : Promise.resolve(null),
    [can.assign],
    { every: true },
  );
  const assign = (assigneeId: string | null) =>
    act(() => api.call('PUT /api/comments/{id}/assignee', { params: { id }, body: { assigneeId } }));
  const people = team.data?.items ?? [];
  return (
    <div class="row">
      {can.assign ? (
        <select
          aria-label={t('comment.assignTo')}
          style="width:auto;max-width:100%"
          value={comment.assignee?.id ?? ''}
          onChange={(e) => assign((e.target as HTMLSelectElement).value || null)}
        >
          <option value="">{t('comment.nobody')}</option>
          {/* The one on it stays listed while the team loads (or when they left it). */}
          {comment.assignee && !people.some((p) => p.id === comment.assignee?.id) ? (
            <option value={comment.assignee.id}>{assigneeName(comment.assignee)}</option>
          ) : null}
          {people.map((p) => (
            <option key={p.id} value={p.id}>
              {assigneeName(p)}
            </option>
          ))}
        </select>
      ) : (
        <span>{comment.assignee ? assigneeName(comment.assignee) : t('comment.nobodyOnIt')}</span>
      )}
      {can.claim ? (
        <button type="button" onClick={() => act(() => api.call('POST /api/comments/{id}/claim', { params: { id } }))}>
          {t('comment.claim')}
        </button>
      ) : null}
    </div>
  );
}

/** The actions the server says the caller may take on it now: nothing is re-derived here. */
function CommentActions({
  comment,
  act,
  open,
}: {
  comment: Comment;
  act: Act;
  open: (dialog: 'apply' | 'reject' | 'delete') => void;
}) {
  const { can, id } = comment;
  return (
    <div class="row">
      {can.apply ? (
        <button type="button" class="primary" onClick={() => open('apply')}>
          {t(comment.status === 'applied' ? 'comment.applyAnother' : 'comment.applyFix')}
        </button>
      ) : null}
      {can.verify && !comment.verifiedAt ? (
        <button
          type="button"
          onClick={() =>
            act(() =>
              api.call('POST /api/comments/{id}/verify', {
                params: { id },
                body: { ok: true, ...(comment.commitSha ? { commitSha: comment.commitSha } : {}) },
              }),
            )
          }
        >
          {t('state.verified')}
        </button>
      ) : null}
      {can.verify ? (
        <button type="button" onClick={() => open('reject')}>
          {t('comment.notFixed')}
        </button>
      ) : null}
      {can.reopen && !can.verify ? (
        <button type="button" onClick={() => act(() => api.call('POST /api/comments/{id}/reopen', { params: { id } }))}>
          {t('comment.reopen')}
        </button>
      ) : null}
      {can.archive ? (
        <button
          type="button"
          onClick={() => act(() => api.call('POST /api/comments/{id}/archive', { params: { id } }))}
        >
          {t('comment.archive')}
        </button>
      ) : null}
      {can.delete ? (
        <button type="button" class="danger" onClick={() => open('delete')}>
          {t('comment.delete')}
        </button>
      ) : null}
    </div>
  );
}

/** The images people attached to the comment (replyId null) or to one of its replies. */
const attachedTo = (comment: Comment, replyId: string | null) =>
  comment.images.filter((image) => image.kind === 'attachment' && image.replyId === replyId);

/** The replies, oldest first, and the box to write one. */
function Thread({ comment, act, pending }: { comment: Comment; act: Act; pending: boolean }) {
  const [reply, setReply] = useState('');
  const [chosen, setChosen] = useState<Mentionable[]>([]);
  const attaching = useAttaching();
  return (
    <>
      <h2>{t('comment.replies', { count: comment.replies.length })}</h2>
      {comment.replies.length ? (
        <ul class="thread">
          {comment.replies.map((r) => (
            <li key={r.id}>
              <div class="row">
                <strong>{r.author?.name ?? t('comment.update')}</strong>
                <span class="muted small">
                  <Time iso={r.createdAt} />
                </span>
              </div>
              <div class="body-text">{r.body}</div>
              <ImageList images={attachedTo(comment, r.id)} />
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">{t('comment.noReplies')}</p>
      )}
      <form
        class="card"
        style="margin-top:12px"
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
    </>
  );
}

interface DialogProps {
  comment: Comment;
  open: boolean;
  onClose: () => void;
  action: Action;
}

function ApplyDialog({ comment, open, onClose, act, action }: DialogProps & { act: Act }) {
  const [sha, setSha] = useState('');
  const [link, setLink] = useState('');
  return (
    <Dialog title={t('comment.applyFix')} open={open} onClose={onClose}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          // Said in words, not left to the browser's own bubble.
          const typed = sha.trim();
          const commitSha = normalizeSha(typed);
          if (!commitSha) {
            action.setError(typed ? t('comment.notASha', { typed: typed.slice(0, 60) }) : t('comment.writeSha'));
            return;
          }
          void act(() =>
            api.call('POST /api/comments/{id}/apply', {
              params: { id: comment.id },
              body: { commitSha, ...(link.trim() ? { commitUrl: link.trim() } : {}) },
            }),
          );
        }}
      >
        <Field label={t('comment.sha')} hint={t('comment.shaHint')} required value={sha} onValue={setSha} />
        <Field label={t('comment.link')} hint={t('comment.linkHint')} type="url" value={link} onValue={setLink} />
        <FormError message={action.error} />
        <div class="row">
          <button type="submit" class="primary" disabled={action.pending}>
            {t('comment.apply')}
          </button>
          <button type="button" onClick={onClose}>
            {t('ui.cancel')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function NotFixedDialog({ comment, open, onClose, act, action }: DialogProps & { act: Act }) {
  const [note, setNote] = useState('');
  return (
    <Dialog title={t('comment.notFixed')} open={open} onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          void act(() =>
            api.call('POST /api/comments/{id}/verify', {
              params: { id: comment.id },
              body: { ok: false, note: note.trim(), ...(comment.commitSha ? { commitSha: comment.commitSha } : {}) },
            }),
          );
        }}
      >
        <Field
          label={t('comment.stillWrong')}
          hint={t('comment.stillWrongHint', { max: VERIFY_NOTE_MAX })}
          multiline
          required
          maxLength={VERIFY_NOTE_MAX}
          value={note}
          onValue={setNote}
        />
        <FormError message={action.error} />
        <div class="row">
          <button type="submit" class="primary" disabled={action.pending || !note.trim()}>
            {t('comment.reopen')}
          </button>
          <button type="button" onClick={onClose}>
            {t('ui.cancel')}
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function DeleteDialog({ comment, open, onClose, action }: DialogProps) {
  return (
    <ConfirmDialog
      title={t('comment.deleteTitle')}
      open={open}
      onClose={onClose}
      confirm={t('comment.delete')}
      action={action}
      request={() => api.call('DELETE /api/comments/{id}', { params: { id: comment.id } })}
      done={() => {
        onClose();
        navigate('/comments');
      }}
    >
      <p>{t('comment.deleteBody')}</p>
    </ConfirmDialog>
  );
}
