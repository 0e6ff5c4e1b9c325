// The extension's background: it keeps the server's address and the person's session (in the
// extension's own storage, which no page can read), makes every request to the server for the
// tabs (from the extension's origin, which its host permission for the server lets through, so
// neither the page's CORS nor its Content-Security-Policy is in the way), shows the launcher by
// itself on the origins the person allowed, and on the toolbar button's tab, where it runs the
// widget's chunks as the widget needs them.

import type { Me, Project } from '@svc/contract';
import { pollBadge, refreshBadge } from './badge.js';
import { browser, type MessageSender, type Tab } from './browser.js';
import {
  fromBase64,
  originPattern,
  type ServerAnswer,
  type ServerRequest,
  type TabSession,
  type ToBackground,
  toBase64,
  type UnlistedSite,
} from './messages.js';
import { projectOrigins, readSettings } from './settings.js';

/** The content script registered on the origins the person allowed. */
const ENABLED_ORIGINS_SCRIPT = 'svc-enabled-origins';

/** The registrations, one after the other (a second one started meanwhile would find the id taken). */
let registering: Promise<void> = Promise.resolve();
const registerOnAllowedOrigins = (): Promise<void> => {
  registering = registering.then(register, register);
  return registering;
};

/** Registers the content script again on every origin granted, but the server's own. */
async function register(): Promise<void> {
  const { server } = await readSettings();
  const granted = (await browser.permissions.getAll()).origins ?? [];
  const serverPattern = server ? originPattern(server) : null;
  const matches = granted.filter((pattern) => pattern !== serverPattern && !pattern.includes('*://*'));
  await browser.scripting.unregisterContentScripts({ ids: [ENABLED_ORIGINS_SCRIPT] }).catch(() => {});
  if (matches.length === 0) return;
  await browser.scripting.registerContentScripts([
    { id: ENABLED_ORIGINS_SCRIPT, matches, js: ['content.js'], runAt: 'document_idle', persistAcrossSessions: false },
  ]);
}

/** The server's answer to a tab's request, made here with the extension's host permission. */
async function request(call: ServerRequest): Promise<ServerAnswer> {
  const response = await fetch(call.url, {
    method: call.method,
    headers: call.headers,
    body: call.body === null ? undefined : fromBase64(call.body),
  });
  const headers: Record<string, string> = {};
  for (const name of ['content-type', 'etag', 'retry-after', 'x-poll-interval']) {
    const value = response.headers.get(name);
    if (value !== null) headers[name] = value;
  }
  return { status: response.status, headers, body: toBase64(new Uint8Array(await response.arrayBuffer())) };
}

/** What the tab's widget needs: the server, the token, and which project this origin belongs to (or was filed under). */
async function tabSession(tab: Tab | undefined): Promise<TabSession | null> {
  const { server, token, projects, filedUnder } = await readSettings();
  if (!server || !tab?.url) return null;
  const origin = new URL(tab.url).origin;
  return { apiBase: server, token, projectKey: projects[origin] ?? filedUnder[origin] ?? null };
}

/** A call to the person's server with their token; null when signed out or it failed. */
async function callServer<T>(path: string, init: RequestInit = {}): Promise<T | null> {
  const { server, token } = await readSettings();
  if (!server || !token) return null;
  const response = await fetch(`${server}${path}`, {
    ...init,
    headers: { authorization: `Bearer ${token}`, ...(init.body ? { 'content-type': 'application/json' } : {}) },
  }).catch(() => null);
  return response?.ok ? ((await response.json()) as T) : null;
}

/** The site of the sender's tab (never one a message names: the tab's own address). */
const siteOf = (tab: Tab | undefined) => (tab?.url ? new URL(tab.url).origin : null);

/** The projects the person may comment under, for the toolbar's tab on a site none lists. */
async function unlistedSite(tab: Tab | undefined): Promise<UnlistedSite | null> {
  const origin = siteOf(tab);
  const me = await callServer<Me>('/api/me');
  if (!origin || !me) return null;
  const projects = me.can.comment ? await projectOrigins() : [];
  return {
    origin,
    projects: projects.map(({ key, name }) => ({ key, name })),
    canAddOrigin: me.can.manageProjects,
  };
}

/** Adds the tab's site to the project's allowed origins (the server refuses whoever may not). */
async function addOrigin(tab: Tab | undefined, key: string): Promise<boolean> {
  const origin = siteOf(tab);
  const project = origin && (await callServer<Project>(`/api/projects/${encodeURIComponent(key)}`));
  if (!origin || !project) return false;
  const changed = await callServer<Project>(`/api/projects/${encodeURIComponent(key)}`, {
    method: 'PATCH',
    body: JSON.stringify({ allowedOrigins: [...new Set([...project.allowedOrigins, origin])] }),
  });
  if (changed) await projectOrigins();
  return Boolean(changed);
}

/**
 * The tab as the browser painted it (PNG, as a data: address), when it is the one shown in its
 * window (the browser captures the window's visible tab, whichever asked); null otherwise, or
 * without the permission (the toolbar button's, or the person's for the site).
 */
async function captureTab(tab: Tab | undefined): Promise<string | null> {
  if (!tab?.active || tab.windowId === undefined) return null;
  return browser.tabs.captureVisibleTab(tab.windowId, { format: 'png' }).catch(() => null);
}

/** The widget's chunks and languages (`widget-panel.js`, `widget-locale-de.js`): the only files a tab may have run. */
const CHUNK_FILE = /^widget-[\w-]+\.js$/;

/**
 * Runs one of the widget's chunks, the extension's own file, in the content script's world of
 * the frame that asked (an extension's script: neither the page's policy nor its Trusted Types
 * apply). The tab's host permission allows it: the site's, or the toolbar button's.
 */
async function injectChunk(file: string, sender: MessageSender): Promise<boolean> {
  const tabId = sender.tab?.id;
  if (tabId === undefined || !CHUNK_FILE.test(file)) return false;
  await browser.scripting.executeScript({ target: { tabId, frameIds: [sender.frameId ?? 0] }, files: [file] });
  return true;
}

async function answer(message: ToBackground, sender: MessageSender): Promise<unknown> {
  switch (message.kind) {
    case 'session':
      void refreshBadge();
      return tabSession(sender.tab);
    case 'keep-token': {
      await browser.storage.local.set({ token: message.token });
      if (message.token) await projectOrigins();
      return null;
    }
    case 'request': {
      // Only to the person's server: a tab cannot make the extension call anywhere else.
      const { server } = await readSettings();
      if (!server || !message.url.startsWith(`${server}/`)) return null;
      return request(message);
    }
    case 'unlisted':
      return unlistedSite(sender.tab);
    case 'file-under': {
      const origin = siteOf(sender.tab);
      if (!origin) return null;
      const { filedUnder } = await readSettings();
      await browser.storage.local.set({ filedUnder: { ...filedUnder, [origin]: message.project } });
      return null;
    }
    case 'add-origin':
      return addOrigin(sender.tab, message.project);
    case 'sites-allowed':
      return registerOnAllowedOrigins();
    case 'capture':
      return captureTab(sender.tab);
    case 'inject':
      return injectChunk(message.file, sender);
    default:
      return null;
  }
}

browser.runtime.onMessage.addListener((message, sender, respond) => {
  // The extension's own scripts only (a content script or an extension page).
  if (sender.id !== browser.runtime.id) return undefined;
  answer(message as ToBackground, sender).then(respond, () => respond(null));
  return true;
});

browser.action.onClicked.addListener((tab) => {
  void (async () => {
    const { server, token } = await readSettings();
    if (!server || !token || tab.id === undefined) return browser.runtime.openOptionsPage();
    await browser.scripting.executeScript({ target: { tabId: tab.id }, files: ['content.js'] });
    await browser.tabs.sendMessage(tab.id, { kind: 'open' });
  })();
});

browser.permissions.onAdded.addListener(() => void registerOnAllowedOrigins());
browser.permissions.onRemoved.addListener(() => void registerOnAllowedOrigins());
// The server's own origin is left out once its address is known: registered before (at install,
// its host permission already granted), the content script would run on every page of the server.
browser.storage.onChanged.addListener((changes, area) => {
  if (area === 'local' && 'server' in changes) void registerOnAllowedOrigins();
});
browser.runtime.onInstalled.addListener(() => {
  void readSettings().then(({ server }) => {
    if (!server) void browser.runtime.openOptionsPage();
  });
});
void registerOnAllowedOrigins();
pollBadge();
