import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import {
  addMember,
  call,
  createProject,
  createTestApp,
  type Member,
  signUp,
  type TestApp,
} from '../../server/test/helpers.js';

/** Debian's Chromium (`apt-get install chromium`); Playwright's own download does not work offline. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

const screenshotDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../test-results');

export function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `No Chromium at ${CHROMIUM_PATH}: the browser tests need Debian's chromium package (apt-get install -y chromium) or CHROMIUM_PATH.`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    // Root in CI needs --no-sandbox; the network is closed, so no background lookups.
    args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
  });
}

/**
 * The real API server (`buildApp` on the test database) on 127.0.0.1, and a page server on
 * `localhost`: another origin, so every widget call is a real cross-origin request.
 */
export interface Stack {
  api: TestApp;
  apiBase: string;
  pageOrigin: string;
  admin: Member;
  author: Member;
  projectKey: string;
  /** The URL of a page embedding the widget; `buildSha` stamps `<html data-build-sha>`. */
  pageUrl: (options?: { path?: string; buildSha?: string; query?: string; projectKey?: string }) => string;
  close: () => Promise<void>;
}

export async function startStack(): Promise<Stack> {
  // The tests write a hundred replies at once to raise a badge past 99: no per-user write limit.
  // The cadences are what these tests look at: the server does not slow the widgets down when the machine is busy.
  const api = await createTestApp({
    limits: { repliesPerMinute: 100_000, commentsPerMinute: 100_000 },
    pollAdaptive: false,
  });
  const apiBase = (await api.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  const pages = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://localhost');
    if (url.pathname === '/favicon.ico' || url.pathname === '/missing') return response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(fixturePage(apiBase, url.searchParams));
  });
  await new Promise<void>((resolve) => pages.listen(0, 'localhost', resolve));
  const pageOrigin = `http://localhost:${(pages.address() as AddressInfo).port}`;
  const admin = await signUp(api.app);
  const author = await addMember(api.app, admin, 'member', 'Rita Reviewer');
  const project = await createProject(api.app, admin, { allowedOrigins: [pageOrigin] });
  return {
    api,
    apiBase,
    pageOrigin,
    admin,
    author,
    projectKey: project.key,
    pageUrl: (options = {}) => {
      const params = new URLSearchParams(options.query ?? '');
      params.set('project', options.projectKey ?? project.key);
      if (options.buildSha) params.set('build', options.buildSha);
      return `${pageOrigin}${options.path ?? '/pricing'}?${params}`;
    },
    close: async () => {
      await new Promise((resolve) => pages.close(resolve));
      await api.close();
    },
  };
}

/** A small product page with the widget embedded as customers do, polling every second. */
function fixturePage(apiBase: string, params: URLSearchParams): string {
  const build = params.get('build');
  return `<!doctype html>
<html lang="en"${build ? ` data-build-sha="${build}"` : ''}>
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Pricing</title>
<style>
  /* Hostile page styles: the widget must not inherit or be hit by them. */
  * { color: rgb(255, 0, 0) !important; font-family: serif; }
  button { background: lime; }
  body { margin: 0; padding: 24px; font-size: 20px; }
  .plan { border: 1px solid #ccc; padding: 16px; margin: 12px 0; width: 300px; }
</style>${
    params.has('hostile')
      ? `<style>
  /* Rules that reach everything, the host element included. */
  div { margin: 40px !important; }
  * { letter-spacing: 4px; text-transform: uppercase; font-style: italic; line-height: 3; }
  section.plans { transform: translate(15px, 5px); }
</style>`
      : ''
  }</head>
<body>
<h1 id="headline">Simple pricing</h1>
${menu(params.get('release'))}${
  params.has('broken')
    ? `<form><label>Password <input id="secret" type="password" value="hunter2hunter2" style="width:220px;height:30px;font-size:24px;color:#000"></label></form>
<div id="masked" data-svc-mask style="width:220px;height:30px;font-size:24px;color:#000">Card 4242 4242</div>
<script>
  // Once the widget is there (its script is async: on a busy machine it may come late).
  const breakThings = () => {
    if (!window.svcWidget) return setTimeout(breakThings, 100);
    console.error('Broken on purpose');
    fetch('/missing?token=never-sent').catch(() => {});
  };
  setTimeout(breakThings, 300);
</script>`
    : ''
}${params.has('secrets') ? secrets() : ''}${params.has('steps') ? STEPS_FIXTURE : ''}
<section class="plans">
  <div class="plan"><h2>Starter</h2><p class="price">$0</p></div>
  <div class="plan"><h2>Team</h2><p class="price">$49</p><button type="button">Choose Team</button></div>
</section>
<script src="${apiBase}/widget.js" data-api-base="${apiBase}" data-project-key="${params.get('project')}" data-notify-poll-ms="1000"${params.has('noconsole') ? ' data-capture-console="false"' : ''}${params.has('noshot') ? ' data-screenshot="false"' : ''}${params.has('locale') ? ` data-locale="${params.get('locale')}"` : ''} async></script>
</body></html>`;
}

/** What a reviewer types in the e-mail field of `?steps=1`: it must never leave the page. */
export const TYPED_SECRET = 'typed-secret-7Q9';

/**
 * With `?steps=1`, what a reviewer's steps are made of: a field with its label, a link that
 * changes the route in the page (with a query that must not be kept), a masked button, and
 * "Choose Team" failing (a console error and a request answered 404).
 */
const STEPS_FIXTURE = `<form onsubmit="return false"><label>E-mail <input id="email" type="email"></label></form>
<p><a id="to-team" href="/pricing/team">Team plan</a> <button type="button" id="refund" data-svc-mask>Refund Jane Quinn</button></p>
<script>
  document.getElementById('to-team').addEventListener('click', (event) => {
    event.preventDefault();
    history.pushState({}, '', '/pricing/team?ref=never-kept');
  });
  addEventListener('DOMContentLoaded', () => document.querySelector('.plan button').addEventListener('click', () => {
    console.error(new TypeError('plan is undefined'));
    fetch('/missing?order=never-kept', { method: 'POST' }).catch(() => {});
  }));
</script>`;

/** Words of `?secrets=1` that must never leave the page (see `secrets`). */
export const SECRETS = ['Jane Quinn', 'Quinn-Customer', '4242', 'Tiramisu', 'correct horse'];

/**
 * With `?secrets=1`, an account page as apps write them: the holder's name masked in a
 * sentence, a masked card (its number, a field inside), a password field with a value the
 * markup carries, and the name in the title and the card number in a console error.
 */
function secrets(): string {
  return `<section class="account">
  <h2>Your account</h2>
  <p class="holder">Account holder: <span class="holder-name" data-svc-mask title="Jane Quinn-Customer">Jane Quinn-Customer</span></p>
  <div class="card" data-svc-mask aria-label="Card 4242"><span class="number">4242 4242 4242 4242</span> <input name="memo" value="Tiramisu seven"></div>
  <button type="button" class="edit-card">Edit card</button>
  <div class="pin-box"><input name="pin" type="password" value="correct horse battery staple" placeholder="PIN"></div>
</section>
<script>
  document.title = 'Jane Quinn-Customer — Account';
  // Once the widget records errors (its script is async).
  const chargeFailed = () => {
    if (!window.svcWidget) return setTimeout(chargeFailed, 100);
    console.error('Charge failed for 4242 4242 4242 4242 (Jane Quinn-Customer)');
  };
  setTimeout(chargeFailed, 300);
</script>`;
}

/**
 * With `?release=first` or `?release=next` (one page: the query is no part of its identity), a
 * café's menu as one release shows it and as the next, whose fix changed it: the price and the
 * order button's label reworded in place, the Sunday offer removed.
 */
function menu(release: string | null): string {
  if (!release) return '';
  const next = release === 'next';
  return `<section class="menu">
  <div class="dish"><h2>Espresso</h2><p class="price">${next ? '€2.10' : '€1.90'}</p></div>
  <button type="button" id="order">${next ? 'Place your order' : 'Order now'}</button>
  ${next ? '' : '<p class="offer">Free refill on Sundays</p>'}
</section>`;
}

/**
 * Where the pin of the element `el` points, from its box's top-left corner: beside its content.
 * The end of the first line of its words (its start, on the left, where they are written right
 * to left), or the top-right corner of an image's, a control's or a wordless element's box. A
 * function's body as text, so that every browser's driver runs it as written.
 */
export const CONTENT_SPOT = `
  const own = el.getBoundingClientRect();
  const corner = { dx: own.width, dy: 0, rtl: false };
  if (['img', 'svg', 'button', 'input', 'select', 'textarea', 'video', 'canvas'].includes(el.localName)) return corner;
  const walker = el.ownerDocument.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  const rects = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const range = el.ownerDocument.createRange();
    range.selectNodeContents(node);
    rects.push(...[...range.getClientRects()].filter((r) => r.width > 0 && r.height > 0));
  }
  const first = rects[0];
  if (!first) return corner;
  const line = rects.filter((r) => r.top < first.bottom && r.bottom > first.top);
  const rtl = getComputedStyle(el).direction === 'rtl';
  const x = rtl ? Math.min(...line.map((r) => r.left)) : Math.max(...line.map((r) => r.right));
  return { dx: x - own.left, dy: Math.min(...line.map((r) => r.top)) - own.top, rtl };
`;

/** Where the pin of `target` points, in the page's coordinates (see CONTENT_SPOT). */
export async function contentPoint(target: Locator): Promise<{ x: number; y: number; rtl: boolean }> {
  const box = await target.boundingBox();
  if (!box) throw new Error('the element is not shown');
  const spot = await target.evaluate(
    (el, body) => new Function('el', body)(el) as { dx: number; dy: number; rtl: boolean },
    CONTENT_SPOT,
  );
  return { x: box.x + spot.dx, y: box.y + spot.dy, rtl: spot.rtl };
}

/** The room a card's picture of an element leaves around it, in CSS pixels (croppedAround's). */
const CROP_ROOM = 48;

/** The width of the page a card's picture of an element shows around `box`, in a window `windowWidth` wide. */
export const cropWidth = (box: { x: number; width: number }, windowWidth: number) =>
  Math.min(windowWidth, box.x + box.width + CROP_ROOM) - Math.max(0, box.x - CROP_ROOM);

/** The least a card's picture may give a pixel of the page: 16 px text reads at 12 px. */
const READABLE_SCALE = 0.75;

/**
 * The widths the widget's card draws its before and now at, in CSS pixels, as a function's
 * body (every driver runs it as written); 0 for a picture not drawn yet. With object-fit:
 * contain, a picture is drawn within its box at the box's tighter scale.
 */
export const DRAWN_PICTURES = `
  const root = document.querySelector('[data-svc-widget]').shadowRoot;
  return [...root.querySelectorAll('.before-after img')].map((img) => {
    const box = img.getBoundingClientRect();
    if (!img.complete || !img.naturalWidth || !box.width) return 0;
    if (getComputedStyle(img).objectFit !== 'contain') return box.width;
    return Math.min(box.width, (box.height * img.naturalWidth) / img.naturalHeight);
  });
`;

/**
 * The scales a card draws its before and now at: each drawn width over `shown`, the width of the
 * page it shows, once both are drawn and sized (two readings alike). `read` runs DRAWN_PICTURES.
 */
export async function pictureScales(read: () => Promise<number[]>, shown: [number, number]): Promise<number[]> {
  let previous = '';
  for (let i = 0; i < 200; i++) {
    const widths = await read();
    const drawn = widths.length === 2 && widths.every((width) => width > 0);
    if (drawn && JSON.stringify(widths) === previous)
      return widths.map((width, side) => width / shown[side === 0 ? 0 : 1]);
    previous = JSON.stringify(widths);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
  throw new Error('the pictures were not drawn');
}

/**
 * Before and now were drawn at one scale, large enough to read (`fit`, as pictureScales reads
 * them), and at the page's own size once Full size was pressed (`full`).
 */
export function assertOneReadableScale(fit: number[], full: number[]): void {
  const [before = 0, now = 0] = fit;
  if (Math.abs(before - now) > 0.02) throw new Error(`not at one scale: before ${before}, now ${now}`);
  if (before < READABLE_SCALE) throw new Error(`too small to read: ${before} of the page's size`);
  if (!full.every((scale) => Math.abs(scale - 1) <= 0.02)) throw new Error(`not at full size: ${full}`);
}

/** Whether a pin whose box is at `pin` points at `spot` (its tail: 6 px in from its left, 20 px down), within 3 px. */
export const pinPointsAt = (pin: { x: number; y: number }, spot: { x: number; y: number }) =>
  Math.abs(pin.x + 6 - spot.x) <= 3 && Math.abs(pin.y + 20 - spot.y) <= 3;

/**
 * A comment by `author` pinned to `selector`, sent as the widget sends one: with the context of
 * the window it was written in (`viewport` at 1x, the element's `pinnedBox` in it), then
 * `picture`, that window's screenshot (PNG). Its id.
 */
export async function commentWithScreenshot(
  stack: Stack,
  author: Member,
  options: {
    body: string;
    selector: string;
    picture: Uint8Array;
    viewport: { width: number; height: number };
    pinnedBox: { x: number; y: number; width: number; height: number };
  },
): Promise<string> {
  const { body, selector, picture, viewport, pinnedBox } = options;
  const created = await call(stack.api.app, 'POST', `/api/projects/${stack.projectKey}/comments`, {
    token: author.token,
    body: {
      body,
      pageUrl: `${stack.pageOrigin}/pricing`,
      anchor: { selector, x: 10, y: 10 },
      context: {
        viewport,
        screen: viewport,
        devicePixelRatio: 1,
        language: 'en',
        timeZone: 'UTC',
        colorScheme: 'light',
        title: 'Pricing',
        url: stack.pageUrl(),
        buildSha: null,
        errors: [],
        screenshotFollows: true,
        pinnedBox,
      },
    },
  });
  if (created.status !== 201) throw new Error(`comment refused: ${JSON.stringify(created.body)}`);
  const id = created.body.id as string;
  const stored = await stack.api.app.inject({
    method: 'PUT',
    url: `/api/comments/${id}/screenshot`,
    headers: { authorization: `Bearer ${author.token}`, 'content-type': 'image/png' },
    payload: Buffer.from(picture),
  });
  if (stored.statusCode !== 200) throw new Error(`screenshot refused: ${stored.body}`);
  return id;
}

/** The widget on a page: its host element, through whose open shadow root locators reach in. */
export const widget = (page: Page) => page.locator('[data-svc-widget]');

/**
 * A new browser context (kept in `contexts`, for the suite to close) with `member` signed in,
 * on `url` (the stack's page by default), once the widget's launcher is there.
 */
export async function openWidget(
  browser: Browser,
  stack: Stack,
  member: Member,
  contexts: BrowserContext[],
  options: {
    url?: string;
    viewport?: { width: number; height: number };
    locale?: string;
    touch?: boolean;
    /** Device pixels to a CSS pixel (a phone's 3). */
    deviceScaleFactor?: number;
  } = {},
): Promise<Page> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1100, height: 760 },
    ...(options.locale ? { locale: options.locale } : {}),
    // A phone: taps, not clicks.
    ...(options.touch ? { hasTouch: true, isMobile: true } : {}),
    ...(options.deviceScaleFactor ? { deviceScaleFactor: options.deviceScaleFactor } : {}),
  });
  contexts.push(context);
  const page = await signedInPage(context, stack, member);
  await page.goto(options.url ?? stack.pageUrl());
  await widget(page).locator('.launcher').waitFor();
  return page;
}

/**
 * A browser page with `member` signed in (its token where the widget keeps it), as someone who
 * has been here before: already welcomed (a first visit's welcome is client-visit.test.ts's).
 */
export async function signedInPage(context: BrowserContext, stack: Stack, member: Member): Promise<Page> {
  await context.addInitScript(
    ([key, token, welcomed]) => {
      if (!sessionStorage.getItem('svc-test-seeded')) {
        localStorage.setItem(key as string, token as string);
        localStorage.setItem(welcomed as string, 'before the test');
        sessionStorage.setItem('svc-test-seeded', '1');
      }
    },
    [`svc:token:${stack.apiBase}`, member.token, `svc:welcomed:${stack.apiBase}:${member.id}`],
  );
  return context.newPage();
}

/**
 * Headless Chromium never hides a tab, so the test sets what the browser would report when
 * the user switches tabs, and fires the same event. The widget's own code reacts to it.
 */
export async function setTabVisibility(page: Page, state: 'visible' | 'hidden'): Promise<void> {
  // A string, so the test runner's transpiler adds nothing to the code run in the page.
  await page.evaluate(`(() => {
    const value = ${JSON.stringify(state)};
    Object.defineProperty(document, 'visibilityState', { configurable: true, get() { return value; } });
    Object.defineProperty(document, 'hidden', { configurable: true, get() { return value === 'hidden'; } });
    document.dispatchEvent(new Event('visibilitychange'));
  })()`);
}

/** Requests to `pathPart` made by the page, as they happen. */
export function recordRequests(page: Page, pathPart: string) {
  const seen: { method: string; url: string; body: string | null; status?: number; at: number }[] = [];
  page.on('request', (request) => {
    if (request.url().includes(pathPart) && request.method() !== 'OPTIONS') {
      seen.push({ method: request.method(), url: request.url(), body: request.postData(), at: Date.now() });
    }
  });
  page.on('response', (response) => {
    const entry = [...seen].reverse().find((s) => s.url === response.url() && s.status === undefined);
    if (entry && response.request().method() !== 'OPTIONS') {
      entry.status = response.status();
      // When the browser sent it, by its own clock: the event reaches this process late when the machine is busy.
      const sent = response.request().timing().startTime;
      if (sent > 0) entry.at = sent;
    }
  });
  return seen;
}

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`) });
}

/** A new reviewer in the stack's workspace. */
export function newReviewer(stack: Stack, name = 'Rita Reviewer'): Promise<Member> {
  return addMember(stack.api.app, stack.admin, 'member', name);
}

/** A comment by `author`, applied by the admin (so the author gets CommentApplied). */
export async function appliedComment(
  stack: Stack,
  author: Member,
  options: { body?: string; selector?: string; pageUrl?: string } = {},
) {
  const created = await call(stack.api.app, 'POST', `/api/projects/${stack.projectKey}/comments`, {
    token: author.token,
    body: {
      body: options.body ?? 'The Team price is hard to read',
      pageUrl: options.pageUrl ?? `${stack.pageOrigin}/pricing`,
      anchor: { selector: options.selector ?? 'section.plans > div:nth-of-type(2) > p', x: 10, y: 6 },
    },
  });
  const applied = await call(stack.api.app, 'POST', `/api/comments/${created.body.id}/apply`, {
    token: stack.admin.token,
    body: {
      commitSha: 'a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0',
      commitUrl: 'https://github.com/acme/site/commit/a1b2c3d',
    },
  });
  return applied.body as { id: string };
}

/** Comments `ids` fixed in commit `sha` (applied by the admin, as the CLI does), then that build deployed: Live. */
export async function fixedAndLive(stack: Stack, ids: string[], sha: string): Promise<void> {
  const token = stack.admin.token;
  for (const id of ids)
    await call(stack.api.app, 'POST', `/api/comments/${id}/apply`, { token, body: { commitSha: sha } });
  const build = await call(stack.api.app, 'POST', `/api/projects/${stack.projectKey}/builds`, { token, body: { sha } });
  if (!build.body.deployedCommentIds?.length) throw new Error(`build ${sha} deployed nothing`);
}

/**
 * For a `describe`: a browser and a stack started before its tests and closed after them, with
 * the browser contexts its tests open (`contexts`, for `openWidget`), closed first.
 */
export function widgetSuite() {
  const started: { browser?: Browser; stack?: Stack } = {};
  const contexts: BrowserContext[] = [];
  before(async () => {
    started.browser = await launchBrowser();
    started.stack = await startStack();
  });
  after(async () => {
    for (const context of contexts) await context.close();
    await started.browser?.close();
    await started.stack?.close();
  });
  return { browser: () => started.browser as Browser, stack: () => started.stack as Stack, contexts };
}
