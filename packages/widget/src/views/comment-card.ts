import { shortSha } from '@svc/contract/sha';
import { h, timeAgo } from '../dom.js';
import type { Comment, Store } from '../store.js';
import type { Actions } from './actions.js';
import { field, formError } from './form.js';
import { commitLink } from './parts.js';
import { verifyControls } from './verify.js';

function pills(c: Comment): Node[] {
  const pills: Node[] = [];
  if (c.status === 'open') pills.push(h('span', { class: 'pill' }, 'Open'));
  else if (c.status === 'archived') pills.push(h('span', { class: 'pill' }, 'Archived'));
  else if (c.deployedAt && c.deployedBuildSha)
    pills.push(h('span', { class: 'pill live' }, `Live · ${shortSha(c.deployedBuildSha)}`));
  else pills.push(h('span', { class: 'pill completed' }, 'Completed'));
  if (c.verifiedAt) pills.push(h('span', { class: 'pill verified' }, 'Verified'));
  return pills;
}

export function commentCard(store: Store, actions: Actions, c: Comment): HTMLElement {
  const open = store.expanded.has(c.id);
  const mine = c.author.id === store.user?.id;
  return h(
    'li',
    {
      class: `comment${store.highlighted === c.id ? ' highlight' : ''}`,
      'data-comment': c.id,
      tabindex: '-1',
      'aria-label': `Comment by ${c.author.name}`,
    },
    h(
      'div',
      { class: 'row' },
      h('strong', null, c.author.name),
      h('span', { class: 'muted' }, timeAgo(c.createdAt)),
      h('span', { class: 'row', style: 'margin-left:auto' }, pills(c)),
    ),
    h('p', null, c.body),
    store.allPages ? h('div', { class: 'muted' }, new URL(c.pageUrl).pathname) : null,
    c.status === 'applied' && c.commitSha
      ? h('div', { class: 'muted' }, 'Fixed in ', commitLink(c.commitSha, c.commitUrl))
      : null,
    mine && c.status === 'applied' ? verifyControls(store, actions, c) : null,
    h(
      'div',
      { class: 'actions', style: 'justify-content:flex-start' },
      h(
        'button',
        {
          class: 'icon',
          type: 'button',
          id: `svc-replies-${c.id}`,
          'aria-expanded': String(open),
          onClick: () => actions.toggleReplies(c.id),
        },
        open ? 'Hide replies' : c.replyCount ? `${c.replyCount} repl${c.replyCount === 1 ? 'y' : 'ies'}` : 'Reply',
      ),
    ),
    open ? thread(actions, c) : null,
  );
}

function thread(actions: Actions, c: Comment): Node {
  const form = h(
    'form',
    {
      onSubmit: (event: Event) => {
        event.preventDefault();
        const text = field(form, 'body');
        if (!text) return formError(form, 'Write a reply first.');
        actions.reply(form, c.id, text);
      },
    },
    h('label', { for: `svc-reply-${c.id}` }, 'Reply'),
    h('textarea', { id: `svc-reply-${c.id}`, name: 'body', rows: '2', maxlength: '10000' }),
    h('div', { class: 'actions' }, h('button', { class: 'btn primary', type: 'submit' }, 'Send reply')),
  );
  return h(
    'div',
    null,
    h(
      'ul',
      { class: 'replies', 'aria-label': 'Replies' },
      (c.replies ?? []).map((r) =>
        h(
          'li',
          null,
          h(
            'div',
            { class: 'row' },
            h('strong', null, r.author?.name ?? 'Update'),
            h('span', { class: 'muted' }, timeAgo(r.createdAt)),
          ),
          h('div', { style: 'white-space:pre-wrap' }, r.body),
        ),
      ),
    ),
    form,
  );
}
