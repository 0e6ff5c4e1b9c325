import { h } from '../dom.js';
import type { Store } from '../store.js';
import type { Actions } from './actions.js';
import { closeButton } from './parts.js';

export function signInView(store: Store, actions: Actions): Node[] {
  const form = store.challenge ? codeForm(actions) : passwordForm(store, actions);
  return [
    h('header', null, h('strong', { class: 'title' }, 'Sign in to comment'), closeButton(actions)),
    h('div', { class: 'body' }, form),
  ];
}

/** After a right password, for an account with two-factor sign-in. */
function codeForm(actions: Actions): HTMLFormElement {
  const form = h(
    'form',
    {
      onSubmit: (event: Event) => {
        event.preventDefault();
        actions.answerSecondFactor(form, (form.elements.namedItem('code') as HTMLInputElement).value);
      },
    },
    h('label', { for: 'svc-code' }, 'Code from your authenticator app'),
    h(
      'p',
      { class: 'muted', id: 'svc-code-hint' },
      'Six digits; or one of your recovery codes if you lost your phone.',
    ),
    h('input', {
      id: 'svc-code',
      name: 'code',
      autocomplete: 'one-time-code',
      inputmode: 'numeric',
      'aria-describedby': 'svc-code-hint',
      maxlength: 20,
      required: true,
    }),
    h('div', { class: 'actions' }, h('button', { class: 'btn primary', type: 'submit' }, 'Sign in')),
  );
  return form;
}

function passwordForm(store: Store, actions: Actions): HTMLFormElement {
  const form = h(
    'form',
    {
      onSubmit: (event: Event) => {
        event.preventDefault();
        const value = (name: string) => (form.elements.namedItem(name) as HTMLInputElement).value;
        actions.signIn(form, value('email'), value('password'));
      },
    },
    store.notice ? h('p', { class: 'error', role: 'alert' }, store.notice) : null,
    h('label', { for: 'svc-email' }, 'E-mail'),
    h('input', { id: 'svc-email', name: 'email', type: 'email', autocomplete: 'username', required: true }),
    h('label', { for: 'svc-password' }, 'Password'),
    h('input', {
      id: 'svc-password',
      name: 'password',
      type: 'password',
      autocomplete: 'current-password',
      required: true,
    }),
    h('div', { class: 'actions' }, h('button', { class: 'btn primary', type: 'submit' }, 'Sign in')),
    store.sso
      ? h(
          'div',
          { class: 'actions' },
          h(
            'button',
            { class: 'btn', type: 'button', onClick: () => actions.continueWithSso() },
            `Continue with ${store.sso.displayName}`,
          ),
        )
      : null,
  );
  return form;
}
