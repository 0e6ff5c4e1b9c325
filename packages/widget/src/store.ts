// What the server said, as the widget holds it: the comments of this page (or all pages).
// Changed only through its methods, each announcing what changed (see changes.ts). Its parts
// of their own, reached from here because the views read them all: the session, the view
// state, the unread count and updates (updates.ts); and, once the panel's chunk brought them,
// the images (images.ts) and what is asked once per person signed in (lists.ts). No DOM.
import type { Anchor, Comment as ApiComment, CaptureContext, CommentWithReplies } from '@svc/contract';
import type { Answer } from '@svc/contract/endpoints';
import { pageOf } from '@svc/contract/page';
import type { StatusFilterValue } from '@svc/contract/vocabulary';
import { captureContext } from './capture.js';
import type { Announce, Change, FieldsOf } from './changes.js';
import type { Words } from './i18n.js';
import type { Images } from './images.js';
import type { Lists } from './lists.js';
import { type Embed, Session } from './session.js';
import { Updates } from './updates.js';
import { type Draft, ViewState } from './view-state.js';

/** A comment as the widget holds it: its replies once they have been loaded. */
export type Comment = ApiComment & Partial<Pick<CommentWithReplies, 'replies' | 'timeline' | 'images'>>;
/** The status filter of the comments list; '' is all of them. */
export type StatusFilter = StatusFilterValue;

/** Takes the page's screenshot, outlining `element` when there is one. */
export type Shoot = (element: Element | null) => Promise<Blob>;

export class Store {
  readonly session: Session;
  readonly view: ViewState;
  readonly updates: Updates;
  /** The parts only the panel reads, brought by its chunk so that the first load stays small (`withPanelParts`). */
  declare readonly images: Images;
  declare readonly lists: Lists;
  readonly comments: readonly Comment[] = [];
  readonly nextCursor: string | null = null;
  /** Which comments the list shows: of every page or this one, with this status. */
  readonly allPages: boolean = false;
  readonly status: StatusFilter = '';
  /** The team's filter by who is on a comment: anyone, the person signed in, or nobody. */
  readonly assignee: '' | 'me' | 'none' = '';
  /**
   * A short confirmation shown on a comment's card after the user acted on it; `refused` when it
   * says why the action did not happen; `retry` offers to take its screenshot again.
   */
  readonly confirmation: { id: string; text: string; refused?: boolean; retry?: boolean } | null = null;
  /** The query parameters that make another page of this project (its `pageParams`). */
  readonly pageParams: readonly string[] = [];
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
    this.updates = new Updates(this.session, announce);
  }

  /** Takes the parts that came with the panel's chunk, made by `make` (once). */
  withPanelParts(make: (announce: Announce) => Pick<Store, 'images' | 'lists'>): void {
    if (!this.images) Object.assign(this, make(this.announce));
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

  get projectKey(): string {
    return this.embed.projectKey;
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
    this.updates.forget();
    this.set({ comments: [] }, 'comments');
    this.session.forget(notice);
  }

  /** Shows `text` on comment `id`'s card (null: shows none). */
  confirm(id: string | null, text = '', how: { refused?: boolean; retry?: boolean } = {}): void {
    this.set({ confirmation: id ? { id, text, ...how } : null }, 'view');
  }

  // --- comments --------------------------------------------------------------------------

  /** Shows the comments of every page or this one (`allPages`), with the status filter (`status`). */
  async filter(filter: Partial<Pick<Store, 'allPages' | 'status' | 'assignee'>>): Promise<void> {
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
    const query = listQuery(this);
    const answer = await this.api
      .call(
        'GET /api/comments',
        { query: { ...query, cursor: cursor ?? undefined } },
        etag ? { 'if-none-match': etag } : {},
      )
      .catch(() => null);
    return JSON.stringify(listQuery(this)) === JSON.stringify(query) ? answer : null;
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
   * Sends a new comment about `draft` (null: this page) with the page's context, as `masked`
   * leaves it (see mask.ts: the panel's, out of the first load); with `shoot`, then takes its
   * screenshot (given the pinned element's box, to outline) and attaches it. A screenshot that
   * cannot be taken or stored leaves the comment as sent, and says so.
   */
  async createComment(
    draft: Draft | null,
    body: string,
    shoot: Shoot | null,
    masked: (context: CaptureContext) => CaptureContext,
  ) {
    const answer = await this.api.call('POST /api/projects/{key}/comments', {
      params: { key: this.embed.projectKey },
      body: {
        body,
        pageUrl: draft?.page ?? this.page(),
        anchor: draft?.anchor ?? null,
        context: masked({ ...captureContext(), ...draft?.context, ...(shoot ? { screenshotFollows: true } : {}) }),
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
    const refused = await this.images.attach(id, take);
    if (refused) this.confirm(id, refused, { refused: true, retry: true });
    else if (this.confirmation?.id === id) this.confirm(null);
    return !refused;
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

  /**
   * A change of one comment that the server answers with the comment (the team's triage, a
   * moved pin): put in its place, and `done` said on its card. A refusal is said there too; one
   * of the comment's state (someone took it first) shows the comment as it now stands.
   */
  async act(id: string, request: () => Promise<Answer<'POST /api/comments/{id}/claim'>>, done: string) {
    const answer = await request();
    if (answer.ok) {
      this.replace(answer.data);
      this.confirm(id, done);
    } else {
      this.confirm(id, this.session.refusal(answer), { refused: true });
      if (answer.status === 409) await this.loadThread(id);
    }
    return answer;
  }

  /** Moves the comment's pin to the element just picked. */
  repin(id: string, anchor: Anchor) {
    const move = () => this.api.call('PUT /api/comments/{id}/anchor', { params: { id }, body: { anchor } });
    return this.act(id, move, this.i18n.t('triage.pinMoved'));
  }

  async remove(id: string) {
    const answer = await this.api.call('DELETE /api/comments/{id}', { params: { id } });
    if (answer.ok) this.set({ comments: this.comments.filter((c) => c.id !== id) }, 'comments');
    return answer;
  }
}

/** The comments list's query as the store's page and filters are now (a cursor aside). */
const listQuery = (store: Store) => ({
  project: store.projectKey,
  limit: 50,
  pageUrl: store.allPages ? undefined : store.page(),
  status: store.status || undefined,
  assignee: store.assignee || undefined,
});
