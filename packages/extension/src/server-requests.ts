// The widget's requests to the server, made by the extension's background instead of this page:
// from the page, Chromium sends them with the page's origin (refused by the server's CORS where
// no project allows it) and a strict page's Content-Security-Policy may forbid them. Only the
// content script's own `fetch` is replaced (its world is not the page's): the page keeps its own.
import { browser } from './browser.js';
import { fromBase64, type ServerAnswer, type ServerRequest, toBase64 } from './messages.js';

/** Sends the content script's requests under `apiBase` through the background; the rest as before. */
export function requestServerThroughExtension(apiBase: string): void {
  const own = globalThis.fetch.bind(globalThis);
  globalThis.fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    if (!request.url.startsWith(`${apiBase}/`)) return own(input, init);
    const headers: Record<string, string> = {};
    request.headers.forEach((value, name) => {
      headers[name] = value;
    });
    const body =
      request.method === 'GET' || request.method === 'HEAD' ? null : new Uint8Array(await request.arrayBuffer());
    const call: ServerRequest = {
      kind: 'request',
      url: request.url,
      method: request.method,
      headers,
      body: body?.length ? toBase64(body) : null,
    };
    const answer = await browser.runtime.sendMessage<ServerAnswer | null>(call);
    if (!answer) throw new TypeError(`${request.url} could not be reached`);
    const empty = answer.status === 204 || answer.status === 304;
    return new Response(empty ? null : fromBase64(answer.body), { status: answer.status, headers: answer.headers });
  };
}
