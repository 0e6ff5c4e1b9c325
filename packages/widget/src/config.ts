import type { WidgetConfig } from './widget.js';

const DEFAULT_POLL_MS = 60_000;
/** The badge is never polled more often than this, whatever the embed asks. */
export const MIN_POLL_MS = 1_000;

/**
 * The embed's configuration: `window.__SVC_CONFIG__` first, then the script tag's `data-`
 * attributes; the API defaults to the script's origin. Null when it names no project.
 */
export function configFrom(
  global: Partial<WidgetConfig>,
  data: Record<string, string | undefined>,
  scriptSrc: string | undefined,
): WidgetConfig | null {
  const scriptOrigin = scriptSrc ? new URL(scriptSrc).origin : '';
  const apiBase = String(global.apiBase ?? data.apiBase ?? scriptOrigin).replace(/\/+$/, '');
  const projectKey = global.projectKey ?? data.projectKey;
  if (!apiBase || !projectKey) return null;
  const poll = Number(global.notifyPollMs ?? data.notifyPollMs ?? DEFAULT_POLL_MS);
  /** On unless the embed says false (`captureConsole: false`, `data-capture-console="false"`). */
  const flag = (name: 'captureConsole' | 'captureNetwork' | 'screenshot') => {
    const value = global[name] ?? data[name];
    return value !== false && value !== 'false';
  };
  return {
    apiBase,
    projectKey: String(projectKey),
    notifyPollMs: Number.isFinite(poll) ? Math.max(MIN_POLL_MS, poll) : DEFAULT_POLL_MS,
    captureConsole: flag('captureConsole'),
    captureNetwork: flag('captureNetwork'),
    screenshot: flag('screenshot'),
  };
}
