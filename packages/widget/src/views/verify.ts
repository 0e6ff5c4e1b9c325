import { VERIFY_NOTE_MAX } from '@svc/contract/rules';
import { h } from '../dom.js';
import type { Comment, Store } from '../store.js';
import type { Actions } from './actions.js';
import { field } from './form.js';

/** "Verified" / "Not fixed" for the comment's author, and the note that reopens it. */
export function verifyControls(store: Store, actions: Actions, c: Comment): Node {
  const { t } = store.i18n;
  if (store.view.rejecting !== c.id) {
    return h(
      'div',
      { class: 'actions start', role: 'group', 'aria-label': t('verify.question') },
      c.verifiedAt
        ? null
        : h(
            'button',
            {
              class: 'btn ok',
              type: 'button',
              onClick: () => actions.verify(null, c.id, { ok: true }),
            },
            t('verify.verified'),
          ),
      h(
        'button',
        { class: 'btn', type: 'button', id: `svc-not-fixed-${c.id}`, onClick: () => actions.setRejecting(c.id) },
        t('verify.notFixed'),
      ),
    );
  }
  const counter = h('span', { class: 'muted', 'aria-live': 'polite' }, `0/${VERIFY_NOTE_MAX}`);
  const send = h('button', { class: 'btn primary', type: 'submit', disabled: true }, t('verify.reopen'));
  const form = h(
    'form',
    {
      onSubmit: (event: Event) => {
        event.preventDefault();
        const note = field(form, 'note');
        if (note.length >= 1 && note.length <= VERIFY_NOTE_MAX) actions.verify(form, c.id, { ok: false, note });
      },
    },
    h('label', { for: `svc-note-${c.id}` }, t('verify.noteLabel')),
    h('textarea', {
      id: `svc-note-${c.id}`,
      name: 'note',
      rows: '3',
      maxlength: String(VERIFY_NOTE_MAX),
      required: true,
      onInput: (event: Event) => {
        const length = (event.target as HTMLTextAreaElement).value.trim().length;
        counter.textContent = `${length}/${VERIFY_NOTE_MAX}`;
        send.disabled = length < 1 || length > VERIFY_NOTE_MAX;
      },
    }),
    h(
      'div',
      { class: 'actions' },
      counter,
      h('button', { class: 'btn', type: 'button', onClick: () => actions.setRejecting(null) }, t('verify.cancel')),
      send,
    ),
  );
  return form;
}
