// The actions the caller may take on the comment (apply a fix, verify it, reopen, archive, delete) and their dialogs.

import { VERIFY_NOTE_MAX } from '@svc/contract/rules';
import { normalizeSha } from '@svc/contract/sha';
import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import { t } from '../../i18n.js';
import { navigate } from '../../router.js';
import { ConfirmDialog, Dialog, Field, FormError } from '../../ui.js';
import type { Act, Action, Comment } from './model.js';

/** The actions the server says the caller may take on it now: nothing is re-derived here. */
export function CommentActions({
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
export function ApplyDialog({ comment, open, onClose, act, action }: DialogProps & { act: Act }) {
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

export function NotFixedDialog({ comment, open, onClose, act, action }: DialogProps & { act: Act }) {
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

export function DeleteDialog({ comment, open, onClose, action }: DialogProps) {
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
