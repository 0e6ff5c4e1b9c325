import { Widget, type WidgetConfig } from './widget.js';

declare global {
  interface Window {
    __SVC_CONFIG__?: Partial<WidgetConfig>;
    svcWidget?: { open: () => void; destroy: () => void };
  }
}

const DEFAULT_POLL_MS = 60_000;
const MIN_POLL_MS = 1_000;

/** `window.__SVC_CONFIG__`, else `data-` attributes on the script tag; the API defaults to the script's origin. */
function readConfig(script: HTMLScriptElement | null): WidgetConfig | null {
  const global = window.__SVC_CONFIG__ ?? {};
  const data = script?.dataset ?? {};
  const scriptOrigin = script?.src ? new URL(script.src).origin : '';
  const apiBase = String(global.apiBase ?? data.apiBase ?? scriptOrigin).replace(/\/+$/, '');
  const projectKey = global.projectKey ?? data.projectKey;
  if (!apiBase || !projectKey) return null;
  const poll = Number(global.notifyPollMs ?? data.notifyPollMs ?? DEFAULT_POLL_MS);
  return {
    apiBase,
    projectKey: String(projectKey),
    notifyPollMs: Number.isFinite(poll) ? Math.max(MIN_POLL_MS, poll) : DEFAULT_POLL_MS,
  };
}

const script = document.currentScript as HTMLScriptElement | null;

function boot(): void {
  const config = readConfig(script);
  // Misconfigured or already on the page: stay silent rather than break the host page.
  if (!config || window.svcWidget) return;
  const widget = new Widget(config);
  window.svcWidget = {
    open: () => widget.open(),
    destroy: () => {
      widget.destroy();
      window.svcWidget = undefined;
    },
  };
  void widget.mount().catch(() => {});
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', boot, { once: true });
else boot();
