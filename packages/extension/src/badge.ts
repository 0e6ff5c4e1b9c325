// The toolbar badge: the person's unread updates, polled by the background alone (one poller
// for the whole browser, whatever the tabs), at the server's pace (`X-Poll-Interval`), never more
// often than the browser's alarms allow (30 s); also read when a tab's widget starts.
import { browser } from './browser.js';
import { readSettings } from './settings.js';

const ALARM = 'svc-unread';
/** The browser wakes an extension's alarm at most this often. */
const MIN_PERIOD_MINUTES = 0.5;
const DEFAULT_PERIOD_MINUTES = 1;

/** The count as the badge shows it: none at 0, "99+" past 99. */
export const badgeText = (count: number): string => (count <= 0 ? '' : count > 99 ? '99+' : String(count));

/** Reads the unread count and shows it; the next read at the pace the server asked for. */
export async function refreshBadge(): Promise<void> {
  const { server, token } = await readSettings();
  if (!server || !token) {
    await browser.action.setBadgeText({ text: '' });
    return;
  }
  const response = await fetch(`${server}/api/me/notifications/unread-count`, {
    headers: { authorization: `Bearer ${token}` },
  }).catch(() => null);
  if (!response?.ok) return;
  const { count } = (await response.json()) as { count: number };
  await browser.action.setBadgeBackgroundColor({ color: '#f59e0b' });
  await browser.action.setBadgeText({ text: badgeText(count) });
  const seconds = Number(response.headers.get('x-poll-interval'));
  const period = Number.isFinite(seconds) && seconds > 0 ? seconds / 60 : DEFAULT_PERIOD_MINUTES;
  await browser.alarms.create(ALARM, { periodInMinutes: Math.max(MIN_PERIOD_MINUTES, period) });
}

export function pollBadge(): void {
  browser.alarms.onAlarm.addListener((alarm) => {
    if (alarm.name === ALARM) void refreshBadge();
  });
  // Signed in or out (the settings page, a tab's panel): the badge says so at once.
  browser.storage.onChanged.addListener((changes, area) => {
    if (area === 'local' && 'token' in changes) void refreshBadge();
  });
  void refreshBadge();
}
