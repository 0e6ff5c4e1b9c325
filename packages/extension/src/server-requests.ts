// The widget's requests to the server, made by the extension's background instead of this page:
// from the page, Chromium sends them with the page's origin (refused by the server's CORS where
// no project allows it) and a strict page's Content-Security-Policy may forbid them. Only the
// content script's own `fetch` is replaced (its world is not the page's): the page keeps its own.
import { browser } from './browser.js';
import { fromBase64, type ServerAnswer, type ServerRequest, toBase64 } from './messages.js';

/** Sends the content script's requests under `apiBase` through the background; the rest as before. */
export function requestServerThroughExtension(apiBase: string): void {
  const own = globalThis.fetch.bind(globalThis);
  globalThis.fetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = input instanceof Request ? input.url : String(input);
    if (!url.startsWith(`${apiBase}/`)) return own(input, init);
    // Read from the call as the widget makes it (no Request built here: in Firefox a Request of
    // the page's, made from this script's objects, would not give its body back).
    const call: ServerRequest = {
      kind: 'request',
      url,
      method: init.method ?? 'GET',
      headers: headersOf(init.headers),
      body: await bodyBase64(init.body),
    };
    const answer = await browser.runtime.sendMessage<ServerAnswer | null>(call);
    if (!answer) throw new TypeError(`${url} could not be reached`);
    const empty = answer.status === 204 || answer.status === 304;
    return new Response(empty ? null : fromBase64(answer.body), { status: answer.status, headers: answer.headers });
  };
}

/** A request's headers as a plain object (the widget gives one; Firefox's Headers of the page's are not read from here). */
function headersOf(headers: HeadersInit | undefined): Record<string, string> {
  if (!headers) return {};
  if (Array.isArray(headers)) return Object.fromEntries(headers);
  if (headers instanceof Headers) {
    const read: Record<string, string> = {};
    headers.forEach((value, name) => {
      read[name] = value;
    });
    return read;
  }
  return { ...(headers as Record<string, string>) };
}

/** A request's body in base64 (null: none): the widget sends JSON (a string) or an image (a Blob). */
async function bodyBase64(body: BodyInit | null | undefined): Promise<string | null> {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return body ? toBase64(new TextEncoder().encode(body)) : null;
  return (await blobBase64(body instanceof Blob ? body : await new Response(body).blob())) || null;
}

/**
 * A Blob's bytes in base64, read as a data: address. Not through its ArrayBuffer: in Firefox
 * that buffer is the page's world's, and a typed array of this script's over it cannot be cut
 * (`subarray` throws "Permission denied to access property constructor"), which failed every
 * image's upload; a string crosses between the two worlds whole.
 */
function blobBase64(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).slice(String(reader.result).indexOf(',') + 1));
    reader.onerror = () => reject(reader.error);
    reader.readAsDataURL(blob);
  });
}
