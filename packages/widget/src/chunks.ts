// The widget's heavier parts are scripts of their own on the API server, loaded the first time
// they are needed: the signed-in panel, the anchoring (finding and picking elements) and the
// screenshot, the markup, a signed-in reviewer's steps recorder. Each sets one global when it
// runs, read once here.
import { LOCALES, type Messages, PSEUDO_LOCALE } from '@svc/contract/i18n';
import type { WindowBox } from '@svc/contract/image-encoding';
import type { Anchoring } from './anchoring/index.js';
import type { MarkUp } from './markup.js';
import type { panelActions } from './panel-actions.js';
import type { ReplayRecorder } from './replay.js';
import { SCREENSHOT_BUDGET_MS, ScreenshotTooSlow } from './screenshot-budget.js';
import type { StepsRecorder } from './steps.js';
import type { signInView } from './views/sign-in.js';
import type { signedInView } from './views/signed-in.js';
import type { welcomeView } from './views/welcome.js';

export interface CaptureOptions {
  /** The widget's own element, left out of the picture. */
  exclude: Element;
  /** The pinned element's box, outlined on the picture. */
  outline: DOMRect | null;
  /** Regions painted over before the picture leaves the browser, in the window's CSS pixels (see hidden-regions.ts). */
  cover: readonly WindowBox[];
  /** Aborted when the capture has taken too long: it stops where it is. */
  signal: AbortSignal;
}

type Capture = (options: CaptureOptions) => Promise<Blob>;

/** Where the chunks come from: the API server, with the page's nonce for their script tags. */
export interface ChunkSource {
  apiBase: string;
  nonce: string;
}

export interface Chunks {
  __svcPanel: {
    panelActions: typeof panelActions;
    signInView: typeof signInView;
    signedInView: typeof signedInView;
    welcomeView: typeof welcomeView;
    english: Messages;
    styles: string;
  };
  __svcAnchoring: Anchoring;
  __svcScreenshot: Capture;
  __svcMarkup: MarkUp;
  __svcSteps: StepsRecorder;
  __svcReplay: ReplayRecorder;
}

/** The chunks, by their global's name without `__svc`: `__svcPanel` is widget-panel.js. */
const CHUNK_NAMES = Object.keys({
  __svcPanel: 0,
  __svcAnchoring: 0,
  __svcScreenshot: 0,
  __svcMarkup: 0,
  __svcSteps: 0,
  __svcReplay: 0,
} satisfies Record<keyof Chunks, 0>) as (keyof Chunks)[];
export const chunkFile = (name: keyof Chunks) => `widget-${name.slice(5).toLowerCase()}.js`;

/** The languages with a chunk: every one but English (in the widget itself), and the pseudo-language of the tests. */
export const CHUNK_LOCALES = [...LOCALES.slice(1), PSEUDO_LOCALE];

/** A language's chunk: its catalogue, set in `window.__svcLocales` under its tag. */
const localeFile = (locale: string) => `widget-locale-${locale}.js`;

const loading = new Map<string, Promise<unknown>>();

/** The one Trusted Types policy the widget creates; hosts that list their policies add this name. */
export const TRUSTED_TYPES_POLICY = 'svc-widget';

type ScriptUrlPolicy = { createScriptURL(url: string): string };
let policy: ScriptUrlPolicy | null | undefined;

/**
 * A chunk's address as a page that enforces Trusted Types accepts it: through the widget's
 * policy, which lets through only its own chunks on its own server. Made the first time a
 * chunk loads; without the API (or allowed by the page) it stays a string.
 */
function scriptUrl(apiBase: string, file: string): string {
  if (policy === undefined) {
    const ours = new Set(
      [...CHUNK_NAMES.map(chunkFile), ...CHUNK_LOCALES.map(localeFile)].map((name) => `${apiBase}/${name}`),
    );
    const factory = (window as { trustedTypes?: { createPolicy(name: string, rules: object): ScriptUrlPolicy } })
      .trustedTypes;
    try {
      policy =
        factory?.createPolicy(TRUSTED_TYPES_POLICY, {
          createScriptURL: (url: string) => {
            if (ours.has(url)) return url;
            throw new TypeError(`${url} is not a script of the feedback widget`);
          },
        }) ?? null;
    } catch {
      policy = null;
    }
  }
  const url = `${apiBase}/${file}`;
  return policy ? policy.createScriptURL(url) : url;
}

/** The chunk's exports, loading its script once; a failed load may be tried again later. */
export function loadChunk<K extends keyof Chunks>(source: ChunkSource, name: K): Promise<Chunks[K]> {
  return loadScript(
    source,
    chunkFile(name),
    () => (window as unknown as Partial<Chunks>)[name] as Chunks[K] | undefined,
  );
}

/** A language's catalogue, from its chunk. */
export function loadLocale(source: ChunkSource, locale: string): Promise<Messages> {
  return loadScript(
    source,
    localeFile(locale),
    () => (window as { __svcLocales?: Record<string, Messages> }).__svcLocales?.[locale],
  );
}

/** Runs a chunk's file where no script tag may load it; resolves once it has run. */
type ChunkInjector = (file: string) => Promise<unknown>;
let injector: ChunkInjector | null = null;

/**
 * The browser extension's way to run a chunk: its own copy of the file, in the world of its
 * content script (a script tag would load the server's into the page's world).
 */
export function injectChunksWith(inject: ChunkInjector): void {
  injector = inject;
}

function loadScript<T>({ apiBase, nonce }: ChunkSource, file: string, exported: () => T | undefined): Promise<T> {
  let promise = loading.get(file) as Promise<T> | undefined;
  if (!promise) {
    promise = new Promise<T>((resolve, reject) => {
      const failed = () => {
        loading.delete(file);
        reject(new Error(`${file} did not load`));
      };
      const ran = () => {
        const value = exported();
        if (value) resolve(value);
        else failed();
      };
      if (injector) return void injector(file).then(ran, failed);
      const script = document.createElement('script');
      script.src = scriptUrl(apiBase, file);
      script.async = true;
      if (nonce) script.nonce = nonce;
      script.onload = ran;
      script.onerror = failed;
      document.head.append(script);
    });
    loading.set(file, promise);
  }
  return promise;
}

/**
 * A screenshot of the viewport (the widget left out, the pinned element outlined), by the
 * screenshot chunk; `ScreenshotTooSlow` past the budget, loading the chunk included.
 */
export async function takeScreenshot(
  source: ChunkSource,
  options: Omit<CaptureOptions, 'signal'>,
  budgetMs = SCREENSHOT_BUDGET_MS,
): Promise<Blob> {
  const controller = new AbortController();
  const late = new Promise<never>((_, reject) => {
    const timer = setTimeout(() => {
      controller.abort();
      reject(new ScreenshotTooSlow());
    }, budgetMs);
    controller.signal.addEventListener('abort', () => clearTimeout(timer));
  });
  try {
    const capture = await Promise.race([loadChunk(source, '__svcScreenshot'), late]);
    return await Promise.race([capture({ ...options, signal: controller.signal }), late]);
  } finally {
    controller.abort();
  }
}
