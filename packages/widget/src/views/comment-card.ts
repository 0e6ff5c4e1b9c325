import { shortSha } from '@svc/contract/sha';
import { describeElement } from '../describe.js';
import { h, timeAgo } from '../dom.js';
import { type Comment, currentPage, type Store } from '../store.js';
import type { Actions } from './actions.js';
import { field, formError } from './form.js';
import { commitLink } from './parts.js';
import { pageElement } from './pins.js';
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

/** Archive, reopen and delete, for the team (SPEC §2): delete is its author's or an admin's. */
function teamActions(store: Store, actions: Actions, c: Comment): Node | null {
  const role = store.user?.role;
  if (role !== 'admin' && role !== 'member') return null;
  if (store.deleting === c.id) {
    return h(
      'div',
      { class: 'actions', role: 'group', 'aria-label': 'Delete this comment?' },
      h('span', { class: 'muted' }, 'Delete it and its replies for everyone?'),
      h(
        'button',
        { class: 'btn', type: 'button', id: `svc-keep-${c.id}`, onClick: () => actions.setDeleting(null) },
        'Keep',
      ),
      h('button', { class: 'btn danger', type: 'button', onClick: () => actions.remove(c.id) }, 'Delete'),
    );
  }
  const mayDelete = role === 'admin' || c.author.id === store.user?.id;
  const button = (label: string, id: string, onClick: () => void) =>
    h('button', { class: 'icon', type: 'button', id: `svc-${id}-${c.id}`, onClick }, label);
  return h(
    'div',
    { class: 'actions team', role: 'group', 'aria-label': 'Triage' },
    c.status === 'applied' ? button('Reopen', 'reopen', () => actions.triage(c.id, 'reopen')) : null,
    c.status !== 'archived' ? button('Archive', 'archive', () => actions.triage(c.id, 'archive')) : null,
    mayDelete ? button('Delete', 'delete', () => actions.setDeleting(c.id)) : null,
  );
}

/** The screenshot as a thumbnail; selecting it opens it full size. */
function thumbnail(store: Store, c: Comment): Node {
  const image = h('img', { class: 'thumb', alt: 'Screenshot of the page when this was written' });
  const open = h('button', { class: 'shot', type: 'button', 'aria-label': 'Open the screenshot full size' }, image);
  void store.screenshotUrl(c.id).then((url) => {
    if (!url) return open.remove();
    image.src = url;
    open.addEventListener('click', () => window.open(url, '_blank', 'noopener'));
  });
  return open;
}

/** What the widget captured with the comment, behind a Details toggle. */
function details(store: Store, actions: Actions, c: Comment): Node | null {
  const context = c.context;
  if (!context) return null;
  const shown = store.details.has(c.id);
  const software = (s: { name: string; version: string | null } | null) =>
    s ? `${s.name} ${s.version ?? ''}`.trim() : '?';
  const facts: [string, string][] = [
    ['Browser', `${software(context.browser)} on ${software(context.os)}`],
    [
      'Window',
      `${context.viewport.width}×${context.viewport.height} at ${context.devicePixelRatio}x (screen ${context.screen.width}×${context.screen.height})`,
    ],
    ['Language', `${context.language}, ${context.timeZone}, ${context.colorScheme} theme`],
    ['Address', context.url],
  ];
  if (context.buildSha) facts.push(['Build', shortSha(context.buildSha)]);
  return h(
    'div',
    null,
    h(
      'button',
      {
        class: 'icon',
        type: 'button',
        id: `svc-details-${c.id}`,
        'aria-expanded': String(shown),
        onClick: () => actions.toggleDetails(c.id),
      },
      shown
        ? 'Hide details'
        : `Details${context.errors.length ? ` · ${context.errors.length} error${context.errors.length === 1 ? '' : 's'}` : ''}`,
    ),
    shown
      ? h(
          'div',
          { class: 'details' },
          h(
            'dl',
            null,
            facts.flatMap(([term, value]) => [h('dt', null, term), h('dd', null, value)]),
          ),
          context.errors.length
            ? h(
                'ul',
                { 'aria-label': 'Page errors' },
                context.errors.map((e) => h('li', null, h('strong', null, e.kind), ' ', e.message)),
              )
            : h('p', { class: 'muted' }, 'No page errors were recorded.'),
        )
      : null,
  );
}

export function commentCard(store: Store, actions: Actions, c: Comment, pin?: number): HTMLElement {
  const open = store.expanded.has(c.id);
  const mine = c.author.id === store.user?.id;
  const target = c.anchor && c.pageUrl === currentPage() ? pageElement(c.anchor.selector) : null;
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
      pin ? h('span', { class: 'number', title: `Pin ${pin} on the page` }, String(pin)) : null,
      h('strong', null, c.author.name),
      h('span', { class: 'muted' }, timeAgo(c.createdAt)),
      h('span', { class: 'pills' }, pills(c)),
    ),
    h('p', null, c.body),
    c.screenshot ? thumbnail(store, c) : null,
    target ? h('div', { class: 'muted' }, `About ${describeElement(target)}`) : null,
    store.allPages ? h('div', { class: 'muted' }, new URL(c.pageUrl).pathname) : null,
    c.status === 'applied' && c.commitSha
      ? h('div', { class: 'muted' }, 'Fixed in ', commitLink(c.commitSha, c.commitUrl, shortSha(c.commitSha)))
      : null,
    store.confirmation?.id === c.id ? h('p', { class: 'confirm', role: 'status' }, store.confirmation.text) : null,
    mine && c.status === 'applied' ? verifyControls(store, actions, c) : null,
    details(store, actions, c),
    teamActions(store, actions, c),
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
