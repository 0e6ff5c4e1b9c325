// The unread count in the nav, polled like the widget's badge: ETag and 304, paused while the
// tab is hidden, backing off on errors, stopped when the session ends.
import { signal } from '@preact/signals';
import { Poller } from '@svc/contract/poller';
import { api } from './api.js';

export const unread = signal(0);
const POLL_MS = 30_000;
let etag: string | null = null;

/** Who is signed in, for the tabs of the browser to share one poller per person. */
let userId = '';
export function setBadgeUser(id: string): void {
  userId = id;
}

// One tab polls for all the console's tabs (and the widget's on this server's own pages).
export const badgePoller = new Poller(
  POLL_MS,
  async () => {
    const answer = await api.call('GET /api/me/notifications/unread-count', {}, etag ? { 'if-none-match': etag } : {});
    if (answer.status === 304) {
      return { outcome: 'ok', intervalMs: answer.pollIntervalMs, shared: { count: unread.value, etag } };
    }
    if (answer.ok) {
      etag = answer.etag;
      unread.value = answer.data.count;
      return { outcome: 'ok', intervalMs: answer.pollIntervalMs, shared: { count: unread.value, etag } };
    }
    return { outcome: answer.status === 401 ? 'unauthorized' : 'error' };
  },
  {
    key: () => `${location.origin}|${userId}`,
    receive: (shared) => {
      const polled = shared as { count: number; etag: string | null };
      etag = polled.etag;
      unread.value = polled.count;
    },
  },
);

/** A count the console learned otherwise (marking read): shown at once, the next poll revalidates. */
export function setUnread(count: number): void {
  unread.value = count;
  etag = null;
}
