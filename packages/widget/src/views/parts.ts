import { shortSha } from '@svc/contract/sha';
import { h } from '../dom.js';
import type { Store } from '../store.js';
import type { Actions } from './actions.js';

export function closeButton(store: Store, actions: Actions): HTMLElement {
  return h(
    'button',
    { class: 'icon', type: 'button', 'aria-label': store.i18n.t('widget.close'), onClick: () => actions.close() },
    '✕',
  );
}

export function commitLink(store: Store, sha: string, url: string | null, label?: string): Node {
  label ??= store.i18n.t('comment.commit', { sha: shortSha(sha) });
  return url
    ? h(
        'a',
        {
          class: 'sha',
          href: url,
          target: '_blank',
          rel: 'noopener noreferrer',
          onClick: (event: Event) => event.stopPropagation(),
        },
        label,
      )
    : h('span', { class: 'sha' }, label);
}
