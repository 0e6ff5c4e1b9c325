import { COMMENT_BODY_MAX } from '@svc/contract/rules';
import { h } from '../dom.js';
import type { Store } from '../store.js';
import type { Draft } from '../view-state.js';
import type { Actions } from './actions.js';
import { formError } from './form.js';
import { imageAttacher } from './image-attach.js';
import { mentionField, mentioningText } from './mention-field.js';

/** The new comment's form; `screenshot` is whether “Attach a screenshot” starts checked. */
export function newCommentView(store: Store, draft: Draft, actions: Actions): Node {
  const { t } = store.i18n;
  const words = store.view.words;
  const attached = h('div');
  const form = h(
    'form',
    {
      onSubmit: (event: Event) => {
        event.preventDefault();
        const body = mentioningText(form);
        if (!body) return formError(form, t('new.writeFirst'));
        actions.sendComment(form, body, (form.elements.namedItem('screenshot') as HTMLInputElement).checked);
      },
    },
    h(
      'p',
      { class: 'muted' },
      draft.anchor
        ? words
          ? t('new.aboutElement', { element: words({ id: '', anchor: draft.anchor }) })
          : t('new.aboutPickedElement')
        : t('new.aboutPage'),
    ),
    h('label', { for: 'svc-new-body' }, t('new.body')),
    mentionField(
      store,
      h('textarea', { id: 'svc-new-body', name: 'body', rows: '4', maxlength: COMMENT_BODY_MAX, required: true }),
    ),
    attached,
    h(
      'label',
      { class: 'toggle' },
      h('input', { type: 'checkbox', name: 'screenshot', id: 'svc-new-shot', checked: store.screenshotByDefault }),
      t('new.screenshot'),
    ),
    h('p', { class: 'muted' }, t('new.sentWith')),
    h(
      'div',
      { class: 'actions' },
      h('button', { class: 'btn', type: 'button', onClick: () => actions.cancelDraft() }, t('new.cancel')),
      h('button', { class: 'btn primary', type: 'submit' }, t('new.send')),
    ),
  );
  // Built with the form, which takes what is pasted into it or dropped on it.
  attached.replaceWith(imageAttacher(store, 'new', form));
  return form;
}
