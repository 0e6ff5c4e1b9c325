// The content script: the widget's first load (its chunks and languages run here when the
// widget first needs them, each the widget's own build carried in the extension, none loaded
// from anywhere), on the page of an origin the person allowed, or of the tab whose toolbar
// button they pressed. Its world is not the page's: the page sees the widget's elements, never
// this script's variables (the token among them).
import { keepTokensIn } from '../../widget/src/api.js';
import { type Chunks, chunkFile, injectChunksWith } from '../../widget/src/chunks.js';
import { DEFAULT_PICK_SHORTCUT, shortcutFrom, type WidgetConfig } from '../../widget/src/config.js';
import { Widget } from '../../widget/src/widget.js';
import { browser } from './browser.js';
import { browserCapture } from './browser-capture.js';
import type { TabSession, ToTab, UnlistedSite } from './messages.js';
import { requestServerThroughExtension } from './server-requests.js';
import { pickProject } from './site-picker.js';

/**
 * Runs one of the widget's chunks in this script's world, where its global is read: the
 * background injects the extension's copy of the file into this frame (a script tag would run
 * the server's in the page's world, which a strict policy refuses anyway).
 */
async function injectChunk(file: string): Promise<void> {
  if (!(await browser.runtime.sendMessage<boolean | null>({ kind: 'inject', file }))) {
    throw new Error(`${file} was not injected`);
  }
  // Screenshots by the browser, the widget's own capture where the browser will not take one.
  const chunks = window as unknown as Chunks;
  if (file === chunkFile('__svcScreenshot')) chunks.__svcScreenshot = browserCapture(chunks.__svcScreenshot);
}

const state = globalThis as { __svcExtension?: Promise<Widget | null> };

/** The widget the page carries itself, when it does: then it is the one launcher. */
const pagesOwnLauncher = (): HTMLElement | null => {
  const host = [...document.querySelectorAll<HTMLElement>('[data-svc-widget]')].find(
    (element) => !element.hasAttribute('data-svc-extension'),
  );
  return (host?.shadowRoot?.querySelector('.launcher') as HTMLElement | null) ?? null;
};

async function start(): Promise<Widget | null> {
  if (pagesOwnLauncher()) return null;
  const session = await browser.runtime.sendMessage<TabSession | null>({ kind: 'session' });
  if (!session?.projectKey) return null;
  injectChunksWith(injectChunk);
  requestServerThroughExtension(session.apiBase);
  let token = session.token;
  keepTokensIn({
    getItem: () => token,
    setItem: (_key, value) => {
      token = value;
      void browser.runtime.sendMessage({ kind: 'keep-token', token: value });
    },
    removeItem: () => {
      token = null;
      void browser.runtime.sendMessage({ kind: 'keep-token', token: null });
    },
  });
  const config: WidgetConfig = {
    apiBase: session.apiBase,
    projectKey: session.projectKey,
    workspace: null,
    notifyPollMs: 60_000,
    // The page's errors and requests happen in its own world, out of this script's sight.
    captureConsole: false,
    captureNetwork: false,
    screenshot: true,
    pickShortcut: shortcutFrom(DEFAULT_PICK_SHORTCUT),
    nonce: '',
    locale: null,
  };
  const widget = new Widget(config);
  await widget.mount();
  document.querySelector('[data-svc-widget]:not([data-svc-extension])')?.setAttribute('data-svc-extension', '');
  return widget;
}

/** Where no project lists this site: the person picks one to comment under (or adds the site to one), then the widget opens. */
async function openOnUnlistedSite(): Promise<void> {
  if (document.querySelector('[data-svc-extension-picker]')) return;
  const site = await browser.runtime.sendMessage<UnlistedSite | null>({ kind: 'unlisted' });
  if (!site || !(await pickProject(site))) return;
  state.__svcExtension = start().catch(() => null);
  (await state.__svcExtension)?.open();
}

/** The toolbar button: the widget opened, the page's own launcher pressed, or a project picked first. */
async function openFromToolbar(): Promise<void> {
  const widget = await state.__svcExtension;
  if (widget) return void widget.open();
  const own = pagesOwnLauncher();
  if (own) return own.click();
  await openOnUnlistedSite();
}

if (!state.__svcExtension) {
  state.__svcExtension = start().catch(() => null);
  browser.runtime.onMessage.addListener((message, sender) => {
    if (sender.id !== browser.runtime.id || (message as ToTab).kind !== 'open') return undefined;
    void openFromToolbar();
    return undefined;
  });
}
