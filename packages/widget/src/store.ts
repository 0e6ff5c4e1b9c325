// What the server said, as the widget holds it: the unread count, the updates and the comments
// of this page (or all pages), with their screenshots. Changed only through its methods, each
// announcing what changed (see changes.ts); the session and the view state are parts of their
// own, reached from here because every view reads all three. No DOM here.
import type { Anchor, Comment as ApiComment, CommentWithReplies, Notification } from '@svc/contract';
import type { Answer } from '@svc/contract/endpoints';
import { pageOf } from '@svc/contract/page';
import type { PollResult } from '@svc/contract/poller';
import type { StatusFilterValue } from '@svc/contract/vocabulary';
import { captureContext } from './capture.js';
import type { Announce, Change, FieldsOf } from './changes.js';
import type { Words } from './i18n.js';
import { ScreenshotTooSlow } from './screenshot-budget.js';
import { type Embed, Session } from './session.js';
import { type Draft, ViewState } from './view-state.js';

/** A comment as the widget holds it: its replies once they have been loaded. */
export type Comment = ApiComment & Partial<Pick<CommentWithReplies, 'replies' | 'timeline'>>;
/** The status filter of the comments list; '' is all of them. */
export type StatusFilter = StatusFilterValue;

/** Takes the page's screenshot, outlining `element` when there is one. */
export type Shoot = (element: Element | null) => Promise<Blob>;

export class Store {
  readonly session: Session;
  readonly view: ViewState;
  readonly count: number = 0;
  readonly notifications: readonly Notification[] | null = null;
  readonly comments: readonly Comment[] = [];
  readonly nextCursor: string | null = null;
  /** Which comments the list shows: of every page or this one, with this status. */
  readonly allPages: boolean = false;
  readonly status: StatusFilter = '';
  /** A short confirmation shown on a comment's card after the user acted on it; `retry` offers to take its screenshot again. */
  readonly confirmation: { id: string; text: string; retry?: boolean } | null = null;
  /** The query parameters that make another page of this project (its `pageParams`). */
  readonly pageParams: readonly string[] = [];
  private readonly screenshots = new Map<string, Promise<string | null>>();
  private etag: string | null = null;
  /** The ETag of the first page of comments as shown, for the refresh while the panel is open. */
  private listEtag: string | null = null;

  constructor(
    private readonly embed: Embed & {
      /** Whether “Attach a screenshot” starts checked (the embed's `screenshot` setting). */
      screenshot: boolean;
    },
    private readonly announce: Announce,
  ) {
    this.session = new Session(embed, announce);
    this.view = new ViewState(announce);
  }

  private set(patch: Partial<FieldsOf<Store>>, change: Change): void {
    Object.assign(this, patch);
    this.announce(change);
  }

  get i18n(): Words {
    return this.session.i18n;
  }

  get api() {
    return this.session.api;
  }

  get screenshotByDefault(): boolean {
    return this.embed.screenshot;
  }

  /** The page the widget is on, as comments store it (see `pageOf`). */
  page(): string {
    return pageOf(location.href, this.pageParams) ?? location.origin + location.pathname;
  }

  /** Once signed in: the project's page parameters, then this page's comments. */
  async open(): Promise<void> {
    const project = await this.api
      .call('GET /api/projects/{key}', { params: { key: this.embed.projectKey } })
      .catch(() => null);
    if (project?.ok) Object.assign(this, { pageParams: project.data.pageParams });
    await this.loadComments();
  }

  /** Signs out on the server; the token is forgotten whatever it answers. */
  async signOut(): Promise<void> {
    await this.api.call('POST /api/auth/logout', {}).catch(() => null);
    this.forget();
  }

  /** Drops the token and everything read with it; `notice` says why when it is not the person's choice. */
  forget(notice = ''): void {
    this.etag = null;
    this.set({ count: 0, comments: [], notifications: null }, 'count');
    this.session.forget(notice);
  }

  /** Shows `text` on comment `id`'s card (null: shows none). */
  confirm(id: string | null, text = '', retry = false): void {
    this.set({ confirmation: id ? { id, text, ...(retry ? { retry } : {}) } : null }, 'view');
  }

  // --- unread count and updates -----------------------------------------------------------

  async pollCount(): Promise<PollResult> {
    const answer = await this.api.call(
      'GET /api/me/notifications/unread-count',
      {},
      this.etag ? { 'if-none-match': this.etag } : {},
    );
    const shared = { count: this.count, etag: this.etag };
    if (answer.status === 304) return { outcome: 'ok', intervalMs: answer.pollIntervalMs, shared };
    if (answer.ok) {
      this.sharedCount({ count: answer.data.count, etag: answer.etag });
      return { outcome: 'ok', intervalMs: answer.pollIntervalMs, shared: { count: this.count, etag: this.etag } };
    }
    return { outcome: answer.status === 401 ? 'unauthorized' : 'error' };
  }

  /** A count polled here or by another tab of this browser (see `PollSharing`). */
  sharedCount(polled: { count: number; etag: string | null }): void {
    this.etag = polled.etag;
    if (polled.count !== this.count) this.set({ count: polled.count }, 'count');
  }

  /** Loads the latest updates, then marks those shown as read (not one raised meanwhile). */
  async loadUpdates(): Promise<void> {
    const answer = await this.api.call('GET /api/me/notifications', { query: { limit: 20 } });
    if (!answer.ok) return;
    const notifications = answer.data.items;
    this.set({ notifications }, 'updates');
    const newest = notifications[0];
    if (newest && notifications.some((n) => !n.read)) {
      const marked = await this.api.call('POST /api/me/notifications/read-all', { body: { upTo: newest.id } });
      if (marked.ok) this.set({ count: marked.data.unreadCount }, 'count');
    }
  }

  // --- comments --------------------------------------------------------------------------

  /** Shows the comments of every page or this one (`allPages`), with the status filter (`status`). */
  async filter(filter: Partial<Pick<Store, 'allPages' | 'status'>>): Promise<void> {
    this.set(filter, 'view');
    await this.loadComments();
  }

  /** The first page of comments (or the next one, `more`), for this page or all pages, with the status filter. */
  async loadComments(more = false): Promise<void> {
    const answer = await this.listComments(more ? this.nextCursor : null, null);
    if (!answer?.ok) return;
    if (!more) this.listEtag = answer.etag;
    const items = answer.data.items;
    this.set({ comments: more ? [...this.comments, ...items] : items, nextCursor: answer.data.nextCursor }, 'comments');
  }

  /**
   * While the panel is open: re-reads the first page with If-None-Match (a 304 while nothing
   * changed), announced only when the list changed; replies already loaded are kept.
   */
  async refresh(): Promise<void> {
    const answer = await this.listComments(null, this.listEtag);
    if (!answer?.ok) return;
    const loaded = new Map(this.comments.map((c) => [c.id, c.replies]));
    this.listEtag = answer.etag;
    const comments = answer.data.items.map((c) => ({ ...c, replies: loaded.get(c.id) }));
    Object.assign(this, { comments, nextCursor: answer.data.nextCursor });
    for (const id of this.view.expanded) if (loaded.has(id)) await this.loadThread(id);
    this.announce('comments');
  }

  /**
   * One read of the list as the page and filters are now; null when it failed, or when the page
   * or a filter changed while it was on its way (an answer for the previous route, arriving
   * after the current one's, would otherwise replace it).
   */
  private async listComments(cursor: string | null, etag: string | null) {
    const asked = this.listQuery();
    const answer = await this.api
      .call(
        'GET /api/comments',
        {
          query: {
            project: this.embed.projectKey,
            limit: 50,
            pageUrl: this.allPages ? undefined : this.page(),
            status: this.status || undefined,
            cursor: cursor ?? undefined,
          },
        },
        etag ? { 'if-none-match': etag } : {},
      )
      .catch(() => null);
    return this.listQuery() === asked ? answer : null;
  }

  private listQuery(): string {
    return JSON.stringify([this.allPages || this.page(), this.status]);
  }

  comment(id: string): Comment | undefined {
    return this.comments.find((c) => c.id === id);
  }

  /** The server's newer version of a comment, in its place (or first, when it was not listed). */
  private replace(comment: Comment): void {
    const index = this.comments.findIndex((c) => c.id === comment.id);
    const merged = { ...this.comments[index], ...comment };
    const comments = index >= 0 ? this.comments.map((c, i) => (i === index ? merged : c)) : [merged, ...this.comments];
    this.set({ comments }, 'comments');
  }

  async loadThread(id: string): Promise<void> {
    const answer = await this.api.call('GET /api/comments/{id}', { params: { id } });
    if (answer.ok) this.replace(answer.data);
  }

  /**
   * Sends a new comment about `draft` (null: this page) with the page's context; with `shoot`,
   * then takes its screenshot (given the pinned element's box, to outline) and attaches it. A
   * screenshot that cannot be taken or stored leaves the comment as sent, and says so.
   */
  async createComment(draft: Draft | null, body: string, shoot: Shoot | null) {
    const answer = await this.api.call('POST /api/projects/{key}/comments', {
      params: { key: this.embed.projectKey },
      body: {
        body,
        pageUrl: draft?.page ?? this.page(),
        anchor: draft?.anchor ?? null,
        context: { ...captureContext(), ...(shoot ? { screenshotFollows: true } : {}) },
      },
    });
    if (answer.ok) {
      const id = answer.data.id;
      if (shoot) await this.attachScreenshot(id, () => shoot(draft?.element?.isConnected ? draft.element : null));
      await this.filter({ allPages: false });
    }
    return answer;
  }

  /**
   * Takes a screenshot and attaches it to comment `id`. When it cannot (too slow on this page,
   * refused, not stored), the card says so and offers to try again; true once it is attached.
   */
  async attachScreenshot(id: string, take: () => Promise<Blob>): Promise<boolean> {
    const failed = (text: string) => {
      this.confirm(id, text, true);
      return false;
    };
    let image: Blob;
    try {
      image = await take();
    } catch (error) {
      return failed(
        error instanceof ScreenshotTooSlow ? this.i18n.t('screenshot.tooSlow') : this.i18n.t('screenshot.notTaken'),
      );
    }
    const stored = await this.api
      .call('PUT /api/comments/{id}/screenshot', { params: { id }, body: image })
      .catch(() => null);
    if (!stored?.ok) return failed(this.i18n.t('screenshot.notStored'));
    if (this.confirmation?.id === id) this.confirm(null);
    this.screenshots.delete(id);
    return true;
  }

  /** The comment's screenshot as an object URL, fetched once with the session's token. */
  screenshotUrl(id: string): Promise<string | null> {
    let url = this.screenshots.get(id);
    if (!url) {
      url = this.api
        .blob(`/api/comments/${encodeURIComponent(id)}/screenshot`)
        .then((blob) => (blob ? URL.createObjectURL(blob) : null));
      this.screenshots.set(id, url);
    }
    return url;
  }

  async reply(id: string, body: string) {
    const answer = await this.api.call('POST /api/comments/{id}/replies', { params: { id }, body: { body } });
    if (answer.ok) await this.loadThread(id);
    return answer;
  }

  async verify(id: string, verdict: { ok: boolean; note?: string }): Promise<Answer<'POST /api/comments/{id}/verify'>> {
    // The verdict names the commit it is about: one applied meanwhile is not verified by it.
    const commitSha = this.comment(id)?.commitSha;
    const body = commitSha ? { ...verdict, commitSha } : verdict;
    const answer = await this.api.call('POST /api/comments/{id}/verify', { params: { id }, body });
    if (answer.ok) {
      this.replace(answer.data);
      this.confirm(id, this.i18n.t(verdict.ok ? 'verify.thanks' : 'verify.reopenedWithNote'));
      if (this.view.expanded.has(id)) await this.loadThread(id);
    }
    return answer;
  }

  /** Archive or reopen (team members): the comment is replaced by the server's answer. */
  async triage(id: string, action: 'archive' | 'reopen') {
    const answer = await this.api.call(
      action === 'archive' ? 'POST /api/comments/{id}/archive' : 'POST /api/comments/{id}/reopen',
      { params: { id } },
    );
    if (answer.ok) {
      this.replace(answer.data);
      this.confirm(id, this.i18n.t(action === 'archive' ? 'triage.archived' : 'triage.reopened'));
    }
    return answer;
  }

  /** Moves the comment's pin to the element just picked. */
  async repin(id: string, anchor: Anchor) {
    const answer = await this.api.call('PUT /api/comments/{id}/anchor', { params: { id }, body: { anchor } });
    if (answer.ok) {
      this.replace(answer.data);
      this.confirm(id, this.i18n.t('triage.pinMoved'));
    }
    return answer;
  }

  async remove(id: string) {
    const answer = await this.api.call('DELETE /api/comments/{id}', { params: { id } });
    if (answer.ok) this.set({ comments: this.comments.filter((c) => c.id !== id) }, 'comments');
    return answer;
  }

  /** The comments of this page pinned to an element (archived ones aside): their anchors, for the pins. */
  anchorsOfPage(): Map<string, Anchor> {
    const page = this.page();
    const anchors = new Map<string, Anchor>();
    for (const c of this.comments)
      if (c.anchor && c.status !== 'archived' && c.pageUrl === page) anchors.set(c.id, c.anchor);
    return anchors;
  }

  /** The number of each pinned comment of this page, shared by its pin and its card: by age, so a pin keeps its number. */
  pinNumbers(): Map<string, number> {
    const anchors = this.anchorsOfPage();
    const numbers = new Map<string, number>();
    const oldestFirst = this.comments
      .filter((c) => anchors.has(c.id))
      .sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1));
    for (const c of oldestFirst) numbers.set(c.id, numbers.size + 1);
    return numbers;
  }
}
