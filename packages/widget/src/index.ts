import { recordPageErrors } from './capture.js';
import { configFrom, type EmbedOptions } from './config.js';
import { Widget } from './widget.js';

declare global {
  interface Window {
    __SVC_CONFIG__?: EmbedOptions;
    svcWidget?: { open: () => void; destroy: () => void };
  }
}

const script = document.currentScript as HTMLScriptElement | null;

const config = configFrom(window.__SVC_CONFIG__ ?? {}, script);
// Errors are recorded from the moment the script runs, before the page has finished loading.
if (config && !window.svcWidget) {
  recordPageErrors({ console: config.captureConsole, network: config.captureNetwork }, config.apiBase);
}

function boot(): void {
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
