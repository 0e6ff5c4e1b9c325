// The API client of the browser apps (widget and console): a bearer token kept in the given
// storage, JSON in and out, an answer for every HTTP status (never a throw for one).
import { type Answer, type ApiClient, type CallOf, type Endpoint, endpointRequest } from './endpoints.js';

/** Where the token is kept: `localStorage` in a browser. Any of its calls may throw (blocked storage). */
export interface TokenStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** `X-Poll-Interval` (seconds) in milliseconds; null when absent or not a positive number. */
function pollInterval(header: string | null): number | null {
  const seconds = Number(header);
  return header && Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : null;
}

export class FetchApiClient implements ApiClient {
  token: string | null = null;
  /** Called when the server refuses the token the call carried. */
  onUnauthorized = () => {};

  constructor(
    readonly base: string,
    private readonly storageKey: string,
    private readonly storage: TokenStorage | undefined,
  ) {
    try {
      this.token = storage?.getItem(storageKey) ?? null;
    } catch {
      // Storage can be blocked (private mode, policies): no remembered session.
    }
  }

  setToken(token: string | null): void {
    this.token = token;
    try {
      if (token) this.storage?.setItem(this.storageKey, token);
      else this.storage?.removeItem(this.storageKey);
    } catch {
      // Blocked storage: the session then lasts this page.
    }
  }

  /** A private file of the API (a screenshot) as a Blob, with the token; null when refused or unreachable. */
  async blob(path: string): Promise<Blob | null> {
    try {
      const response = await fetch(this.base + path, {
        headers: this.token ? { authorization: `Bearer ${this.token}` } : {},
      });
      return response.ok ? await response.blob() : null;
    } catch {
      return null;
    }
  }

  async call<E extends Endpoint>(
    endpoint: E,
    call: CallOf<E>,
    headers: Record<string, string> = {},
  ): Promise<Answer<E>> {
    const { method, path } = endpointRequest(endpoint, call);
    const body = (call as { body?: unknown }).body;
    // A Blob (an image) goes as it is, with its own type; anything else as JSON.
    const raw = body instanceof Blob;
    const response = await fetch(this.base + path, {
      method,
      headers: {
        ...headers,
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': raw ? body.type : 'application/json' }),
      },
      body: body === undefined ? undefined : raw ? body : JSON.stringify(body),
    });
    const text = response.status === 304 ? '' : await response.text();
    if (response.status === 401 && this.token) this.onUnauthorized();
    return {
      ok: response.ok,
      status: response.status,
      data: text ? JSON.parse(text) : undefined,
      etag: response.headers.get('etag'),
      pollIntervalMs: pollInterval(response.headers.get('x-poll-interval')),
    } as Answer<E>;
  }
}
