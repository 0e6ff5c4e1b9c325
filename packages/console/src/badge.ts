// The unread count in the nav, polled like the widget's badge: ETag and 304, paused while the
// tab is hidden, backing off on errors, stopped when the session ends.
import { signal } from '@preact/signals';
import { Poller } from '@svc/contract/poller';
import { api } from './api.js';

export const unread = signal(0);
const POLL_MS = 30_000;
let etag: string | null = null;

export const badgePoller = new Poller(POLL_MS, async () => {
  const answer = await api.call('GET /api/me/notifications/unread-count', {}, etag ? { 'if-none-match': etag } : {});
  if (answer.status === 304) return { outcome: 'ok' };
  if (answer.ok) {
    etag = answer.etag;
    unread.value = answer.data.count;
    return { outcome: 'ok' };
  }
  return { outcome: answer.status === 401 ? 'unauthorized' : 'error' };
});

/** A count the console learned otherwise (marking read): shown at once, the next poll revalidates. */
export function setUnread(count: number): void {
  unread.value = count;
  etag = null;
}
