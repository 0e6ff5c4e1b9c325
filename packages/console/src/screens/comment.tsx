// One comment: what was said and where, what happened to it, its thread, and the actions the
// caller may take on it.

import type { AnswerOf } from '@svc/contract/endpoints';
import { VERIFY_NOTE_MAX } from '@svc/contract/rules';
import { shortSha } from '@svc/contract/sha';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { Link, navigate } from '../router.js';
import { isAdmin, me } from '../session.js';
import {
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

const TAGS: Record<string, string> = {
  a: 'link',
  button: 'button',
  p: 'paragraph',
  img: 'image',
  li: 'list item',
  ul: 'list',
  ol: 'list',
  h1: 'heading',
  h2: 'heading',
  h3: 'heading',
  h4: 'heading',
  h5: 'heading',
  h6: 'heading',
  input: 'field',
  textarea: 'text box',
  select: 'menu',
  table: 'table',
  tr: 'table row',
  td: 'table cell',
  nav: 'navigation',
  header: 'header',
  footer: 'footer',
  section: 'section',
  form: 'form',
  label: 'label',
  span: 'text',
  div: 'block',
  main: 'main content',
};

/** "a paragraph in #plan-team", from a selector such as `#plan-team > p:nth-of-type(2)`. */
export function describeSelector(selector: string): string {
  const steps = selector.split('>').map((step) => step.trim());
  const last = steps.pop() ?? '';
  const name = (step: string) => {
    const id = /^#([\w-]+)/.exec(step)?.[1];
    if (id) return `#${id}`;
    const testId = /data-testid="([^"]+)"/.exec(step)?.[1];
    if (testId) return `"${testId}"`;
    const tag = /^[a-z][a-z0-9]*/.exec(step)?.[0] ?? '';
    const nth = /nth-of-type\((\d+)\)/.exec(step)?.[1];
    const word = TAGS[tag] ?? (tag ? `<${tag}>` : 'element');
    return nth ? `${word} ${nth}` : word;
  };
  const where = [...steps].reverse().find((step) => step.startsWith('#') || step.includes('data-testid'));
  const what = name(last);
  return where ? `${what} in ${name(where)}` : what;
}

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

export function CommentDetail({ id }: { id: string }) {
  const loaded = useLoad(() => api.call('GET /api/comments/{id}', { params: { id } }), [id]);
  const action = useAction();
  const [reply, setReply] = useState('');
  const [sha, setSha] = useState('');
  const [link, setLink] = useState('');
  const [note, setNote] = useState('');
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
  const user = me.value?.user;
  const mayVerify = comment.status === 'applied' && (comment.author.id === user?.id || isAdmin());
  const mayDelete = comment.author.id === user?.id || isAdmin();
  const act = async (request: () => ReturnType<typeof api.call>) => {
    const answer = await action.run(request as () => Promise<never>);
    if (answer) {
      setDialog(null);
      loaded.reload();
    }
    return answer;
  };
  const openOnPage = (() => {
    const url = new URL(comment.pageUrl);
    url.searchParams.set('svc_comment', comment.id);
    return url.href;
  })();

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
        <dl class="facts">
          <dt>Project</dt>
          <dd>{comment.projectKey}</dd>
          <dt>Page</dt>
          <dd>
            <a href={comment.pageUrl} target="_blank" rel="noopener noreferrer">
              {comment.pageUrl}
            </a>{' '}
            ·{' '}
            <a href={openOnPage} target="_blank" rel="noopener noreferrer">
              Open on page
            </a>
          </dd>
          <dt>Pinned to</dt>
          <dd>
            {comment.anchor ? (
              <>
                {describeSelector(comment.anchor.selector)} <code class="muted small">{comment.anchor.selector}</code>
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
              <dt>Fixed in</dt>
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
        <div class="row">
          {comment.status !== 'archived' ? (
            <button type="button" class="primary" onClick={() => setDialog('apply')}>
              {comment.status === 'applied' ? 'Apply another commit' : 'Apply a fix'}
            </button>
          ) : null}
          {mayVerify && !comment.verifiedAt ? (
            <button
              type="button"
              onClick={() =>
                act(() => api.call('POST /api/comments/{id}/verify', { params: { id }, body: { ok: true } }))
              }
            >
              Verified
            </button>
          ) : null}
          {mayVerify ? (
            <button type="button" onClick={() => setDialog('reject')}>
              Not fixed
            </button>
          ) : null}
          {comment.status === 'applied' ? (
            <button
              type="button"
              onClick={() => act(() => api.call('POST /api/comments/{id}/reopen', { params: { id } }))}
            >
              Reopen
            </button>
          ) : null}
          {comment.status !== 'archived' ? (
            <button
              type="button"
              onClick={() => act(() => api.call('POST /api/comments/{id}/archive', { params: { id } }))}
            >
              Archive
            </button>
          ) : null}
          {mayDelete ? (
            <button type="button" class="danger" onClick={() => setDialog('delete')}>
              Delete
            </button>
          ) : null}
        </div>
        {dialog ? null : <FormError message={action.error} />}
      </div>

      {comment.screenshot ? (
        <>
          <h2>Screenshot</h2>
          <ScreenshotImage id={comment.id} />
        </>
      ) : null}
      {comment.context ? <ContextFacts context={comment.context} /> : null}

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
            api.call('POST /api/comments/{id}/replies', { params: { id }, body: { body: reply } }),
          );
          if (answer) setReply('');
        }}
      >
        <Field label="Reply" multiline rows={3} required maxLength={10000} value={reply} onValue={setReply} />
        <button type="submit" class="primary" disabled={action.pending || !reply.trim()}>
          Send reply
        </button>
      </form>

      <Dialog title="Apply a fix" open={dialog === 'apply'} onClose={() => setDialog(null)}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void act(() =>
              api.call('POST /api/comments/{id}/apply', {
                params: { id },
                body: { commitSha: sha.trim(), ...(link.trim() ? { commitUrl: link.trim() } : {}) },
              }),
            );
          }}
        >
          <Field
            label="Commit SHA"
            hint="7 to 40 hex characters."
            required
            pattern="[0-9a-fA-F]{7,40}"
            value={sha}
            onValue={setSha}
          />
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
            <button type="button" onClick={() => setDialog(null)}>
              Cancel
            </button>
          </div>
        </form>
      </Dialog>

      <Dialog title="Not fixed" open={dialog === 'reject'} onClose={() => setDialog(null)}>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void act(() =>
              api.call('POST /api/comments/{id}/verify', { params: { id }, body: { ok: false, note: note.trim() } }),
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
            <button type="button" onClick={() => setDialog(null)}>
              Cancel
            </button>
          </div>
        </form>
      </Dialog>

      <Dialog title="Delete this comment?" open={dialog === 'delete'} onClose={() => setDialog(null)}>
        <p>The comment, its replies and its notifications are deleted for everyone. This cannot be undone.</p>
        <FormError message={action.error} />
        <div class="row">
          <button
            type="button"
            class="danger"
            disabled={action.pending}
            onClick={async () => {
              const answer = await action.run(() => api.call('DELETE /api/comments/{id}', { params: { id } }));
              if (answer) {
                setDialog(null);
                navigate('/comments');
              }
            }}
          >
            Delete
          </button>
          <button type="button" onClick={() => setDialog(null)}>
            Cancel
          </button>
        </div>
      </Dialog>
    </>
  );
}
