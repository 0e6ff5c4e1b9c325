// One comment, laid out for working through a list of them: what was said, its status and the
// actions the caller may take, then its discussion (its replies and what happened to it, in one
// list, each once) and the reply box; beside them on a wide screen, after them on a phone, the
// picture, the fix waiting for its verdict and where it was written. Opened from a list, it
// goes on to the list's next and previous comments (links, or J and K).

import type { Reply } from '@svc/contract';
import { elementInWords, sourceText } from '@svc/contract/element-words';
import type { AnswerOf } from '@svc/contract/endpoints';
import type { Translate } from '@svc/contract/i18n';
import { sendImages } from '@svc/contract/image-encoding';
import { encodeMentions, type Mentionable } from '@svc/contract/mentions';
import { COMMENT_BODY_MAX, REJECTED_REPLY_PREFIX, VERIFIED_REPLY, VERIFY_NOTE_MAX } from '@svc/contract/rules';
import { normalizeSha, shortSha } from '@svc/contract/sha';
import { stepSentence } from '@svc/contract/steps';
import { durationText, timelineSentence } from '@svc/contract/vocabulary';
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { api } from '../api.js';
import { intlLocale, speaker, t, tx } from '../i18n.js';
import { ImageList, ImagePicker, PrivateImage, useAttaching, VerdictPair, WaitingPair } from '../images.js';
import { MentionField } from '../mention-field.js';
import { Link, navigate } from '../router.js';
import {
  assigneeName,
  ConfirmDialog,
  Dialog,
  DuePill,
  Field,
  FormError,
  LabelChips,
  Lazy,
  Loading,
  PageTitle,
  PriorityPill,
  priorityOptions,
  StatusPills,
  TableHead,
  Time,
  useAction,
  useLoad,
  usePages,
} from '../ui.js';
import { type ListWalk, moreOfList, walkOfHistory } from './comments.js';

/** The replay's player: rrweb's replayer, a chunk of its own, loaded for a comment that has a replay. */
const loadReplayPlayer = () => import('../replay-player.js').then((module) => module.ReplayPlayer);

type Context = NonNullable<AnswerOf<'GET /api/comments/{id}'>['context']>;

/** The steps that led to the comment (from a signed-in reviewer's widget), numbered, in the reader's language. */
function StepsToReproduce({ steps }: { steps: NonNullable<Context['steps']> }) {
  const { t: say } = speaker();
  return (
    <>
      <h2 id="steps-title">{t('steps.title')}</h2>
      <ol class="card steps" aria-labelledby="steps-title">
        {steps.map((step, index) => (
          // The steps never change once kept: their place is who they are.
          <li key={index}>{stepSentence(step, say)}</li>
        ))}
      </ol>
    </>
  );
}

/** The browser and page the comment was written in, the steps that led to it, and the page's recent errors. */
function ContextFacts({ context }: { context: Context }) {
  const software = (s: { name: string; version: string | null } | null) =>
    s ? `${s.name} ${s.version ?? ''}`.trim() : t('comment.unknown');
  return (
    <>
      {context.steps?.length ? <StepsToReproduce steps={context.steps} /> : null}
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

type Comment = AnswerOf<'GET /api/comments/{id}'>;
type TimelineEvent = Comment['timeline'][number];
/** Runs a change of the comment: the dialog closes and the comment is read again when it succeeds. */
type Act = (request: () => ReturnType<typeof api.call>) => Promise<unknown>;
type Action = ReturnType<typeof useAction>;

/** Set when J or K walks to another comment: its page, once shown, takes the focus to its heading. */
let focusOnArrival = false;

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

/** Where the comment stands in the list it was opened from, and the way to its neighbours. */
interface Walking {
  walk: ListWalk;
  index: number;
  previous: string | null;
  next: string | null;
  go: (id: string) => void;
}

/**
 * The list the page was opened from (none when it was opened otherwise: a link, the inbox); at
 * its last comment, the list's next page is read, so that Next goes on.
 */
function useListWalk(id: string): Walking | null {
  const [, redraw] = useState(0);
  const walk = walkOfHistory();
  const index = walk ? walk.ids.indexOf(id) : -1;
  const atEnd = walk !== null && index === walk.ids.length - 1 && walk.next !== null;
  useEffect(() => {
    if (!atEnd || !walk) return;
    let live = true;
    void moreOfList(walk).then((more) => {
      if (!live || !more) return;
      history.replaceState({ ...history.state, walk: more }, '');
      redraw((n) => n + 1);
    });
    return () => {
      live = false;
    };
  }, [atEnd, walk?.next]);
  if (!walk || index < 0) return null;
  return {
    walk,
    index,
    previous: walk.ids[index - 1] ?? null,
    next: walk.ids[index + 1] ?? null,
    go: (to) => {
      focusOnArrival = true;
      navigate(commentPath(to), false, { walk });
    },
  };
}

const commentPath = (id: string) => `/comments/${encodeURIComponent(id)}`;

/** Whether a key pressed there is typing (a field, a menu), not a command. */
const typing = (target: EventTarget | null) =>
  target instanceof Element && target.closest('input, textarea, select, [contenteditable]') !== null;

/** J and K: the next and the previous comment of the list, unless a key is typed in a field or a dialog is open. */
function useWalkKeys(walking: Walking | null) {
  useEffect(() => {
    if (!walking) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.isComposing) return;
      const to = event.key === 'j' ? walking.next : event.key === 'k' ? walking.previous : null;
      if (!to || typing(event.target) || document.querySelector('dialog[open]')) return;
      event.preventDefault();
      walking.go(to);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [walking?.previous, walking?.next]);
}

/** Back to the list (its filters), the comment's place in it, Previous and Next. */
function WalkNav({ walking }: { walking: Walking | null }) {
  const walk = walking?.walk;
  return (
    <nav class="walk" aria-label={t('comment.listNav')}>
      <Link href={walk?.from ?? '/comments'}>{walk ? t('comment.backToList') : t('comment.back')}</Link>
      {walking && walk ? (
        <span class="row">
          {walking.previous ? (
            <Link href={commentPath(walking.previous)} state={{ walk }} aria-keyshortcuts="k" class="button">
              {t('comment.previous')}
            </Link>
          ) : null}
          <span>
            {t('comment.position', {
              index: walking.index + 1,
              count: walk.ids.length,
              more: walk.next ? 'yes' : 'no',
            })}
          </span>
          {walking.next ? (
            <Link href={commentPath(walking.next)} state={{ walk }} aria-keyshortcuts="j" class="button">
              {t('comment.next')}
            </Link>
          ) : null}
          <span class="muted small hide-phone">{t('comment.keysHint')}</span>
        </span>
      ) : null}
    </nav>
  );
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
  useEffect(() => {
    if (!focusOnArrival) return;
    focusOnArrival = false;
    const heading = document.querySelector<HTMLElement>('main h1');
    if (!heading) return;
    heading.tabIndex = -1;
    heading.focus();
  }, []);
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
          {comment.context ? <ContextFacts context={comment.context} /> : null}
        </aside>
      </div>

      <ApplyDialog comment={comment} open={dialog === 'apply'} onClose={close} act={act} action={action} />
      <NotFixedDialog comment={comment} open={dialog === 'reject'} onClose={close} act={act} action={action} />
      <DeleteDialog comment={comment} open={dialog === 'delete'} onClose={close} action={action} />
    </div>
  );
}

/** How much of a long text shows until "Read all of it": its start, so that the actions stay near. */
const BODY_SHOWN = 480;

/** Whom a text mentions, as the API names them. */
type Mentioned = readonly { id: string; name: string }[];

/**
 * A text with the people it mentions shown as mentions: each `@` and name of them (an `@` typed
 * by hand before a name stays as typed), and the spaces after one as one (a text written
 * before the suggestions kept a single space could hold two).
 */
function MentionText({ text, mentions }: { text: string; mentions: Mentioned }) {
  if (!mentions.length) return <>{text}</>;
  const names = mentions
    .map((person) => `@${person.name}`.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .sort((a, b) => b.length - a.length);
  const mention = new RegExp(`(${names.join('|')})(?![\\p{L}\\p{N}_])( {2,})?`, 'gu');
  const parts: ComponentChildren[] = [];
  let from = 0;
  for (const match of text.matchAll(mention)) {
    parts.push(text.slice(from, match.index));
    parts.push(
      <span key={match.index} class="mention">
        {match[1]}
      </span>,
    );
    if (match[2]) parts.push(' ');
    from = match.index + match[0].length;
  }
  parts.push(text.slice(from));
  return <>{parts}</>;
}

/** What was said; a long text is cut to its first lines until asked for whole. */
function BodyText({ text, mentions }: { text: string; mentions: Mentioned }) {
  const [whole, setWhole] = useState(false);
  const long = text.length > BODY_SHOWN;
  const id = useId();
  return (
    <div>
      <p id={id} class={`body-text comment-body${long && !whole ? ' cut' : ''}`}>
        <MentionText text={text} mentions={mentions} />
      </p>
      {long ? (
        <button type="button" class="link" aria-expanded={whole} aria-controls={id} onClick={() => setWhole(!whole)}>
          {whole ? t('comment.readLess') : t('comment.readAll')}
        </button>
      ) : null}
    </div>
  );
}

/** Where it is, what it is pinned to, when it was written, fixed, Live and verified. */
function CommentFacts({ comment }: { comment: Comment }) {
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
      <FixFacts comment={comment} />
    </dl>
  );
}

/** The latest fix: its commit (or none, and the link to the change), where it went Live, when it was verified. */
function FixFacts({ comment }: { comment: Comment }) {
  if (!comment.appliedAt) return null;
  const link = (text: string) =>
    comment.commitUrl ? (
      <a href={comment.commitUrl} target="_blank" rel="noopener noreferrer">
        {text}
      </a>
    ) : null;
  const commit = comment.commitSha ? (
    (link(t('comment.commit', { sha: shortSha(comment.commitSha) })) ?? <code>{shortSha(comment.commitSha)}</code>)
  ) : (
    <>
      {t('comment.withoutCommit')}
      {comment.commitUrl ? <> ({link(t('comment.theChange'))})</> : null}
    </>
  );
  const applied = comment.status === 'applied';
  return (
    <>
      {/* A reopened comment keeps the fix that did not fix it: said as such. */}
      <dt>{t(applied ? 'comment.fixedIn' : 'comment.earlierFix')}</dt>
      <dd>
        {tx(comment.appliedBy ? 'comment.appliedBy' : 'comment.applied', {
          commit,
          name: comment.appliedBy?.name ?? '',
          when: <Time iso={comment.appliedAt} />,
        })}
      </dd>
      {applied && comment.deployedAt ? (
        <>
          <dt>{t('state.live')}</dt>
          <dd>
            {comment.deployedBuildSha
              ? tx('comment.liveIn', {
                  build: <code>{shortSha(comment.deployedBuildSha)}</code>,
                  when: <Time iso={comment.deployedAt} />,
                })
              : t('comment.liveAtOnce')}
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
    </>
  );
}

/** Who is on it, its priority, its due date and its labels: the team sets them here. */
function Triage({ comment, act }: { comment: Comment; act: Act }) {
  return (
    <dl class="facts">
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
      <dt>{t('comment.dueDate')}</dt>
      <dd>
        {comment.can.triage ? (
          <DueChoice key={comment.updatedAt} comment={comment} act={act} />
        ) : comment.dueOn ? (
          <DuePill comment={comment} />
        ) : (
          t('comment.noDueDate')
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
    </dl>
  );
}

/** The day it should be fixed by: a date field (a whole day, set when chosen) and a button that clears it. */
function DueChoice({ comment, act }: { comment: Comment; act: Act }) {
  const set = (dueOn: string | null) =>
    act(() => api.call('PATCH /api/comments/{id}', { params: { id: comment.id }, body: { dueOn } }));
  return (
    <span class="due-choice">
      <input
        type="date"
        aria-label={t('comment.dueDate')}
        style="width:auto"
        value={comment.dueOn ?? ''}
        onChange={(e) => {
          const day = (e.target as HTMLInputElement).value;
          if (day !== (comment.dueOn ?? '')) void set(day || null);
        }}
      />
      {comment.dueOn ? (
        <>
          <DuePill comment={comment} />
          <button type="button" class="link" onClick={() => void set(null)}>
            {t('comment.clearDueDate')}
          </button>
        </>
      ) : null}
    </span>
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
    <div class="row comment-actions">
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
function Discussion({ comment, act, pending }: { comment: Comment; act: Act; pending: boolean }) {
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

interface DialogProps {
  comment: Comment;
  open: boolean;
  onClose: () => void;
  action: Action;
}

/**
 * A fix, with its commit or without one: a change made on the site itself (copy in a content
 * system) has none, and is Live at once (the lifecycle's "apply (without a commit)").
 */
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
          const commitSha = typed ? normalizeSha(typed) : null;
          if (typed && !commitSha) {
            action.setError(t('comment.notASha', { typed: typed.slice(0, 60) }));
            return;
          }
          void act(() =>
            api.call('POST /api/comments/{id}/apply', {
              params: { id: comment.id },
              body: { ...(commitSha ? { commitSha } : {}), ...(link.trim() ? { commitUrl: link.trim() } : {}) },
            }),
          );
        }}
      >
        <Field label={t('comment.sha')} hint={t('comment.shaHint')} value={sha} onValue={setSha} />
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
