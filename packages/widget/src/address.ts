// What the page's address brings the widget: a client's access link, a comment to open.

/**
 * The access link's token: after the `#` (`#svc_access=…`, which no server ever receives), or
 * in the query as links made before were; removed from the address bar once read, the rest of
 * the address kept.
 */
export function takeAccessToken(): string | null {
  const hash = new URLSearchParams(location.hash.slice(1));
  const token = hash.get('svc_access');
  if (token === null) return takeParam('svc_access');
  hash.delete('svc_access');
  const rest = hash.toString();
  history.replaceState(history.state, '', `${location.pathname}${location.search}${rest ? `#${rest}` : ''}`);
  return token;
}

/** A parameter of the page's address, removed from the address bar once read. */
export function takeParam(name: string): string | null {
  const url = new URL(location.href);
  const value = url.searchParams.get(name);
  if (value === null) return null;
  url.searchParams.delete(name);
  history.replaceState(history.state, '', url.href);
  return value;
}
