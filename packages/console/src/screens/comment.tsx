// One comment: what was said and where, what happened to it, its thread, and the actions the
// caller may take on it.

import { elementInWords } from '@svc/contract/element-words';
import type { AnswerOf } from '@svc/contract/endpoints';
import { COMMENT_BODY_MAX, VERIFY_NOTE_MAX } from '@svc/contract/rules';
import { normalizeSha, shortSha } from '@svc/contract/sha';
import { durationText, ENGLISH, fixStory, timelineSentence } from '@svc/contract/vocabulary';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { Link, navigate } from '../router.js';
import {
  ConfirmDialog,
  Dialog,
  Field,
  FormError,
  Loading,
  PageTitle,
  StatusPills,
  TableHead,
  Time,
  useAction,
  useLoad,
} from '../ui.js';

/** The screenshot, fetched with the session's token (it is private), shown from a blob: URL. */
function ScreenshotImage({ id }: { id: string }) {
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let objectUrl: string | null = null;
    void api.blob(`/api/comments/${encodeURIComponent(id)}/screenshot`).then((blob) => {
      if (!blob) return setFailed(true);
      objectUrl = URL.createObjectURL(blob);
      setUrl(objectUrl);
    });
    return () => {
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [id]);
  if (failed) return <p class="muted">The screenshot could not be loaded.</p>;
  if (!url) return <p class="muted">Loading the screenshot…</p>;
  return (
    <a href={url} target="_blank" rel="noopener noreferrer">
      <img class="screenshot" src={url} alt="The page as its author saw it, the element outlined" />
    </a>
  );
}

type Context = NonNullable<AnswerOf<'GET /api/comments/{id}'>['context']>;

/** The browser and page the comment was written in, and the page's recent errors. */
function ContextFacts({ context }: { context: Context }) {
  const software = (s: { name: string; version: string | null } | null) =>
    s ? `${s.name} ${s.version ?? ''}`.trim() : 'unknown';
  return (
    <>
      <h2>Where it was written</h2>
      <div class="card">
        <dl class="facts">
          <dt>Browser</dt>
          <dd>
            {software(context.browser)} on {software(context.os)}
          </dd>
          <dt>Window</dt>
          <dd>
            {context.viewport.width}×{context.viewport.height} at {context.devicePixelRatio}x (screen{' '}
            {context.screen.width}×{context.screen.height})
          </dd>
          <dt>Language</dt>
          <dd>
            {context.language}, {context.timeZone}, {context.colorScheme} theme
          </dd>
          <dt>Page title</dt>
          <dd>{context.title || '—'}</dd>
          <dt>Address</dt>
          <dd>{context.url}</dd>
          <dt>Build</dt>
          <dd>{context.buildSha ? <code>{shortSha(context.buildSha)}</code> : 'not stamped'}</dd>
        </dl>
      </div>
      <h2>Page errors ({context.errors.length})</h2>
      {context.errors.length ? (
        <div class="table-wrap">
          <table>
            <TableHead columns={['Kind', 'What', ['When', 'wide']]} />
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
        <p class="muted">None recorded.</p>
      )}
    </>
  );
}

type TimelineEvent = AnswerOf<'GET /api/comments/{id}'>['timeline'][number];

/** What happened to the comment, oldest first, with the time each step took. */
function CommentTimeline({ timeline }: { timeline: TimelineEvent[] }) {
  const fix = fixStory(timeline);
  return (
    <>
      <h2>Timeline</h2>
      {fix ? <p class="small">{fix}</p> : null}
      <ol class="timeline">
        {timeline.map((event, index) => {
          const before = timeline[index - 1];
          return (
            <li key={event.id} class={`timeline-${event.kind}`}>
              <span class="body-text">{timelineSentence(event)}</span>{' '}
              <span class="muted small">
                <Time iso={event.at} />
                {before ? ` · ${durationText(Date.parse(event.at) - Date.parse(before.at))} after the step before` : ''}
                {event.derived ? ' · recorded before timelines, from what the comment kept' : ''}
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
        <PageTitle>Comment</PageTitle>
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
        <Link href="/comments">← All comments</Link>
      </p>
      <PageTitle actions={<StatusPills comment={comment} />}>{`Comment by ${comment.author.name}`}</PageTitle>
      <div class="card stack">
        <p class="body-text" style="margin:0;font-size:16px">
          {comment.body}
        </p>
        <CommentFacts comment={comment} />
        <CommentActions comment={comment} act={act} open={setDialog} />
        {dialog ? null : <FormError message={action.error} />}
      </div>

      {comment.screenshot ? (
        <>
          <h2>Screenshot</h2>
          <ScreenshotImage id={comment.id} />
        </>
      ) : null}
      {comment.context ? <ContextFacts context={comment.context} /> : null}

      <CommentTimeline timeline={comment.timeline} />
      <Thread comment={comment} act={act} pending={action.pending} />

      <ApplyDialog comment={comment} open={dialog === 'apply'} onClose={close} act={act} action={action} />
      <NotFixedDialog comment={comment} open={dialog === 'reject'} onClose={close} act={act} action={action} />
      <DeleteDialog comment={comment} open={dialog === 'delete'} onClose={close} action={action} />
    </>
  );
}

/** Where it is, what it is pinned to, when it was written, fixed, Live and verified. */
function CommentFacts({ comment }: { comment: Comment }) {
  const openOnPage = new URL(comment.pageUrl);
  openOnPage.searchParams.set('svc_comment', comment.id);
  return (
    <dl class="facts">
      <dt>Project</dt>
      <dd>{comment.projectKey}</dd>
      <dt>Page</dt>
      <dd>
        <a href={comment.pageUrl} target="_blank" rel="noopener noreferrer">
          {comment.pageUrl}
        </a>{' '}
        ·{' '}
        <a href={openOnPage.href} target="_blank" rel="noopener noreferrer">
          Open on page
        </a>
      </dd>
      <dt>Pinned to</dt>
      <dd>
        {comment.anchor ? (
          <>
            {elementInWords(comment.anchor, ENGLISH.t)} <code class="muted small">{comment.anchor.selector}</code>
            {comment.repinned ? (
              <div class="muted small">
                Pin moved by {comment.repinned.by.name} <Time iso={comment.repinned.at} />
              </div>
            ) : null}
          </>
        ) : (
          'the whole page'
        )}
      </dd>
      <dt>Written</dt>
      <dd>
        <Time iso={comment.createdAt} /> by {comment.author.name}
      </dd>
      {comment.commitSha ? (
        <>
          {/* A reopened comment keeps the commit that did not fix it: said as such. */}
          <dt>{comment.status === 'open' ? 'Earlier fix, not accepted' : 'Fixed in'}</dt>
          <dd>
            {comment.commitUrl ? (
              <a href={comment.commitUrl} target="_blank" rel="noopener noreferrer">
                commit {shortSha(comment.commitSha)}
              </a>
            ) : (
              <code>{shortSha(comment.commitSha)}</code>
            )}
            {comment.appliedBy ? <> by {comment.appliedBy.name}</> : null} <Time iso={comment.appliedAt} />
          </dd>
        </>
      ) : null}
      {comment.deployedAt && comment.deployedBuildSha ? (
        <>
          <dt>Live</dt>
          <dd>
            in build <code>{shortSha(comment.deployedBuildSha)}</code>, <Time iso={comment.deployedAt} />
          </dd>
        </>
      ) : null}
      {comment.verifiedAt ? (
        <>
          <dt>Verified</dt>
          <dd>
            <Time iso={comment.verifiedAt} />
          </dd>
        </>
      ) : null}
    </dl>
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
          {comment.status === 'applied' ? 'Apply another commit' : 'Apply a fix'}
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
          Verified
        </button>
      ) : null}
      {can.verify ? (
        <button type="button" onClick={() => open('reject')}>
          Not fixed
        </button>
      ) : null}
      {can.reopen && !can.verify ? (
        <button type="button" onClick={() => act(() => api.call('POST /api/comments/{id}/reopen', { params: { id } }))}>
          Reopen
        </button>
      ) : null}
      {can.archive ? (
        <button
          type="button"
          onClick={() => act(() => api.call('POST /api/comments/{id}/archive', { params: { id } }))}
        >
          Archive
        </button>
      ) : null}
      {can.delete ? (
        <button type="button" class="danger" onClick={() => open('delete')}>
          Delete
        </button>
      ) : null}
    </div>
  );
}

/** The replies, oldest first, and the box to write one. */
function Thread({ comment, act, pending }: { comment: Comment; act: Act; pending: boolean }) {
  const [reply, setReply] = useState('');
  return (
    <>
      <h2>Replies ({comment.replies.length})</h2>
      {comment.replies.length ? (
        <ul class="thread">
          {comment.replies.map((r) => (
            <li key={r.id}>
              <div class="row">
                <strong>{r.author?.name ?? 'Update'}</strong>
                <span class="muted small">
                  <Time iso={r.createdAt} />
                </span>
              </div>
              <div class="body-text">{r.body}</div>
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">No replies yet.</p>
      )}
      <form
        class="card"
        style="margin-top:12px"
        onSubmit={async (event) => {
          event.preventDefault();
          const answer = await act(() =>
            api.call('POST /api/comments/{id}/replies', { params: { id: comment.id }, body: { body: reply } }),
          );
          if (answer) setReply('');
        }}
      >
        <Field
          label="Reply"
          multiline
          rows={3}
          required
          maxLength={COMMENT_BODY_MAX}
          value={reply}
          onValue={setReply}
        />
        <button type="submit" class="primary" disabled={pending || !reply.trim()}>
          Send reply
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
    <Dialog title="Apply a fix" open={open} onClose={onClose}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          // Said in words, not left to the browser's own bubble.
          const typed = sha.trim();
          const commitSha = normalizeSha(typed);
          if (!commitSha) {
            action.setError(
              typed
                ? `"${typed.slice(0, 60)}" is not a commit SHA: one is 7 to 40 hexadecimal characters (0-9, a-f), as git log shows it.`
                : 'Write the commit SHA of the fix: 7 to 40 hexadecimal characters (0-9, a-f), as git log shows it.',
            );
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
        <Field label="Commit SHA" hint="7 to 40 hex characters." required value={sha} onValue={setSha} />
        <Field
          label="Link to the commit"
          hint="Optional: derived from the project's repository URL when it has one."
          type="url"
          value={link}
          onValue={setLink}
        />
        <FormError message={action.error} />
        <div class="row">
          <button type="submit" class="primary" disabled={action.pending}>
            Apply
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function NotFixedDialog({ comment, open, onClose, act, action }: DialogProps & { act: Act }) {
  const [note, setNote] = useState('');
  return (
    <Dialog title="Not fixed" open={open} onClose={onClose}>
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
          label="What is still wrong?"
          hint={`Required, at most ${VERIFY_NOTE_MAX} characters. The comment reopens and whoever applied the fix is told.`}
          multiline
          required
          maxLength={VERIFY_NOTE_MAX}
          value={note}
          onValue={setNote}
        />
        <FormError message={action.error} />
        <div class="row">
          <button type="submit" class="primary" disabled={action.pending || !note.trim()}>
            Reopen
          </button>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Dialog>
  );
}

function DeleteDialog({ comment, open, onClose, action }: DialogProps) {
  return (
    <ConfirmDialog
      title="Delete this comment?"
      open={open}
      onClose={onClose}
      confirm="Delete"
      action={action}
      request={() => api.call('DELETE /api/comments/{id}', { params: { id: comment.id } })}
      done={() => {
        onClose();
        navigate('/comments');
      }}
    >
      <p>The comment, its replies and its notifications are deleted for everyone. This cannot be undone.</p>
    </ConfirmDialog>
  );
}
