export interface Answer<T> {
  status: number;
  data: T;
  etag: string | null;
}

/** The server's API as the widget uses it: bearer token, JSON, never throws on an HTTP status. */
export class Api {
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

  async call<T = any>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<Answer<T>> {
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
    return { status: response.status, data: text ? JSON.parse(text) : undefined, etag: response.headers.get('etag') };
  }
}

function read(key: string): string | null {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}
