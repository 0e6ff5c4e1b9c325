const HTML_TAG = /<html\b[^>]*>/i;
const BUILD_SHA_ATTRIBUTE = /\sdata-build-sha\s*=\s*("[^"]*"|'[^']*'|[^\s>]*)/i;

/**
 * `html` with `data-build-sha="<sha>"` on its `<html>` element (replacing an older value),
 * or null when the document has no `<html>` tag.
 */
export function stampHtml(html: string, sha: string): string | null {
  const match = HTML_TAG.exec(html);
  if (!match) return null;
  const tag = match[0];
  const attribute = ` data-build-sha="${sha}"`;
  const stamped = BUILD_SHA_ATTRIBUTE.test(tag)
    ? tag.replace(BUILD_SHA_ATTRIBUTE, attribute)
    : `${tag.slice(0, 5)}${attribute}${tag.slice(5)}`;
  return html.slice(0, match.index) + stamped + html.slice(match.index + tag.length);
}
