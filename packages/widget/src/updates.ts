// The unread count on the badge (polled, shared between the tabs of a browser) and the
// updates listed in the panel; read ones are marked read once shown. Every change announced.
import type { Notification } from '@svc/contract';
import type { PollResult } from '@svc/contract/poller';
import type { Announce } from './changes.js';
import type { Session } from './session.js';

export class Updates {
  readonly count: number = 0;
  readonly notifications: readonly Notification[] | null = null;
  private etag: string | null = null;

  constructor(
    private readonly session: Session,
    private readonly announce: Announce,
  ) {}

  private get api() {
    return this.session.api;
  }

  private set(patch: { count: number }): void {
    Object.assign(this, patch);
    this.announce('count');
  }

  /** Signed out: nothing unread, nothing listed. */
  forget(): void {
    this.etag = null;
    Object.assign(this, { notifications: null });
    this.set({ count: 0 });
  }

  async poll(): Promise<PollResult> {
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
    if (polled.count !== this.count) this.set({ count: polled.count });
  }

  /** Loads the latest updates, then marks those shown as read (not one raised meanwhile). */
  async load(): Promise<void> {
    const answer = await this.api.call('GET /api/me/notifications', { query: { limit: 20 } });
    if (!answer.ok) return;
    const notifications = answer.data.items;
    Object.assign(this, { notifications });
    this.announce('updates');
    const newest = notifications[0];
    if (newest && notifications.some((n) => !n.read)) {
      const marked = await this.api.call('POST /api/me/notifications/read-all', { body: { upTo: newest.id } });
      if (marked.ok) this.set({ count: marked.data.unreadCount });
    }
  }
}
