// The widget's state and everything that changes it through the API: the session, the unread
// count, notifications and comments. No DOM here; the views read the state, the orchestrator
// re-renders after each change.
import type { Anchor, Comment as ApiComment, CommentWithReplies, Notification, User } from '@svc/contract';
import type { Answer } from '@svc/contract/endpoints';
import type { FetchApiClient } from '@svc/contract/fetch-client';
import type { Locale } from '@svc/contract/i18n';
import { pageOf } from '@svc/contract/page';
import type { PollResult } from '@svc/contract/poller';
import { type ProblemDocument, problemSentence, type StatusFilterValue } from '@svc/contract/vocabulary';
import type { Placement } from './anchoring/index.js';
import { widgetApi } from './api.js';
import { captureContext } from './capture.js';
import { type Words, wordsOf } from './i18n.js';
import { ScreenshotTooSlow } from './screenshot-budget.js';

/** A comment as the widget holds it: its replies once they have been loaded. */
export type Comment = ApiComment & Partial<Pick<CommentWithReplies, 'replies' | 'timeline'>>;
export type Tab = 'updates' | 'comments';
/** The status filter of the comments list; '' is all of them. */
export type StatusFilter = StatusFilterValue;
/** What a comment being written is about: a picked element (with its anchor), or the whole page; and the page it is on. */
export interface Draft {
  element: Element | null;
  anchor: Anchor | null;
  page: string;
}

/** Takes the page's screenshot, outlining `element` when there is one. */
export type Shoot = (element: Element | null) => Promise<Blob>;

export class Store {
  readonly api: FetchApiClient;
  user: User | null = null;
  tab: Tab = 'updates';
  count = 0;
  /** Shown above the sign-in form: why the user is signed out. */
  notice = '';
  /** A sign-in waiting for its second factor (shown once, kept in memory only). */
  challenge: string | null = null;
  notifications: Notification[] | null = null;
  comments: Comment[] = [];
  nextCursor: string | null = null;
  allPages = false;
  status: StatusFilter = '';
  /** Comments whose replies are shown. */
  readonly expanded = new Set<string>();
  highlighted: string | null = null;
  /** The comment whose "Not fixed" note is being written. */
  rejecting: string | null = null;
  /** The comment whose deletion waits for a confirmation. */
  deleting: string | null = null;
  draft: Draft | null = null;
  /** A short confirmation shown on a comment's card after the user acted on it; `retry` offers to take its screenshot again. */
  confirmation: { id: string; text: string; retry?: boolean } | null = null;
  /** Comments whose captured details are shown. */
  readonly details = new Set<string>();
  /** The query parameters that make another page of this project (its `pageParams`). */
  pageParams: string[] = [];
  /** Where each pin of this page is (null: its element is not found on this page), as the anchoring reports it. */
  placements = new Map<string, Placement | null>();
  /** The comment whose pin is being moved. */
  repinning: string | null = null;
  /** The language the widget speaks, and its words. */
  i18n: Words = wordsOf('en');
  /** The workspace's default language, once read (`GET /api/me`). */
  workspaceLocale: string | null | undefined = undefined;
  /** A comment's element in words, once the anchoring is loaded (it brings the words). */
  words: ((comment: Pick<ApiComment, 'id' | 'anchor'>) => string) | null = null;
  private readonly screenshots = new Map<string, Promise<string | null>>();
  private etag: string | null = null;
  /** The ETag of the first page of comments as shown, for the refresh while the panel is open. */
  private listEtag: string | null = null;
  private beaconSent = false;

  constructor(
    private readonly apiBase: string,
    private readonly projectKey: string,
    /** The embed's workspace id, when it names one: single sign-on is then found by it. */
    private readonly workspaceId: string | null,
    /** Whether “Attach a screenshot” starts checked (the embed's `screenshot` setting). */
    readonly screenshotByDefault: boolean,
    /** Called when the count changes outside a render (the poll). */
    private readonly onCount: () => void,
  ) {
    this.api = widgetApi(apiBase);
  }

  private get project() {
    return { key: this.projectKey };
  }

  /** The page the widget is on, as comments store it (see `pageOf`). */
  page(): string {
    return pageOf(location.href, this.pageParams) ?? location.origin + location.pathname;
  }

  /**
   * Why the server could not be reached, when it is because this page's origin is not allowed
   * (the browser hides that from a refused request): the origin, and where an admin allows it.
   * Null when the server cannot be reached at all, or says the origin is allowed.
   */
  async refusedOrigin(): Promise<{ origin: string; allowUrl: string } | null> {
    const url = `${this.apiBase}/api/widget/origin-check?project=${encodeURIComponent(this.projectKey)}`;
    const answer = await fetch(url).then(
      (response) => (response.ok ? (response.json() as Promise<{ origin: string | null; allowed: boolean }>) : null),
      () => null,
    );
    if (!answer || answer.allowed) return null;
    const origin = answer.origin ?? location.origin;
    const allowUrl = `${this.apiBase}/projects?edit=${encodeURIComponent(this.projectKey)}&origin=${encodeURIComponent(origin)}`;
    return { origin, allowUrl };
  }

  // --- session ---------------------------------------------------------------------------

  /** Signs in with the token of a client's link (`?svc_access=`), if the page was opened from one; false when refused. */
  async exchangeAccessLink(accessToken: string | null): Promise<boolean> {
    if (!accessToken) return true;
    const answer = await this.api.call('POST /api/auth/quick-access', { body: { accessToken } }).catch(() => null);
    if (answer?.ok) {
      this.api.setToken(answer.data.token);
      return true;
    }
    const refused = answer ? null : await this.refusedOrigin();
    this.notice = refused
      ? this.i18n.t('signIn.linkRefusedHere', { origin: refused.origin })
      : this.i18n.t('signIn.linkInvalid');
    return false;
  }

  /** The signed-in user from a stored token, or null (a refused token is forgotten). */
  async resume(): Promise<User | null> {
    if (!this.api.token) return null;
    const me = await this.api.call('GET /api/me', {}).catch(() => null);
    if (me?.ok) {
      this.workspaceLocale = me.data.workspace.defaultLocale;
      return me.data.user;
    }
    if (me?.status === 401) this.api.setToken(null);
    return null;
  }

  async signIn(email: string, password: string) {
    const answer = await this.api.call('POST /api/auth/login', { body: { email, password } });
    if (!answer.ok) return answer;
    if ('token' in answer.data) {
      await this.adopt(answer.data.token, answer.data.user);
    } else if (answer.data.secondFactor === 'code') {
      this.challenge = answer.data.challenge;
    } else {
      // Setting up an app takes a QR code and recovery codes to keep: the console's sign-in does it.
      this.notice = this.i18n.t('signIn.setUpTwoFactor');
    }
    return answer;
  }

  /** The workspace's single sign-on, once asked (null: it has none). */
  sso: { workspaceId: string; displayName: string } | null | undefined = undefined;

  /** Asks once whether this project's workspace signs in with its own provider. */
  async discoverSso(): Promise<void> {
    if (this.sso !== undefined) return;
    const query = this.workspaceId ? { workspace: this.workspaceId } : { project: this.projectKey };
    const found = await this.api.call('GET /api/auth/sso', { query }).catch(() => null);
    this.sso = found?.ok ? found.data : null;
  }

  /**
   * Signs in through the workspace's provider in `popup` (opened by the click, so that no
   * blocker stops it): the provider's pages there, then the server's last page hands this page
   * a one-time code (a message from the API's origin only), traded for a session here.
   */
  async signInWithSso(popup: Window): Promise<string | null> {
    const started = await this.api.call('POST /api/auth/sso/start', {
      body: { workspace: this.sso?.workspaceId ?? '' },
    });
    if (!started.ok) {
      popup.close();
      return started.data ? this.refusal(started) : this.i18n.t('signIn.ssoNotStarted');
    }
    popup.location.href = started.data.url;
    const answer = await new Promise<{ code?: string | null; error?: string | null } | null>((resolve) => {
      const apiOrigin = new URL(this.apiBase).origin;
      const heard = (event: MessageEvent) => {
        if (event.origin !== apiOrigin || event.source !== popup || event.data?.type !== 'svc-sso') return;
        done(event.data);
      };
      // Closed without an answer: nothing to wait for.
      const watch = setInterval(() => popup.closed && done(null), 500);
      const done = (value: { code?: string | null; error?: string | null } | null) => {
        clearInterval(watch);
        removeEventListener('message', heard);
        resolve(value);
      };
      addEventListener('message', heard);
    });
    if (!answer) return this.i18n.t('signIn.popupClosed');
    if (answer.error) return this.i18n.t('signIn.ssoFailedBecause', { reason: answer.error });
    if (!answer.code) return this.i18n.t('signIn.ssoFailed');
    const session = await this.api.call('POST /api/auth/sso/exchange', {
      body: { code: answer.code, binding: started.data.binding },
    });
    if (!session.ok) return session.data ? this.refusal(session) : this.i18n.t('signIn.ssoFailed');
    await this.adopt(session.data.token, session.data.user);
    return null;
  }

  /** The code of the authenticator app (or a recovery code), after a right password. */
  async answerSecondFactor(code: string) {
    const answer = await this.api.call('POST /api/auth/two-factor', {
      body: { challenge: this.challenge ?? '', code },
    });
    if (answer.ok) {
      this.challenge = null;
      await this.adopt(answer.data.token, answer.data.user);
    } else if (answer.status === 401) {
      this.challenge = null;
      this.notice = answer.data ? this.refusal(answer) : this.i18n.t('signIn.expired');
    }
    return answer;
  }

  private async adopt(token: string, user: User): Promise<void> {
    this.api.setToken(token);
    this.tab = 'comments';
    await this.signedIn(user);
  }

  async signedIn(user: User): Promise<void> {
    this.user = user;
    this.notice = '';
    this.sendBeacon();
    const project = await this.api.call('GET /api/projects/{key}', { params: this.project }).catch(() => null);
    if (project?.ok) this.pageParams = project.data.pageParams;
    await this.loadComments();
  }

  async signOut(): Promise<void> {
    await this.api.call('POST /api/auth/logout', {}).catch(() => null);
    this.forget();
  }

  /** A refusal of the API as one sentence in the widget's language. */
  refusal(answer: { status: number; data?: ProblemDocument | null }): string {
    return problemSentence(answer.data ?? undefined, answer.status, this.i18n);
  }

  /** The person's own language (null: as the page or browser says), kept on their account. */
  async setLocale(locale: Locale | null) {
    const answer = await this.api.call('PATCH /api/me', { body: { locale } });
    if (answer.ok) this.user = answer.data;
    return answer;
  }

  /** The workspace's default language, read when nothing before it in the order names one. */
  async readWorkspaceLocale(): Promise<string | null> {
    if (this.workspaceLocale === undefined && this.user) {
      const me = await this.api.call('GET /api/me', {}).catch(() => null);
      this.workspaceLocale = me?.ok ? me.data.workspace.defaultLocale : null;
    }
    return this.workspaceLocale ?? null;
  }

  /** Drops the token and everything read with it. */
  forget(notice = ''): void {
    this.api.setToken(null);
    this.user = null;
    this.workspaceLocale = undefined;
    this.notice = notice;
    this.count = 0;
    this.etag = null;
    this.comments = [];
    this.notifications = null;
  }

  /** Tells the server which build this page comes from, once per page load; never retried, never shown. Clients may not report builds, so they do not try. */
  private sendBeacon(): void {
    const sha = document.documentElement.getAttribute('data-build-sha');
    if (!sha || this.beaconSent || this.user?.role === 'client') return;
    this.beaconSent = true;
    this.api
      .call('POST /api/projects/{key}/builds', { params: this.project, body: { sha, containsCommitShas: [] } })
      .catch(() => {});
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
    if (polled.count !== this.count) this.setCount(polled.count);
  }

  private setCount(count: number): void {
    this.count = count;
    this.onCount();
  }

  /** Loads the latest updates, then marks those shown as read (not one raised meanwhile). */
  async loadUpdates(shown: () => void): Promise<void> {
    const answer = await this.api.call('GET /api/me/notifications', { query: { limit: 20 } });
    if (!answer.ok) return;
    this.notifications = answer.data.items;
    shown();
    const newest = this.notifications[0];
    if (newest && this.notifications.some((n) => !n.read)) {
      const marked = await this.api.call('POST /api/me/notifications/read-all', { body: { upTo: newest.id } });
      if (marked.ok) this.setCount(marked.data.unreadCount);
    }
  }

  // --- comments --------------------------------------------------------------------------

  /** The first page of comments (or the next one, `more`), for this page or all pages, with the status filter. */
  async loadComments(more = false): Promise<void> {
    const answer = await this.listComments(more ? this.nextCursor : null, null);
    if (!answer?.ok) return;
    if (!more) this.listEtag = answer.etag;
    this.comments = more ? [...this.comments, ...answer.data.items] : answer.data.items;
    this.nextCursor = answer.data.nextCursor;
  }

  /**
   * While the panel is open: re-reads the first page with If-None-Match (a 304 while nothing
   * changed). True when the list changed; replies already loaded are kept.
   */
  async refresh(): Promise<boolean> {
    const answer = await this.listComments(null, this.listEtag);
    if (!answer?.ok) return false;
    const loaded = new Map(this.comments.map((c) => [c.id, c.replies]));
    this.listEtag = answer.etag;
    this.comments = answer.data.items.map((c) => ({ ...c, replies: loaded.get(c.id) }));
    this.nextCursor = answer.data.nextCursor;
    for (const id of this.expanded) if (loaded.has(id)) await this.loadThread(id);
    return true;
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
            project: this.projectKey,
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

  private replace(comment: Comment): void {
    const index = this.comments.findIndex((c) => c.id === comment.id);
    const merged = { ...this.comments[index], ...comment };
    if (index >= 0) this.comments[index] = merged;
    else this.comments.unshift(merged);
  }

  async loadThread(id: string): Promise<void> {
    const answer = await this.api.call('GET /api/comments/{id}', { params: { id } });
    if (answer.ok) this.replace(answer.data);
  }

  /** The comments tab, showing `id` (from its page, or all pages) with its replies open. */
  async showComment(id: string, pageUrl: string): Promise<void> {
    this.tab = 'comments';
    this.allPages = pageUrl !== this.page();
    await this.loadComments();
    await this.loadThread(id);
    this.expanded.add(id);
    this.highlighted = id;
  }

  /**
   * Sends a new comment with the page's context; with `shoot`, then takes its screenshot (given
   * the pinned element's box, to outline) and attaches it. A screenshot that cannot be taken
   * or stored leaves the comment as sent, and says so.
   */
  async createComment(body: string, shoot: Shoot | null) {
    const draft = this.draft;
    const answer = await this.api.call('POST /api/projects/{key}/comments', {
      params: this.project,
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
      this.draft = null;
      this.allPages = false;
      await this.loadComments();
      this.highlighted = id;
    }
    return answer;
  }

  /**
   * Takes a screenshot and attaches it to comment `id`. When it cannot (too slow on this page,
   * refused, not stored), the card says so and offers to try again; true once it is attached.
   */
  async attachScreenshot(id: string, take: () => Promise<Blob>): Promise<boolean> {
    const failed = (text: string) => {
      this.confirmation = { id, text, retry: true };
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
    if (this.confirmation?.id === id) this.confirmation = null;
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
      this.rejecting = null;
      this.replace(answer.data);
      this.confirmation = {
        id,
        text: this.i18n.t(verdict.ok ? 'verify.thanks' : 'verify.reopenedWithNote'),
      };
      if (this.expanded.has(id)) await this.loadThread(id);
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
      this.confirmation = { id, text: this.i18n.t(action === 'archive' ? 'triage.archived' : 'triage.reopened') };
    }
    return answer;
  }

  /** Moves the comment's pin to the element just picked. */
  async repin(id: string, anchor: Anchor) {
    const answer = await this.api.call('PUT /api/comments/{id}/anchor', { params: { id }, body: { anchor } });
    if (answer.ok) {
      this.replace(answer.data);
      this.confirmation = { id, text: this.i18n.t('triage.pinMoved') };
    }
    return answer;
  }

  async remove(id: string) {
    const answer = await this.api.call('DELETE /api/comments/{id}', { params: { id } });
    this.deleting = null;
    if (answer.ok) {
      this.comments = this.comments.filter((c) => c.id !== id);
      this.expanded.delete(id);
    }
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
