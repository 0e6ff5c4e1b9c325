// What the extension's parts say to each other. Only the extension's own scripts can send these
// (no `externally_connectable`, and the background checks the sender): a page can post messages
// to its window, never to the extension.

/** A request to the server, as the content script hands it to the background. */
export interface ServerRequest {
  kind: 'request';
  url: string;
  method: string;
  headers: Record<string, string>;
  /** The body in base64 (an image, JSON as bytes), with its type; null: none. */
  body: string | null;
}

/** The server's answer, as the background hands it back. */
export interface ServerAnswer {
  status: number;
  headers: Record<string, string>;
  /** The body in base64. */
  body: string;
}

/** What a tab's widget needs: the server, the person's token, and the project of this page's origin. */
export interface TabSession {
  apiBase: string;
  token: string | null;
  projectKey: string | null;
}

/** On a site no project lists: the projects the person may comment under, and whether they may add the site to one. */
export interface UnlistedSite {
  origin: string;
  projects: { key: string; name: string }[];
  canAddOrigin: boolean;
}

export type ToBackground =
  | { kind: 'session' }
  /** The toolbar's tab is on a site no project lists (answered with an UnlistedSite, null when signed out). */
  | { kind: 'unlisted' }
  /** Comment under this project on the sender tab's site, from now on. */
  | { kind: 'file-under'; project: string }
  /** Add the sender tab's site to this project's allowed origins (an admin); answered true once done. */
  | { kind: 'add-origin'; project: string }
  | { kind: 'keep-token'; token: string | null }
  | ServerRequest
  | { kind: 'capture' }
  /** Run one of the widget's chunks (a file of the extension) in the sender's frame, beside its content script; answered true once it ran. */
  | { kind: 'inject'; file: string }
  /** The settings page: the person allowed sites (the launcher is registered there before it says so). */
  | { kind: 'sites-allowed' };

export type ToTab = { kind: 'open' };

/** The server's address as the person typed it, made an API base (no trailing slash); null when it is no http(s) address. */
export function serverBase(text: string): string | null {
  try {
    const url = new URL(text.trim());
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    return `${url.origin}${url.pathname}`.replace(/\/+$/, '');
  } catch {
    return null;
  }
}

/**
 * The match pattern of an origin (`https://app.example.com/*`), for host permissions and content
 * scripts. Without its port: Firefox's patterns have none (and match every port of the host).
 */
export function originPattern(origin: string): string {
  const { protocol, hostname } = new URL(origin);
  return `${protocol}//${hostname}/*`;
}

/** Bytes as base64 and back: runtime messages carry JSON, not binary. */
export function toBase64(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text);
}

export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const raw = atob(text);
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}
