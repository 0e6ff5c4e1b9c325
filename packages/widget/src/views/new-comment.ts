import { COMMENT_BODY_MAX } from '@svc/contract/rules';
import { h } from '../dom.js';
import type { Store } from '../store.js';
import type { Draft } from '../view-state.js';
import type { Actions } from './actions.js';
import { formError } from './form.js';
import { imageAttacher } from './image-attach.js';
import { mentionField, mentioningText } from './mention-field.js';

/**
 * Where the project keeps replays: that the last moments are kept, the choice to send them with
 * this comment (ticked), and to stop keeping them on this browser; once stopped, to keep them again.
 */
function replayChoice(store: Store, actions: Actions): Node | null {
  const { t } = store.i18n;
  const { kept, offForYou, seconds } = actions.replayState();
  if (offForYou) {
    return h(
      'p',
      { class: 'muted' },
      `${t('replay.offForYou')} `,
      h(
        'button',
        { class: 'link', type: 'button', id: 'svc-replay-again', onClick: () => actions.keepReplayAgain() },
        t('replay.keepAgain'),
      ),
    );
  }
  if (!kept) return null;
  return h(
    'div',
    { class: 'replay' },
    h(
      'label',
      { class: 'toggle' },
      h('input', { type: 'checkbox', name: 'replay', id: 'svc-new-replay', checked: true }),
      t('replay.send', { seconds }),
    ),
    h(
      'p',
      { class: 'muted' },
      `${t('replay.kept', { seconds })} `,
      h(
        'button',
        { class: 'link', type: 'button', id: 'svc-replay-stop', onClick: () => actions.stopReplay() },
        t('replay.stop'),
      ),
    ),
  );
}

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
      h('input', {
        type: 'checkbox',
        name: 'screenshot',
        id: 'svc-new-shot',
        checked: store.screenshotByDefault || draft.marked !== undefined,
      }),
      t('new.screenshot'),
    ),
    replayChoice(store, actions),
    h(
      'div',
      { class: 'attach' },
      draft.marked ? h('img', { class: 'marked', src: draft.marked.url, alt: t('markup.preview') }) : null,
      h(
        'button',
        { class: 'btn', type: 'button', id: 'svc-markup', onClick: () => actions.markUp() },
        t(draft.marked ? 'markup.again' : 'markup.open'),
      ),
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
