import { describeElement } from '../describe.js';
import { h } from '../dom.js';
import type { Draft } from '../store.js';
import type { Actions } from './actions.js';
import { field, formError } from './form.js';

export function newCommentView(draft: Draft, actions: Actions): Node {
  const form = h(
    'form',
    {
      onSubmit: (event: Event) => {
        event.preventDefault();
        const body = field(form, 'body');
        if (!body) return formError(form, 'Write your comment first.');
        actions.sendComment(form, body);
      },
    },
    h('p', { class: 'muted' }, draft !== 'page' ? `About ${describeElement(draft.element)}` : 'About the whole page'),
    h('label', { for: 'svc-new-body' }, 'Your comment'),
    h('textarea', { id: 'svc-new-body', name: 'body', rows: '4', maxlength: '10000', required: true }),
    h(
      'div',
      { class: 'actions' },
      h('button', { class: 'btn', type: 'button', onClick: () => actions.cancelDraft() }, 'Cancel'),
      h('button', { class: 'btn primary', type: 'submit' }, 'Send'),
    ),
  );
  return form;
}
