// Which page a comment belongs to. One rule for the widget (which page am I on?) and the
// server (which comments belong to this page?), free of schema code so bundles stay small.
//
// A page is its origin and path, with:
// - a trailing slash ignored ("/app" and "/app/" are one page; "/" stays "/");
// - the fragment kept when it is a route of a single-page app ("#/active", "#!/settings"),
//   and dropped when it is an in-page link ("#pricing") or the router's root ("#/");
// - of the query, only the parameters the project names as identifying a page (its
//   `pageParams`, e.g. `tab`), in name order; the rest (tracking, state) is ignored.

/** A query parameter's name as a project may list it. */
export const PAGE_PARAM_PATTERN = '^[A-Za-z0-9_.\\-\\[\\]]{1,50}$';
export const PAGE_PARAMS_MAX = 10;

const withoutTrailingSlash = (path: string) => (path.length > 1 ? path.replace(/\/+$/, '') || '/' : path);

/** The page `url` is on, as comments store it; null when `url` is not an http(s) URL. */
export function pageOf(url: string, pageParams: readonly string[] = []): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  let page = parsed.origin + withoutTrailingSlash(parsed.pathname);
  const kept = [...new Set(pageParams)]
    .sort()
    .flatMap((name) => parsed.searchParams.getAll(name).map((value): [string, string] => [name, value]));
  if (kept.length) page += `?${new URLSearchParams(kept)}`;
  const route = /^#!?\//.exec(parsed.hash) ? parsed.hash.replace(/(.)\/+$/, '$1') : '';
  // A hash router's root ("#/", "#!/") is the page itself: the app at /app shows it as /app#/.
  return page + (/^#!?$/.test(route) ? '' : route);
}

/**
 * The stored page URLs that mean the page `page`: itself, and as comments written before the
 * rules stored it: with a trailing slash on its path; with its hash router's root ("#", "#!").
 */
export function samePageUrls(page: string): string[] {
  const split = /^([^?#]*)(.*)$/.exec(page);
  const [base, rest] = [split?.[1] ?? page, split?.[2] ?? ''];
  const path = base.replace(/^https?:\/\/[^/]*/, '');
  const pages = path.length > 1 ? [page, `${base}/${rest}`] : [page];
  return rest.includes('#') ? pages : pages.flatMap((url) => [url, `${url}#`, `${url}#!`]);
}
