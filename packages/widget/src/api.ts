import { FetchApiClient } from '@svc/contract/fetch-client';

/** The widget's API client: its token in this page's localStorage, one per API server. */
export function widgetApi(base: string): FetchApiClient {
  let storage: Storage | undefined;
  try {
    storage = localStorage;
  } catch {
    // Storage blocked by the page's policies: the session lasts the page.
  }
  return new FetchApiClient(base, `svc:token:${base}`, storage);
}
