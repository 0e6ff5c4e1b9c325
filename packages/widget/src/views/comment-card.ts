import { COMMENT_BODY_MAX } from '@svc/contract/rules';
import { shortSha } from '@svc/contract/sha';
import { fixStory, statePills } from '@svc/contract/vocabulary';
import { h, timeAgo } from '../dom.js';
import type { Comment, Store } from '../store.js';
import type { Actions } from './actions.js';
import { field, formError } from './form.js';
import { commitLink } from './parts.js';
import { verifyControls } from './verify.js';

function pills(c: Comment): Node[] {
  return statePills(c).map((pill) => h('span', { class: `pill ${pill.kind}` }, pill.label));
}

/**
 * Reopen, archive, delete and move pin, as the server says this user may now (`can`). Reopen
 * is not offered beside "Not fixed", which reopens with a note: one action, one button.
 */
function triageActions(store: Store, actions: Actions, c: Comment): Node | null {
  const can = c.can;
  const here = c.pageUrl === store.page();
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
  const button = (label: string, id: string, onClick: () => void) =>
    h('button', { class: 'icon', type: 'button', id: `svc-${id}-${c.id}`, onClick }, label);
  const buttons = [
    can.reopen && !can.verify ? button('Reopen', 'reopen', () => actions.triage(c.id, 'reopen')) : null,
    can.archive ? button('Archive', 'archive', () => actions.triage(c.id, 'archive')) : null,
    can.delete ? button('Delete', 'delete', () => actions.setDeleting(c.id)) : null,
    can.repin && here ? button(c.anchor ? 'Move pin' : 'Pin to an element', 'repin', () => actions.repin(c.id)) : null,
  ].filter((node) => node !== null);
  if (!buttons.length) return null;
  // The team's triage, or a reviewer's own pin: labelled for what it holds.
  const team = can.archive || can.reopen;
  return h(
    'div',
    { class: team ? 'actions team' : 'actions', role: 'group', 'aria-label': team ? 'Triage' : 'Pin' },
    buttons,
  );
}

/** Where the pin is on this page: found (nothing to say), perhaps on a changed element, or not found. */
function whereabouts(store: Store, id: string): Node | null {
  const placed = store.placements.get(id);
  if (placed === undefined || placed?.confidence === 'sure') return null;
  return h(
    'strong',
    { class: placed ? 'moved' : 'missing' },
    placed ? ' · moved? The element may have changed' : ' · not found on this page',
  );
}

/** Its path, and the route of a single-page app ("/todos#/active"). */
const pageOfUrl = (url: string) => {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search + parsed.hash;
};

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
  const here = c.pageUrl === store.page();
  return h(
    'li',
    {
      class: `comment${store.highlighted === c.id ? ' highlight' : ''}`,
      // An id, so that a redraw (the pins found, the words loaded) keeps focus on it.
      id: `svc-comment-${c.id}`,
      'data-comment': c.id,
      tabindex: '-1',
      'aria-label': `Comment by ${c.author.name}`,
    },
    h(
      'div',
      { class: 'row' },
      pin && store.placements.get(c.id) !== null
        ? h('span', { class: 'number', title: `Pin ${pin} on the page` }, String(pin))
        : null,
      h('strong', null, c.author.name),
      h('span', { class: 'muted' }, timeAgo(c.createdAt)),
      h('span', { class: 'pills' }, pills(c)),
    ),
    h('p', null, c.body),
    c.screenshot ? thumbnail(store, c) : null,
    c.anchor && store.words
      ? h('div', { class: 'muted' }, `About ${store.words(c)}`, here ? whereabouts(store, c.id) : null)
      : null,
    c.repinned ? h('div', { class: 'muted' }, `Pin moved by ${c.repinned.by.name} `, timeAgo(c.repinned.at)) : null,
    store.allPages ? h('div', { class: 'muted' }, pageOfUrl(c.pageUrl)) : null,
    c.status === 'applied' && c.commitSha
      ? h('div', { class: 'muted' }, 'Fixed in ', commitLink(c.commitSha, c.commitUrl, shortSha(c.commitSha)))
      : null,
    store.confirmation?.id === c.id
      ? h(
          'p',
          { class: 'confirm', role: 'status' },
          store.confirmation.text,
          store.confirmation.retry
            ? [
                ' ',
                h(
                  'button',
                  {
                    class: 'link',
                    type: 'button',
                    id: `svc-shoot-${c.id}`,
                    onClick: () => actions.retryScreenshot(c.id),
                  },
                  'Try the screenshot again',
                ),
              ]
            : null,
        )
      : null,
    c.can.verify ? verifyControls(store, actions, c) : null,
    details(store, actions, c),
    triageActions(store, actions, c),
    h(
      'div',
      { class: 'actions start' },
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
    h('textarea', { id: `svc-reply-${c.id}`, name: 'body', rows: '2', maxlength: COMMENT_BODY_MAX }),
    h('div', { class: 'actions' }, h('button', { class: 'btn primary', type: 'submit' }, 'Send reply')),
  );
  const story = c.timeline ? fixStory(c.timeline) : null;
  return h(
    'div',
    null,
    story ? h('p', { class: 'muted story' }, story) : null,
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
          h('div', { class: 'pre' }, r.body),
        ),
      ),
    ),
    form,
  );
}
