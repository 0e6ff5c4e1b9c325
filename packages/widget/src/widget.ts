import type { Comment as ApiComment, CommentWithReplies, Notification, User } from '@svc/contract';
import { VERIFY_NOTE_MAX } from '@svc/contract/rules';
import { shortSha } from '@svc/contract/sha';
import { Api } from './api.js';
import { h, timeAgo } from './dom.js';
import { type Picked, pickElement } from './picker.js';
import { Poller } from './poller.js';
import { styles } from './styles.js';

export interface WidgetConfig {
  apiBase: string;
  projectKey: string;
  notifyPollMs: number;
}

/** A comment as the widget holds it: its replies once they have been loaded. */
type Comment = ApiComment & Partial<Pick<CommentWithReplies, 'replies'>>;

const TYPE_LABELS: Record<Notification['type'], string> = {
  CommentApplied: 'Fix applied',
  CommentReopened: 'Reopened',
  ReplyAdded: 'New reply',
};
const ICON =
  '<svg viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" aria-hidden="true"><path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.6A8 8 0 1 1 21 12z"/></svg>';

/** The page this comment thread belongs to: origin and path (query and fragment are incidental). */
const currentPage = () => location.origin + location.pathname;

export class Widget {
  private readonly host = h('div', { 'data-svc-widget': '' });
  private readonly root = this.host.attachShadow({ mode: 'open' });
  private readonly badge = h('span', { class: 'badge', hidden: true, 'aria-hidden': 'true' });
  private readonly launcher = h('button', {
    class: 'launcher',
    type: 'button',
    'aria-haspopup': 'dialog',
    'aria-expanded': 'false',
    onClick: () => this.toggle(),
  });
  private readonly panel = h('section', { class: 'panel', role: 'dialog', 'aria-label': 'Feedback', hidden: true });
  private readonly pins = h('div');
  private readonly outline = h('div', { class: 'outline' });
  private readonly api: Api;
  private readonly poller: Poller;
  private readonly cleanups: (() => void)[] = [];

  private user: User | null = null;
  private tab: 'updates' | 'comments' = 'updates';
  private count = 0;
  private etag: string | null = null;
  private notice = '';
  private notifications: Notification[] | null = null;
  private comments: Comment[] = [];
  private nextCursor: string | null = null;
  private allPages = false;
  private expanded = new Set<string>();
  private highlighted: string | null = null;
  private rejecting: string | null = null;
  private draft: Picked | 'page' | null = null;
  private picking: { cancel: () => void } | null = null;
  private beaconSent = false;

  constructor(private readonly config: WidgetConfig) {
    this.api = new Api(config.apiBase, `svc:token:${config.apiBase}`);
    this.api.onUnauthorized = () => this.sessionEnded();
    this.poller = new Poller(config.notifyPollMs, () => this.pollCount());
    const style = h('style');
    style.textContent = styles;
    this.launcher.innerHTML = ICON;
    this.launcher.append(this.badge);
    this.root.append(style, this.pins, this.outline, this.panel, this.launcher);
    this.panel.addEventListener('keydown', (event) => {
      if (event.key === 'Escape') {
        event.stopPropagation();
        this.close();
      }
    });
    const relayout = () => this.renderPins();
    window.addEventListener('resize', relayout);
    this.cleanups.push(() => window.removeEventListener('resize', relayout));
    this.updateBadge();
  }

  async mount(): Promise<void> {
    document.body.append(this.host);
    await this.exchangeAccessLink();
    if (this.api.token) {
      const me = await this.api.call('GET', '/api/me').catch(() => null);
      if (me?.status === 200) await this.signedIn(me.data.user);
      else if (me?.status === 401) this.api.setToken(null);
    }
    this.render();
  }

  destroy(): void {
    this.poller.destroy();
    this.picking?.cancel();
    for (const cleanup of this.cleanups) cleanup();
    this.host.remove();
  }

  open(tab?: 'updates' | 'comments'): void {
    if (tab) this.tab = tab;
    this.showPanel();
    this.render();
    if (this.user && this.tab === 'updates') void this.loadUpdates();
    this.find('[aria-selected=true], input, textarea')?.focus();
  }

  close(): void {
    this.hidePanel();
    this.launcher.focus();
  }

  /** An element of the panel, to move focus to after a change. */
  private find(selector: string): HTMLElement | null {
    return this.panel.querySelector<HTMLElement>(selector);
  }

  private showPanel(): void {
    this.panel.hidden = false;
    this.launcher.setAttribute('aria-expanded', 'true');
  }

  private hidePanel(): void {
    this.panel.hidden = true;
    this.launcher.setAttribute('aria-expanded', 'false');
  }

  private toggle(): void {
    if (this.panel.hidden) this.open();
    else this.close();
  }

  // --- session ---------------------------------------------------------------------------

  private async exchangeAccessLink(): Promise<void> {
    const url = new URL(location.href);
    const accessToken = url.searchParams.get('svc_access');
    if (!accessToken) return;
    url.searchParams.delete('svc_access');
    history.replaceState(history.state, '', url.href);
    const answer = await this.api.call('POST', '/api/auth/quick-access', { accessToken }).catch(() => null);
    if (answer?.status === 200) {
      this.api.setToken(answer.data.token);
    } else {
      this.notice = 'This access link is no longer valid. Ask for a new one, or sign in.';
      this.showPanel();
    }
  }

  private async signedIn(user: User): Promise<void> {
    this.user = user;
    this.notice = '';
    this.sendBeacon();
    this.poller.start();
    await this.loadComments();
  }

  /** The server refused the token: back to the sign-in, saying why. */
  private sessionEnded(): void {
    if (!this.user) return;
    this.forgetSession();
    this.notice = 'Your session has ended. Please sign in again.';
    this.showPanel();
    this.render();
  }

  private async signOut(): Promise<void> {
    await this.api.call('POST', '/api/auth/logout').catch(() => null);
    this.forgetSession();
    this.render();
    this.find('input')?.focus();
  }

  /** Drops the token and everything read with it; stops polling. */
  private forgetSession(): void {
    this.api.setToken(null);
    this.user = null;
    this.poller.stop();
    this.count = 0;
    this.etag = null;
    this.comments = [];
    this.notifications = null;
    this.updateBadge();
    this.renderPins();
  }

  /** Tells the server which build this page comes from, once per page load; never retried, never shown. */
  private sendBeacon(): void {
    const sha = document.documentElement.getAttribute('data-build-sha');
    if (!sha || this.beaconSent) return;
    this.beaconSent = true;
    this.api
      .call('POST', `/api/projects/${encodeURIComponent(this.config.projectKey)}/builds`, {
        sha,
        containsCommitShas: [],
      })
      .catch(() => {});
  }

  // --- unread badge ----------------------------------------------------------------------

  private async pollCount() {
    const answer = await this.api.call<{ count: number }>(
      'GET',
      '/api/me/notifications/unread-count',
      undefined,
      this.etag ? { 'if-none-match': this.etag } : {},
    );
    if (answer.status === 304) return { outcome: 'ok' as const };
    if (answer.status === 200) {
      this.etag = answer.etag;
      this.setCount(answer.data.count);
      return { outcome: 'ok' as const };
    }
    return { outcome: answer.status === 401 ? ('unauthorized' as const) : ('error' as const) };
  }

  private setCount(count: number): void {
    this.count = count;
    this.updateBadge();
  }

  private updateBadge(): void {
    this.badge.hidden = this.count === 0;
    this.badge.textContent = this.count > 99 ? '99+' : String(this.count);
    this.launcher.setAttribute(
      'aria-label',
      this.count ? `Feedback, ${this.count} unread update${this.count === 1 ? '' : 's'}` : 'Feedback',
    );
  }

  // --- data ------------------------------------------------------------------------------

  private async loadUpdates(): Promise<void> {
    const answer = await this.api.call<{ items: Notification[] }>('GET', '/api/me/notifications?limit=20');
    if (answer.status !== 200) return;
    this.notifications = answer.data.items;
    this.render();
    const newest = this.notifications[0];
    if (newest && this.notifications.some((n) => !n.read)) {
      const marked = await this.api.call<{ unreadCount: number }>('POST', '/api/me/notifications/read-all', {
        upTo: newest.id,
      });
      if (marked.status === 200) this.setCount(marked.data.unreadCount);
    }
  }

  private async loadComments(more = false): Promise<void> {
    const query = new URLSearchParams({ limit: '50' });
    if (!this.allPages) query.set('pageUrl', currentPage());
    if (more && this.nextCursor) query.set('cursor', this.nextCursor);
    const answer = await this.api.call<{ items: Comment[]; nextCursor: string | null }>(
      'GET',
      `/api/projects/${encodeURIComponent(this.config.projectKey)}/comments?${query}`,
    );
    if (answer.status !== 200) return;
    this.comments = more ? [...this.comments, ...answer.data.items] : answer.data.items;
    this.nextCursor = answer.data.nextCursor;
    this.renderPins();
  }

  private replace(comment: Comment): void {
    const index = this.comments.findIndex((c) => c.id === comment.id);
    const merged = { ...this.comments[index], ...comment };
    if (index >= 0) this.comments[index] = merged;
    else this.comments.unshift(merged);
  }

  private async loadThread(id: string): Promise<void> {
    const answer = await this.api.call<Comment>('GET', `/api/comments/${encodeURIComponent(id)}`);
    if (answer.status === 200) this.replace(answer.data);
  }

  /** From a notification to its comment: the comments tab, scrolled to it, highlighted. */
  private async goToComment(id: string, pageUrl: string): Promise<void> {
    this.tab = 'comments';
    this.allPages = pageUrl !== currentPage();
    await this.loadComments();
    await this.loadThread(id);
    this.expanded.add(id);
    this.highlighted = id;
    this.render();
    const card = this.find(`[data-comment="${CSS.escape(id)}"]`);
    card?.scrollIntoView({ block: 'nearest' });
    card?.focus();
    const comment = this.comments.find((c) => c.id === id);
    if (comment?.anchor && comment.pageUrl === currentPage()) this.flash(comment.anchor.selector);
  }

  // --- new comment -----------------------------------------------------------------------

  private startPicking(): void {
    this.hidePanel();
    const hint = h(
      'div',
      { class: 'hint', role: 'status' },
      'Click the element your comment is about (or Tab to it and press Enter). Esc cancels.',
      h('button', { class: 'btn', type: 'button', onClick: () => this.finishPicking('page') }, 'Whole page'),
    );
    this.root.append(hint);
    // Pins would sit on top of the very elements being picked.
    this.pins.hidden = true;
    const picking = pickElement(this.host, this.outline);
    this.picking = picking;
    void picking.done.then((picked) => {
      hint.remove();
      if (this.picking === picking) this.finishPicking(picked);
    });
  }

  private finishPicking(picked: Picked | 'page' | null): void {
    const picking = this.picking;
    this.picking = null;
    picking?.cancel();
    this.pins.hidden = false;
    this.draft = picked;
    this.open('comments');
    // Cancelled: back where the user was, on the button that started it.
    if (!picked) this.find('[data-new]')?.focus();
  }

  private async sendComment(form: HTMLFormElement): Promise<void> {
    const body = (form.elements.namedItem('body') as HTMLTextAreaElement).value.trim();
    if (!body) return this.formError(form, 'Write your comment first.');
    const draft = this.draft;
    const anchor = draft && draft !== 'page' ? { selector: draft.selector, x: draft.x, y: draft.y } : null;
    const answer = await this.submit(form, () =>
      this.api.call<Comment>('POST', `/api/projects/${encodeURIComponent(this.config.projectKey)}/comments`, {
        body,
        pageUrl: currentPage(),
        anchor,
      }),
    );
    if (answer?.status !== 201) return;
    this.draft = null;
    this.allPages = false;
    await this.loadComments();
    this.highlighted = answer.data.id;
    this.render();
    this.find(`[data-comment="${CSS.escape(answer.data.id)}"]`)?.focus();
  }

  // --- rendering -------------------------------------------------------------------------

  private render(): void {
    const scroller = this.panel.querySelector('.body');
    const scrollTop = scroller?.scrollTop ?? 0;
    this.panel.replaceChildren(...(this.user ? this.signedInView() : this.signInView()));
    const body = this.panel.querySelector('.body');
    if (body) body.scrollTop = scrollTop;
  }

  private signInView(): Node[] {
    const form = h(
      'form',
      { onSubmit: (event: Event) => this.signIn(event) },
      this.notice ? h('p', { class: 'error', role: 'alert' }, this.notice) : null,
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
      h('header', null, h('strong', { style: 'flex:1;padding:6px' }, 'Sign in to comment'), this.closeButton()),
      h('div', { class: 'body' }, form),
    ];
  }

  private async signIn(event: Event): Promise<void> {
    event.preventDefault();
    const form = event.target as HTMLFormElement;
    const value = (name: string) => (form.elements.namedItem(name) as HTMLInputElement).value;
    const answer = await this.submit(form, () =>
      this.api.call('POST', '/api/auth/login', { email: value('email'), password: value('password') }),
    );
    if (answer?.status !== 200) return;
    this.api.setToken(answer.data.token);
    await this.signedIn(answer.data.user);
    this.tab = 'comments';
    this.render();
    this.find('[aria-selected=true]')?.focus();
  }

  private closeButton(): HTMLElement {
    return h('button', { class: 'icon', type: 'button', 'aria-label': 'Close', onClick: () => this.close() }, '✕');
  }

  private signedInView(): Node[] {
    const tab = (id: 'updates' | 'comments', label: string) =>
      h(
        'button',
        {
          role: 'tab',
          type: 'button',
          id: `svc-tab-${id}`,
          'aria-selected': String(this.tab === id),
          'aria-controls': 'svc-tabpanel',
          tabindex: this.tab === id ? '0' : '-1',
          onClick: () => this.switchTab(id),
          onKeydown: (event: KeyboardEvent) => {
            if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
              this.switchTab(id === 'updates' ? 'comments' : 'updates');
              this.find('[aria-selected=true]')?.focus();
            }
          },
        },
        label,
      );
    const header = h(
      'header',
      null,
      h('div', { role: 'tablist', 'aria-label': 'Feedback' }, tab('updates', 'Updates'), tab('comments', 'Comments')),
      h(
        'button',
        {
          class: 'icon',
          type: 'button',
          'data-new': '',
          'aria-label': 'New comment',
          onClick: () => this.startPicking(),
        },
        '+ New',
      ),
      h(
        'button',
        { class: 'icon', type: 'button', title: `Signed in as ${this.user?.name}`, onClick: () => this.signOut() },
        'Sign out',
      ),
      this.closeButton(),
    );
    const content =
      this.tab === 'updates' ? this.updatesView() : this.draft ? this.newCommentView() : this.commentsView();
    return [
      header,
      h(
        'div',
        { class: 'body', id: 'svc-tabpanel', role: 'tabpanel', 'aria-labelledby': `svc-tab-${this.tab}` },
        content,
      ),
    ];
  }

  private switchTab(tab: 'updates' | 'comments'): void {
    this.tab = tab;
    this.render();
    if (tab === 'updates') void this.loadUpdates();
    else void this.loadComments().then(() => this.render());
  }

  private updatesView(): Node {
    if (!this.notifications) return h('p', { class: 'empty' }, 'Loading…');
    if (this.notifications.length === 0) return h('p', { class: 'empty' }, 'No updates yet.');
    return h(
      'ul',
      { 'aria-label': 'Updates' },
      this.notifications.map((n) =>
        h(
          'li',
          null,
          h(
            'div',
            {
              class: `item${n.read ? '' : ' unread'}`,
              role: 'button',
              tabindex: '0',
              'data-notification': n.id,
              onClick: () => this.goToComment(n.comment.id, n.comment.pageUrl),
              onKeydown: (event: KeyboardEvent) => {
                if (event.key === 'Enter' || event.key === ' ') {
                  event.preventDefault();
                  void this.goToComment(n.comment.id, n.comment.pageUrl);
                }
              },
            },
            h(
              'div',
              { class: 'row' },
              h('span', { class: 'type' }, TYPE_LABELS[n.type] ?? n.type),
              n.actor ? h('span', { class: 'muted' }, `by ${n.actor.name}`) : null,
              h('span', { class: 'muted', style: 'margin-left:auto' }, timeAgo(n.createdAt)),
            ),
            h('p', { class: 'excerpt' }, n.excerpt),
            n.type === 'CommentApplied' && n.commitSha ? this.commitLink(n.commitSha, n.commitUrl ?? null) : null,
          ),
        ),
      ),
    );
  }

  private commitLink(sha: string, url: string | null): Node {
    const label = `Commit ${shortSha(sha)}`;
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

  private commentsView(): Node[] {
    const toggle = h(
      'label',
      { class: 'toggle' },
      h('input', {
        type: 'checkbox',
        checked: this.allPages,
        onChange: async (event: Event) => {
          this.allPages = (event.target as HTMLInputElement).checked;
          await this.loadComments();
          this.render();
          this.find('.toggle input')?.focus();
        },
      }),
      'All pages',
    );
    const list = this.comments.length
      ? h(
          'ul',
          { 'aria-label': 'Comments' },
          this.comments.map((c) => this.commentCard(c)),
        )
      : h('p', { class: 'empty' }, this.allPages ? 'No comments yet.' : 'No comments on this page yet.');
    const more = this.nextCursor
      ? h(
          'button',
          { class: 'btn', type: 'button', onClick: () => this.loadComments(true).then(() => this.render()) },
          'Show more',
        )
      : null;
    return more ? [toggle, list, more] : [toggle, list];
  }

  private pills(c: Comment): Node[] {
    const pills: Node[] = [];
    if (c.status === 'open') pills.push(h('span', { class: 'pill' }, 'Open'));
    else if (c.status === 'archived') pills.push(h('span', { class: 'pill' }, 'Archived'));
    else if (c.deployedAt && c.deployedBuildSha)
      pills.push(h('span', { class: 'pill live' }, `Live · ${shortSha(c.deployedBuildSha)}`));
    else pills.push(h('span', { class: 'pill completed' }, 'Completed'));
    if (c.verifiedAt) pills.push(h('span', { class: 'pill verified' }, 'Verified'));
    return pills;
  }

  private commentCard(c: Comment): HTMLElement {
    const open = this.expanded.has(c.id);
    const mine = c.author.id === this.user?.id;
    return h(
      'li',
      {
        class: `comment${this.highlighted === c.id ? ' highlight' : ''}`,
        'data-comment': c.id,
        tabindex: '-1',
        'aria-label': `Comment by ${c.author.name}`,
      },
      h(
        'div',
        { class: 'row' },
        h('strong', null, c.author.name),
        h('span', { class: 'muted' }, timeAgo(c.createdAt)),
        h('span', { class: 'row', style: 'margin-left:auto' }, this.pills(c)),
      ),
      h('p', null, c.body),
      this.allPages ? h('div', { class: 'muted' }, new URL(c.pageUrl).pathname) : null,
      c.status === 'applied' && c.commitSha
        ? h('div', { class: 'muted' }, 'Fixed in ', this.commitLink(c.commitSha, c.commitUrl))
        : null,
      mine && c.status === 'applied' ? this.verifyControls(c) : null,
      h(
        'div',
        { class: 'actions', style: 'justify-content:flex-start' },
        h(
          'button',
          {
            class: 'icon',
            type: 'button',
            'aria-expanded': String(open),
            onClick: async () => {
              if (open) this.expanded.delete(c.id);
              else {
                this.expanded.add(c.id);
                await this.loadThread(c.id);
              }
              this.render();
            },
          },
          open ? 'Hide replies' : c.replyCount ? `${c.replyCount} repl${c.replyCount === 1 ? 'y' : 'ies'}` : 'Reply',
        ),
      ),
      open ? this.thread(c) : null,
    );
  }

  private thread(c: Comment): Node {
    const form = h(
      'form',
      {
        onSubmit: async (event: Event) => {
          event.preventDefault();
          const text = (form.elements.namedItem('body') as HTMLTextAreaElement).value.trim();
          if (!text) return this.formError(form, 'Write a reply first.');
          const answer = await this.submit(form, () =>
            this.api.call('POST', `/api/comments/${encodeURIComponent(c.id)}/replies`, { body: text }),
          );
          if (answer?.status !== 201) return;
          await this.loadThread(c.id);
          this.render();
          this.find(`[data-comment="${CSS.escape(c.id)}"] textarea`)?.focus();
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

  private verifyControls(c: Comment): Node {
    const verify = async (form: HTMLFormElement | null, body: { ok: boolean; note?: string }) => {
      const answer = await this.submit(form, () =>
        this.api.call<Comment>('POST', `/api/comments/${encodeURIComponent(c.id)}/verify`, body),
      );
      if (answer?.status !== 200) return;
      this.rejecting = null;
      this.replace(answer.data);
      if (this.expanded.has(c.id)) await this.loadThread(c.id);
      this.renderPins();
      this.render();
      this.find(`[data-comment="${CSS.escape(c.id)}"]`)?.focus();
    };
    if (this.rejecting !== c.id) {
      return h(
        'div',
        { class: 'actions', style: 'justify-content:flex-start', role: 'group', 'aria-label': 'Is it fixed?' },
        c.verifiedAt
          ? null
          : h('button', { class: 'btn ok', type: 'button', onClick: () => verify(null, { ok: true }) }, 'Verified'),
        h(
          'button',
          {
            class: 'btn',
            type: 'button',
            onClick: () => {
              this.rejecting = c.id;
              this.render();
              this.find(`#svc-note-${CSS.escape(c.id)}`)?.focus();
            },
          },
          'Not fixed',
        ),
      );
    }
    const counter = h('span', { class: 'muted', 'aria-live': 'polite' }, `0/${VERIFY_NOTE_MAX}`);
    const send = h('button', { class: 'btn primary', type: 'submit', disabled: true }, 'Reopen');
    const form = h(
      'form',
      {
        onSubmit: (event: Event) => {
          event.preventDefault();
          const note = (form.elements.namedItem('note') as HTMLTextAreaElement).value.trim();
          if (note.length < 1 || note.length > VERIFY_NOTE_MAX) return;
          void verify(form, { ok: false, note });
        },
      },
      h('label', { for: `svc-note-${c.id}` }, 'What is still wrong? (required)'),
      h('textarea', {
        id: `svc-note-${c.id}`,
        name: 'note',
        rows: '3',
        maxlength: String(VERIFY_NOTE_MAX),
        required: true,
        onInput: (event: Event) => {
          const length = (event.target as HTMLTextAreaElement).value.trim().length;
          counter.textContent = `${length}/${VERIFY_NOTE_MAX}`;
          send.disabled = length < 1 || length > VERIFY_NOTE_MAX;
        },
      }),
      h(
        'div',
        { class: 'actions' },
        counter,
        h(
          'button',
          {
            class: 'btn',
            type: 'button',
            onClick: () => {
              this.rejecting = null;
              this.render();
            },
          },
          'Cancel',
        ),
        send,
      ),
    );
    return form;
  }

  private newCommentView(): Node {
    const draft = this.draft;
    const form = h(
      'form',
      {
        onSubmit: (event: Event) => {
          event.preventDefault();
          void this.sendComment(form);
        },
      },
      h(
        'p',
        { class: 'muted' },
        draft && draft !== 'page' ? ['Pinned to ', h('code', null, draft.selector)] : 'About the whole page',
      ),
      h('label', { for: 'svc-new-body' }, 'Your comment'),
      h('textarea', { id: 'svc-new-body', name: 'body', rows: '4', maxlength: '10000', required: true }),
      h(
        'div',
        { class: 'actions' },
        h(
          'button',
          {
            class: 'btn',
            type: 'button',
            onClick: () => {
              this.draft = null;
              this.render();
            },
          },
          'Cancel',
        ),
        h('button', { class: 'btn primary', type: 'submit' }, 'Send'),
      ),
    );
    return form;
  }

  /** Runs a form's request with its buttons disabled; shows the server's reason when it fails. */
  private async submit<T>(form: HTMLFormElement | null, request: () => Promise<{ status: number; data: T }>) {
    const buttons = form ? [...form.querySelectorAll('button')] : [];
    for (const button of buttons) button.disabled = true;
    try {
      const answer = await request();
      if (answer.status >= 400 && form) {
        const problem = answer.data as { detail?: string; title?: string } | undefined;
        this.formError(form, problem?.detail ?? problem?.title ?? 'That did not work. Please try again.');
      }
      return answer;
    } catch {
      if (form) this.formError(form, 'Could not reach the feedback server. Check your connection and try again.');
      return null;
    } finally {
      for (const button of buttons) if (button.isConnected) button.disabled = false;
    }
  }

  private formError(form: HTMLFormElement, message: string): void {
    form.querySelector('.error')?.remove();
    form.append(h('p', { class: 'error', role: 'alert' }, message));
  }

  // --- pins on the page ------------------------------------------------------------------

  private renderPins(): void {
    const pins: HTMLElement[] = [];
    const onThisPage = this.comments.filter((c) => c.status === 'open' && c.anchor && c.pageUrl === currentPage());
    onThisPage.forEach((c, i) => {
      const target = pageElement(c.anchor?.selector ?? '');
      if (!target || !c.anchor) return;
      const r = target.getBoundingClientRect();
      pins.push(
        h(
          'button',
          {
            class: 'pin',
            type: 'button',
            style: `left:${r.left + scrollX + c.anchor.x}px;top:${r.top + scrollY + c.anchor.y}px`,
            'aria-label': `Comment by ${c.author.name}: ${c.body.slice(0, 60)}`,
            onClick: () => this.goToComment(c.id, c.pageUrl).then(() => this.open('comments')),
          },
          String(i + 1),
        ),
      );
    });
    this.pins.replaceChildren(...pins);
  }

  private flash(selector: string): void {
    const target = pageElement(selector);
    if (!target) return;
    target.scrollIntoView({ block: 'center', behavior: 'smooth' });
    const r = target.getBoundingClientRect();
    const mark = h('div', {
      class: 'flash',
      'data-flash': '',
      style: `left:${r.left + scrollX - 4}px;top:${r.top + scrollY - 4}px;width:${r.width + 8}px;height:${r.height + 8}px`,
    });
    this.root.append(mark);
    setTimeout(() => mark.remove(), 2500);
  }
}

function pageElement(selector: string): Element | null {
  try {
    return document.querySelector(selector);
  } catch {
    return null;
  }
}
