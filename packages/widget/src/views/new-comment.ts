import type { Comment } from '@svc/contract';
import { COMMENT_BODY_MAX } from '@svc/contract/rules';
import { h } from '../dom.js';
import type { Draft } from '../store.js';
import type { Actions } from './actions.js';
import { field, formError } from './form.js';

/** The new comment's form; `screenshot` is whether “Attach a screenshot” starts checked. */
export function newCommentView(
  draft: Draft,
  actions: Actions,
  screenshot: boolean,
  words: ((comment: Pick<Comment, 'id' | 'anchor'>) => string) | null,
): Node {
  const form = h(
    'form',
    {
      onSubmit: (event: Event) => {
        event.preventDefault();
        const body = field(form, 'body');
        if (!body) return formError(form, 'Write your comment first.');
        actions.sendComment(form, body, (form.elements.namedItem('screenshot') as HTMLInputElement).checked);
      },
    },
    h(
      'p',
      { class: 'muted' },
      draft.anchor
        ? `About ${words ? words({ id: '', anchor: draft.anchor }) : 'the element you picked'}`
        : 'About the whole page',
    ),
    h('label', { for: 'svc-new-body' }, 'Your comment'),
    h('textarea', { id: 'svc-new-body', name: 'body', rows: '4', maxlength: COMMENT_BODY_MAX, required: true }),
    h(
      'label',
      { class: 'toggle' },
      h('input', { type: 'checkbox', name: 'screenshot', id: 'svc-new-shot', checked: screenshot }),
      'Attach a screenshot of this page',
    ),
    h(
      'p',
      { class: 'muted' },
      'Sent with your comment: the page address, browser, screen size and recent page errors. Password fields are never captured.',
    ),
    h(
      'div',
      { class: 'actions' },
      h('button', { class: 'btn', type: 'button', onClick: () => actions.cancelDraft() }, 'Cancel'),
      h('button', { class: 'btn primary', type: 'submit' }, 'Send'),
    ),
  );
  return form;
}
