import { h } from '../dom.js';
import type { Store } from '../store.js';
import type { Actions } from './actions.js';
import { closeButton } from './parts.js';

export function signInView(store: Store, actions: Actions): Node[] {
  const { t } = store.i18n;
  const form = store.session.challenge ? codeForm(store, actions) : passwordForm(store, actions);
  return [
    h('header', null, h('strong', { class: 'title' }, t('signIn.title')), closeButton(store, actions)),
    h('div', { class: 'body' }, form),
  ];
}

/** After a right password, for an account with two-factor sign-in. */
function codeForm(store: Store, actions: Actions): HTMLFormElement {
  const { t } = store.i18n;
  const form = h(
    'form',
    {
      onSubmit: (event: Event) => {
        event.preventDefault();
        actions.answerSecondFactor(form, (form.elements.namedItem('code') as HTMLInputElement).value);
      },
    },
    h('label', { for: 'svc-code' }, t('signIn.code')),
    h('p', { class: 'muted', id: 'svc-code-hint' }, t('signIn.codeHint')),
    h('input', {
      id: 'svc-code',
      name: 'code',
      autocomplete: 'one-time-code',
      inputmode: 'numeric',
      'aria-describedby': 'svc-code-hint',
      maxlength: 20,
      required: true,
    }),
    h('div', { class: 'actions' }, h('button', { class: 'btn primary', type: 'submit' }, t('signIn.submit'))),
  );
  return form;
}

function passwordForm(store: Store, actions: Actions): HTMLFormElement {
  const { t } = store.i18n;
  const form = h(
    'form',
    {
      onSubmit: (event: Event) => {
        event.preventDefault();
        const value = (name: string) => (form.elements.namedItem(name) as HTMLInputElement).value;
        actions.signIn(form, value('email'), value('password'));
      },
    },
    store.session.notice ? h('p', { class: 'error', role: 'alert' }, store.session.notice) : null,
    h('label', { for: 'svc-email' }, t('signIn.email')),
    h('input', { id: 'svc-email', name: 'email', type: 'email', autocomplete: 'username', required: true }),
    h('label', { for: 'svc-password' }, t('signIn.password')),
    h('input', {
      id: 'svc-password',
      name: 'password',
      type: 'password',
      autocomplete: 'current-password',
      required: true,
    }),
    h('div', { class: 'actions' }, h('button', { class: 'btn primary', type: 'submit' }, t('signIn.submit'))),
    store.session.sso
      ? h(
          'div',
          { class: 'actions' },
          h(
            'button',
            { class: 'btn', type: 'button', onClick: () => actions.continueWithSso() },
            t('signIn.sso', { provider: store.session.sso.displayName }),
          ),
        )
      : null,
  );
  return form;
}
