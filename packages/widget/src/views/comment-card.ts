import type { Priority } from '@svc/contract';
import { COMMENT_BODY_MAX, PRIORITIES } from '@svc/contract/rules';
import { shortSha } from '@svc/contract/sha';
import { dueText, fixStory, statePills } from '@svc/contract/vocabulary';
import { h, timeAgo } from '../dom.js';
import type { MessageId } from '../i18n.js';
import { screenshotPath } from '../images.js';
import type { Comment, Store } from '../store.js';
import type { Actions } from './actions.js';
import { beforeAfter, elementGone } from './before-after.js';
import { formError } from './form.js';
import { imageAttacher, threadImages } from './image-attach.js';
import { labelChips, labelMenu } from './labels-menu.js';
import { mentionField, mentioningText } from './mention-field.js';
import { commitLink } from './parts.js';
import { verifyControls } from './verify.js';

/**
 * Whether the reader is shown the comment's commits and builds: the team is (a client has no use
 * for a hash, nor access to the repository it links to). Told by what the server says the reader
 * may do with the comment (`can.triage`, the team's whatever the comment's state), not by a role.
 */
const showsCommits = (c: Comment) => c.can.triage;

function pills(store: Store, c: Comment): Node[] {
  const shown = showsCommits(c) ? c : { ...c, deployedBuildSha: null };
  const state = statePills(shown, store.i18n.t).map((pill) => h('span', { class: `pill ${pill.kind}` }, pill.label));
  if (c.priority !== 'none')
    state.push(h('span', { class: `pill priority-${c.priority}` }, store.i18n.t(`priority.${c.priority}`)));
  // The team's plan, on a team member's card: the day it should be fixed by, overdue said in words.
  const due = showsCommits(c) ? dueText(c, store.i18n.t, store.i18n.locale) : null;
  if (due) state.push(h('span', { class: due.overdue ? 'pill due overdue' : 'pill due' }, due.text));
  return state;
}

/**
 * Reopen, archive, delete and move pin, as the server says this user may now (`can`). Reopen
 * is not offered beside "Not fixed", which reopens with a note: one action, one button.
 */
function triageActions(store: Store, actions: Actions, c: Comment): Node | null {
  const can = c.can;
  const here = c.pageUrl === store.page();
  const { t } = store.i18n;
  if (store.view.deleting === c.id) {
    return h(
      'div',
      { class: 'actions', role: 'group', 'aria-label': t('triage.deleteQuestion') },
      h('span', { class: 'muted' }, t('triage.deleteConfirm')),
      h(
        'button',
        { class: 'btn', type: 'button', id: `svc-keep-${c.id}`, onClick: () => actions.setDeleting(null) },
        t('triage.keep'),
      ),
      h('button', { class: 'btn danger', type: 'button', onClick: () => actions.remove(c.id) }, t('triage.delete')),
    );
  }
  const button = (label: MessageId, id: string, onClick: () => void) =>
    h('button', { class: 'icon', type: 'button', id: `svc-${id}-${c.id}`, onClick }, t(label));
  const buttons = [
    can.claim ? button('triage.claim', 'claim', () => actions.triage(c.id, 'claim')) : null,
    can.reopen && !can.verify ? button('triage.reopen', 'reopen', () => actions.triage(c.id, 'reopen')) : null,
    can.archive ? button('triage.archive', 'archive', () => actions.triage(c.id, 'archive')) : null,
    can.delete ? button('triage.delete', 'delete', () => actions.setDeleting(c.id)) : null,
    // Its element gone after a fix: its before and after offers to point at it again.
    can.repin && here && !elementGone(store, c)
      ? button(c.anchor ? 'triage.movePin' : 'triage.pinToElement', 'repin', () => actions.repin(c.id))
      : null,
    can.triage ? priorityMenu(store, actions, c) : null,
    can.triage ? labelMenu(store, actions, c) : null,
  ].filter((node) => node !== null);
  if (!buttons.length) return null;
  // The team's triage, or a reviewer's own pin: labelled for what it holds.
  const team = can.archive || can.reopen;
  return h(
    'div',
    { class: team ? 'actions team' : 'actions', role: 'group', 'aria-label': t(team ? 'triage.team' : 'triage.pin') },
    buttons,
  );
}

/** The team sets how urgent it is, from the card. */
function priorityMenu(store: Store, actions: Actions, c: Comment): Node {
  const { t } = store.i18n;
  return h(
    'select',
    {
      id: `svc-priority-${c.id}`,
      class: 'priority',
      'aria-label': t('triage.priority'),
      onChange: (event: Event) => actions.setPriority(c.id, (event.target as HTMLSelectElement).value as Priority),
    },
    [...PRIORITIES]
      .reverse()
      .map((p) => h('option', { value: p, selected: c.priority === p }, t(`priority.${p}` as const))),
  );
}

/**
 * Where the pin is on this page: found (nothing to say), perhaps on a changed element, or not
 * found (unless its before and after says so, in the words of whoever waits to verify it).
 */
function whereabouts(store: Store, c: Comment): Node | null {
  const placed = store.view.placements.get(c.id);
  if (placed === undefined || placed?.confidence === 'sure' || elementGone(store, c)) return null;
  return h(
    'strong',
    { class: placed ? 'moved' : 'missing' },
    store.i18n.t(placed ? 'comment.moved' : 'comment.missing'),
  );
}

/** Its path, and the route of a single-page app ("/todos#/active"). */
const pageOfUrl = (url: string) => {
  const parsed = new URL(url);
  return parsed.pathname + parsed.search + parsed.hash;
};

/** The screenshot as a thumbnail; selecting it opens it full size. */
function thumbnail(store: Store, c: Comment): Node {
  const { t } = store.i18n;
  const image = h('img', { class: 'thumb', alt: t('comment.screenshotAlt') });
  const open = h('button', { class: 'shot', type: 'button', 'aria-label': t('comment.openScreenshot') }, image);
  void store.images.urlOf(screenshotPath(c.id)).then((url) => {
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
  const shown = store.view.details.has(c.id);
  const { t } = store.i18n;
  const software = (s: { name: string; version: string | null } | null) =>
    s ? `${s.name} ${s.version ?? ''}`.trim() : '?';
  const facts: [string, string][] = [
    [t('comment.browser'), t('comment.browserValue', { browser: software(context.browser), os: software(context.os) })],
    [
      t('comment.window'),
      t('comment.windowValue', {
        // Sizes in pixels, written as the browser reported them (no thousands separator).
        width: String(context.viewport.width),
        height: String(context.viewport.height),
        ratio: String(context.devicePixelRatio),
        screenWidth: String(context.screen.width),
        screenHeight: String(context.screen.height),
      }),
    ],
    [
      t('comment.language'),
      t('comment.languageValue', {
        language: context.language,
        timeZone: context.timeZone,
        scheme: context.colorScheme,
      }),
    ],
    [t('comment.address'), context.url],
  ];
  if (context.buildSha && showsCommits(c)) facts.push([t('comment.build'), shortSha(context.buildSha)]);
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
      shown ? t('comment.hideDetails') : t('comment.details', { errors: context.errors.length }),
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
                { 'aria-label': t('comment.pageErrors') },
                context.errors.map((e) => h('li', null, h('strong', null, e.kind), ' ', e.message)),
              )
            : h('p', { class: 'muted' }, t('comment.noPageErrors')),
        )
      : null,
  );
}

export function commentCard(store: Store, actions: Actions, c: Comment, pin?: number): HTMLElement {
  const open = store.view.expanded.has(c.id);
  const here = c.pageUrl === store.page();
  const { t, parts } = store.i18n;
  return h(
    'li',
    {
      class: `comment${store.view.highlighted === c.id ? ' highlight' : ''}`,
      // An id, so that a redraw (the pins found, the words loaded) keeps focus on it.
      id: `svc-comment-${c.id}`,
      'data-comment': c.id,
      tabindex: '-1',
      'aria-label': t('comment.label', { author: c.author.name }),
    },
    h(
      'div',
      { class: 'row' },
      pin && store.view.placements.get(c.id) !== null
        ? h('span', { class: 'number', title: t('comment.pinNumber', { number: pin }) }, String(pin))
        : null,
      h('strong', null, c.author.name),
      h('span', { class: 'muted' }, timeAgo(c.createdAt, store.i18n)),
      h('span', { class: 'pills' }, pills(store, c)),
    ),
    h('p', null, c.body),
    labelChips(store, actions, c),
    c.screenshot ? thumbnail(store, c) : null,
    c.anchor && store.view.words
      ? h(
          'div',
          { class: 'muted' },
          t('comment.about', { element: store.view.words(c) }),
          here ? whereabouts(store, c) : null,
        )
      : null,
    c.assignee
      ? h(
          'div',
          { class: 'muted' },
          t('comment.onIt', {
            name: c.assignee.agent ? t('comment.agentName', { name: c.assignee.name }) : c.assignee.name,
          }),
        )
      : null,
    c.repinned
      ? h(
          'div',
          { class: 'muted' },
          ...parts('comment.pinMovedBy', { name: c.repinned.by.name, when: timeAgo(c.repinned.at, store.i18n) }),
        )
      : null,
    store.allPages ? h('div', { class: 'muted' }, pageOfUrl(c.pageUrl)) : null,
    c.status === 'applied' && c.commitSha && showsCommits(c)
      ? h(
          'div',
          { class: 'muted' },
          ...parts('comment.fixedIn', { commit: commitLink(store, c.commitSha, c.commitUrl, shortSha(c.commitSha)) }),
        )
      : null,
    store.confirmation?.id === c.id
      ? h(
          'p',
          { class: store.confirmation.refused ? 'confirm refused' : 'confirm', role: 'status' },
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
                  t('comment.retryScreenshot'),
                ),
              ]
            : null,
        )
      : null,
    beforeAfter(store, actions, c),
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
        open ? t('comment.hideReplies') : t('comment.replies', { count: c.replyCount }),
      ),
    ),
    open ? thread(store, actions, c) : null,
  );
}

function thread(store: Store, actions: Actions, c: Comment): Node {
  const { t } = store.i18n;
  const attached = h('div');
  const form = h(
    'form',
    {
      onSubmit: (event: Event) => {
        event.preventDefault();
        const text = mentioningText(form);
        if (!text) return formError(form, t('comment.writeReplyFirst'));
        actions.reply(form, c.id, text);
      },
    },
    h('label', { for: `svc-reply-${c.id}` }, t('comment.replyLabel')),
    mentionField(
      store,
      h('textarea', { id: `svc-reply-${c.id}`, name: 'body', rows: '2', maxlength: COMMENT_BODY_MAX }),
    ),
    attached,
    h('div', { class: 'actions' }, h('button', { class: 'btn primary', type: 'submit' }, t('comment.sendReply'))),
  );
  attached.replaceWith(imageAttacher(store, `reply-${c.id}`, form));
  const images = c.images ?? [];
  const of = (replyId: string | null) =>
    images.filter((image) => image.kind === 'attachment' && image.replyId === replyId);
  // Without commits, the deploy is the team's too: the Live pill says it.
  const timeline = showsCommits(c)
    ? c.timeline
    : c.timeline?.filter((e) => e.kind !== 'live').map((e) => ({ ...e, commitSha: null }));
  const story = timeline ? fixStory(timeline, t, store.i18n.locale) : null;
  return h(
    'div',
    null,
    story ? h('p', { class: 'muted story' }, story) : null,
    threadImages(store, of(null)),
    h(
      'ul',
      { class: 'replies', 'aria-label': t('comment.repliesList') },
      (c.replies ?? []).map((r) =>
        h(
          'li',
          null,
          h(
            'div',
            { class: 'row' },
            h('strong', null, r.author?.name ?? t('comment.update')),
            h('span', { class: 'muted' }, timeAgo(r.createdAt, store.i18n)),
          ),
          h('div', { class: 'pre' }, r.body),
          threadImages(store, of(r.id)),
        ),
      ),
    ),
    form,
  );
}
