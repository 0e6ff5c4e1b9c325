// What a new comment carries besides its text: the browser's situation, and the page's recent
// errors, recorded from the moment the widget loads. Never bodies, headers or query strings.
import type { CaptureContext, PageError } from '@svc/contract';
import { MAX_PAGE_ERRORS } from '@svc/contract/rules';

const recent: PageError[] = [];

function record(error: Omit<PageError, 'at'>): void {
  recent.push({ ...error, message: error.message.slice(0, 500), at: new Date().toISOString() });
  if (recent.length > MAX_PAGE_ERRORS) recent.shift();
}

const describe = (value: unknown) =>
  value instanceof Error
    ? `${value.name}: ${value.message}`
    : typeof value === 'string'
      ? value
      : (JSON.stringify(value) ?? String(value));

/** A request's address without its query string or fragment (they may carry tokens). */
export const bare = (url: string) => {
  try {
    const parsed = new URL(url, location.href);
    return parsed.origin + parsed.pathname;
  } catch {
    return '';
  }
};

/** Starts recording: console errors, uncaught errors and rejections, failed requests. */
export function recordPageErrors(options: { console: boolean; network: boolean }, apiBase: string): void {
  if (options.console) {
    const original = console.error;
    console.error = (...args: unknown[]) => {
      record({ kind: 'console', message: args.map(describe).join(' ') });
      original.apply(console, args);
    };
    addEventListener('error', (event) => record({ kind: 'error', message: describe(event.error ?? event.message) }));
    addEventListener('unhandledrejection', (event) => record({ kind: 'rejection', message: describe(event.reason) }));
  }
  if (options.network) {
    watchRequests((request) => {
      const { status, error } = request;
      if (request.url.startsWith(apiBase) || (status !== null && status < 400)) return;
      const url = bare(request.url);
      record({
        kind: 'network',
        message: `${request.method} ${url} ${status ? `answered ${status}` : `failed${error ? `: ${describe(error)}` : ''}`}`,
        method: request.method,
        url,
        status,
        durationMs: request.durationMs,
      });
    });
  }
}

/** A request of the page, once answered: `status` null when no answer came (`error`: why, from fetch). */
export interface AnsweredRequest {
  method: string;
  url: string;
  status: number | null;
  durationMs: number;
  error?: unknown;
}

/** Calls `answered` for each request the page makes (fetch and XMLHttpRequest) once it is answered or failed. */
export function watchRequests(answered: (request: AnsweredRequest) => void): void {
  const since = (started: number) => Math.round(performance.now() - started);
  const originalFetch = window.fetch;
  window.fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const started = performance.now();
    try {
      const response = await originalFetch(input, init);
      answered({ method, url, status: response.status, durationMs: since(started) });
      return response;
    } catch (error) {
      answered({ method, url, status: null, durationMs: since(started), error });
      throw error;
    }
  };
  const open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (
    this: XMLHttpRequest,
    method: string,
    url: string | URL,
    ...rest: unknown[]
  ) {
    const started = performance.now();
    this.addEventListener('loadend', () =>
      answered({
        method: method.toUpperCase(),
        url: String(url),
        status: this.status || null,
        durationMs: since(started),
      }),
    );
    return (open as (...args: unknown[]) => void).call(this, method, url, ...rest);
  } as typeof XMLHttpRequest.prototype.open;
}

/** The page and browser as they are now, with the errors recorded so far. */
export function captureContext(): CaptureContext {
  const dark = matchMedia('(prefers-color-scheme: dark)').matches;
  return {
    viewport: { width: innerWidth, height: innerHeight },
    screen: { width: screen.width, height: screen.height },
    devicePixelRatio: Math.round(devicePixelRatio * 100) / 100,
    language: navigator.language.slice(0, 35),
    timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone.slice(0, 64),
    colorScheme: dark ? 'dark' : 'light',
    title: document.title.slice(0, 300),
    url: location.href.slice(0, 2000),
    buildSha: document.documentElement.getAttribute('data-build-sha')?.slice(0, 64) ?? null,
    errors: [...recent],
  };
}
