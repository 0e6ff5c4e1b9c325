import { shortSha } from '@svc/contract/sha';
import { h } from '../dom.js';
import type { Actions } from './actions.js';

export function closeButton(actions: Actions): HTMLElement {
  return h('button', { class: 'icon', type: 'button', 'aria-label': 'Close', onClick: () => actions.close() }, '✕');
}

export function commitLink(sha: string, url: string | null, label = `Commit ${shortSha(sha)}`): Node {
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
