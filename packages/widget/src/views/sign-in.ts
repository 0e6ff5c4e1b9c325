import { h } from '../dom.js';
import type { Store } from '../store.js';
import type { Actions } from './actions.js';
import { closeButton } from './parts.js';

export function signInView(store: Store, actions: Actions): Node[] {
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
  );
  return [
    h('header', null, h('strong', { class: 'title' }, 'Sign in to comment'), closeButton(actions)),
    h('div', { class: 'body' }, form),
  ];
}
