import { FetchApiClient, type TokenStorage } from '@svc/contract/fetch-client';

/** Where tokens are kept instead of the page's localStorage: the browser extension's own storage. */
let extensionStorage: TokenStorage | null = null;

/** Keeps the widget's token in `storage` rather than in the page's localStorage (the browser extension). */
export function keepTokensIn(storage: TokenStorage): void {
  extensionStorage = storage;
}

/** The widget's API client: its token in this page's localStorage (or the extension's storage), one per API server. */
export function widgetApi(base: string): FetchApiClient {
  if (extensionStorage) return new FetchApiClient(base, `svc:token:${base}`, extensionStorage);
  let storage: Storage | undefined;
  try {
    storage = localStorage;
  } catch {
    // Storage blocked by the page's policies: the session lasts the page.
  }
  return new FetchApiClient(base, `svc:token:${base}`, storage);
}
