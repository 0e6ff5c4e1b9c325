import { type Answer, type ApiClient, type CallOf, type Endpoint, endpointRequest } from '@svc/contract/endpoints';

/** The server's API as the widget uses it: bearer token, JSON, never throws on an HTTP status. */
export class Api implements ApiClient {
  token: string | null;
  /** Called when the server no longer accepts the token. */
  onUnauthorized = () => {};

  constructor(
    readonly base: string,
    private readonly storageKey: string,
  ) {
    this.token = read(storageKey);
  }

  setToken(token: string | null): void {
    this.token = token;
    try {
      if (token) localStorage.setItem(this.storageKey, token);
      else localStorage.removeItem(this.storageKey);
    } catch {
      // Storage can be blocked (private mode, policies); the session then lasts this page.
    }
  }

  async call<E extends Endpoint>(
    endpoint: E,
    call: CallOf<E>,
    headers: Record<string, string> = {},
  ): Promise<Answer<E>> {
    const { method, path } = endpointRequest(endpoint, call);
    const body = (call as { body?: unknown }).body;
    const response = await fetch(this.base + path, {
      method,
      headers: {
        ...headers,
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = response.status === 304 ? '' : await response.text();
    if (response.status === 401 && this.token) this.onUnauthorized();
    return {
      ok: response.ok,
      status: response.status,
      data: text ? JSON.parse(text) : undefined,
      etag: response.headers.get('etag'),
    } as Answer<E>;
  }
}

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
