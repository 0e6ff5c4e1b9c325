// The extension in Firefox (Debian's firefox-esr over WebDriver BiDi, installed as a temporary
// add-on by puppeteer-core): the settings page's sign-in, the sites of the person's projects
// allowed (Firefox's prompt for optional permissions answered yes by its preference), then the
// launcher appearing by itself on the project's site, which carries no script of ours; a comment
// pinned with its screenshot (masked), a reply, the toolbar badge, the fix verified before and
// after, the pin after a reload; a page not enabled left untouched and unheard of by the server.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { after, before, describe, test } from 'node:test';
import type { Page as PlaywrightPage } from 'playwright-core';
import puppeteer, { type Browser, type ElementHandle, type Page } from 'puppeteer-core';
import {
  answeredAndFixed,
  assertMaskedBlank,
  assertPictureOfNowStored,
  assertReplied,
  assertVerified,
  type Box,
  call,
  extensionFor,
  MEMBER_PASSWORD,
  regionIn,
  type Stack,
  serverRequestsDuring,
  startStack,
  storedScreenshot,
  until,
} from './helpers.js';

/** Debian's firefox-esr, as the widget's Firefox tests find it. */
const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/** The add-on's address in the profile, fixed by preference so that the test finds its pages. */
const EXTENSION_UUID = '3f2c1b9e-7d4a-4e8b-9c1d-2a6b5e8f0c71';
const EXTENSION_ID = 'feedback-extension@svc.invalid';

/** WebDriver BiDi itself: puppeteer shows no extension page, and the settings page is one. */
interface Bidi {
  send(method: string, params: object): Promise<{ result: Record<string, unknown> }>;
}

describe('the extension in Firefox', { skip: !fs.existsSync(FIREFOX_PATH) && `no Firefox at ${FIREFOX_PATH}` }, () => {
  let stack: Stack;
  let browser: Browser;
  let extension: string;
  before(async () => {
    stack = await startStack();
    extension = await extensionFor('firefox', stack.apiBase);
    browser = await puppeteer.launch({
      browser: 'firefox',
      executablePath: FIREFOX_PATH,
      headless: true,
      extraPrefsFirefox: {
        'extensions.webextensions.uuids': JSON.stringify({ [EXTENSION_ID]: EXTENSION_UUID }),
        // The person's yes to the permission the settings page asks (a prompt otherwise).
        'extensions.webextOptionalPermissionPrompts': false,
      },
    });
    await browser.installExtension(extension);
  });
  after(async () => {
    await browser?.close();
    await stack?.close();
    if (extension) fs.rmSync(extension, { recursive: true, force: true });
  });

  const bidi = () => (browser as unknown as { connection: Bidi }).connection;

  /** The settings page the extension opened when installed (its browsing context). */
  async function settingsPage(): Promise<string> {
    return until(async () => {
      const { contexts } = (await bidi().send('browsingContext.getTree', {})).result as {
        contexts: { context: string; url: string }[];
      };
      return contexts.find((c) => c.url === `moz-extension://${EXTENSION_UUID}/options.html`)?.context;
    });
  }
  const evaluate = async (context: string, expression: string) =>
    (
      (await bidi().send('script.evaluate', { expression, target: { context }, awaitPromise: true })).result as {
        result: { value?: unknown };
      }
    ).result.value;
  /** A click by the mouse (a person's gesture: the permission is asked in it) on `selector`. */
  async function click(context: string, selector: string): Promise<void> {
    await until(() => evaluate(context, `!!document.querySelector(${JSON.stringify(selector)})?.offsetParent`));
    const [x, y] = (await evaluate(
      context,
      `(() => { const r = document.querySelector(${JSON.stringify(selector)}).getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; })()`,
    )) as { value: number }[] as unknown as [{ value: number }, { value: number }];
    await bidi().send('input.performActions', {
      context,
      actions: [
        {
          type: 'pointer',
          id: 'mouse',
          actions: [
            { type: 'pointerMove', x: Math.round(x.value), y: Math.round(y.value) },
            { type: 'pointerDown', button: 0 },
            { type: 'pointerUp', button: 0 },
          ],
        },
      ],
    });
  }
  const inWidget = (selector: string) => `[data-svc-widget] >>> ${selector}`;
  const find = (page: Page, selector: string) => until(() => page.$(inWidget(selector)));
  const read = async (id: string) =>
    (await call(stack.api.app, 'GET', `/api/comments/${id}`, { token: stack.reviewer.token })).body;

  test('sign in, allow the sites of the projects; the launcher by itself on the project’s site, a pin with its screenshot, a reply, the badge, the fix verified before and after; a page not enabled untouched, no request', async () => {
    const settings = await settingsPage();
    const text = (selector: string) =>
      evaluate(settings, `document.querySelector(${JSON.stringify(selector)})?.textContent ?? ''`) as Promise<string>;
    const address = await until(() => evaluate(settings, `document.querySelector('input[name=server]')?.value`));
    assert.equal(address, stack.apiBase);
    await click(settings, '#server button');
    await evaluate(
      settings,
      `document.querySelector('input[name=email]').value = ${JSON.stringify(stack.reviewer.email)};
       document.querySelector('input[name=password]').value = ${JSON.stringify(MEMBER_PASSWORD)};`,
    );
    await click(settings, '#sign-in button:not([type=button])');
    await until(async () => (await text('#signed-in .who')).includes(stack.reviewer.name));
    await until(async () => (await text('#signed-in .sites')).includes(stack.siteOrigin));
    await click(settings, '[data-show-on-sites]');
    await until(async () => (await text('#signed-in .notice')).includes('appears by itself'));

    // The badge as the toolbar shows it, read from the extension's own page.
    const badge = () => evaluate(settings, 'chrome.action.getBadgeText({})');

    // The project's site: the launcher by itself.
    const page = await browser.newPage();
    await page.setViewport({ width: 1100, height: 760 });
    await page.goto(`${stack.siteOrigin}/pricing`);
    await (await find(page, '.launcher')).click();
    await (await find(page, '[role=tab]:last-of-type')).click();
    await (await find(page, '[data-new]')).click();
    // Picking has the page's clicks once its hint shows.
    await find(page, '.hint');
    await (await until(() => page.$('section.plans button'))).click();
    await (await find(page, '#svc-new-body')).type('Firefox: Choose Team needs a price');
    await (await find(page, 'form button[type=submit].primary')).click();
    const id = await until(() =>
      page.evaluate(() => {
        const root = document.querySelector('[data-svc-widget]')?.shadowRoot;
        return root?.querySelector('[data-comment]')?.getAttribute('data-comment') ?? null;
      }),
    );
    // Its screenshot stored: the widget's own capture (Firefox lets an extension take the tab's
    // picture only after its toolbar button, which a test cannot press), sent through the
    // extension; the panel not in it, the password field and the masked element blank.
    const comment = await until(async () => {
      const stored = await read(id);
      return stored.anchor && stored.screenshot ? stored : null;
    }, 'the comment and its screenshot');
    assert.equal(comment.anchor.tag, 'button');
    const stored = await storedScreenshot(stack, id);
    const decoding = page as unknown as { evaluate: PlaywrightPage['evaluate'] };
    const panel = await regionIn(decoding, stored, (await (await find(page, '.panel')).boundingBox()) as Box);
    assert.ok(panel.spread <= 12 && panel.mean.every((value) => value >= 245), `no panel: ${JSON.stringify(panel)}`);
    await assertMaskedBlank(decoding, stored, {
      password: (await (await page.$('#secret'))?.boundingBox()) as Box,
      masked: (await (await page.$('#masked'))?.boundingBox()) as Box,
    });

    // A reply written in the panel: stored, under the reviewer's name.
    await (await find(page, `#svc-replies-${id}`)).evaluate((button) => (button as HTMLButtonElement).click());
    // Typed again, from empty, if the thread read meanwhile drew a new field (which keeps what
    // was typed so far).
    const field = await until(async () => {
      const shown = await find(page, `#svc-reply-${id}`);
      await shown.evaluate((f) => {
        (f as HTMLTextAreaElement).value = '';
      });
      await shown.type('The Team plan, under its name');
      await new Promise((resolve) => setTimeout(resolve, 300));
      const kept = await shown.evaluate((f) => f.isConnected && (f as HTMLTextAreaElement).value);
      return kept === 'The Team plan, under its name' ? shown : null;
    }, 'the reply typed');
    await field.evaluate((f) =>
      (f as HTMLTextAreaElement).form?.querySelector<HTMLButtonElement>('button[type=submit]')?.click(),
    );
    await assertReplied(stack, id, 'The Team plan, under its name');

    // The team replies and applies a fix: the toolbar badge counts both, read again when the
    // tab's widget starts (the reload).
    assert.equal(await badge(), '');
    await answeredAndFixed(stack, id);
    await page.reload();
    await find(page, '.pin');
    await until(async () => (await badge()) === '2', 'the badge');

    // The fix to verify: the card shows the comment's picture before and the element now (that
    // picture kept on the server for the team), and the verdict is given there.
    await (await find(page, '.launcher')).click();
    await (await find(page, '[role=tab]:last-of-type')).click();
    const card = `[data-comment="${id}"]`;
    const sha = await find(page, `${card} a.sha`);
    assert.equal(
      await sha.evaluate((link) => link.getAttribute('href')),
      'https://github.com/acme/site/commit/a1b2c3d',
    );
    const figures = (): Promise<string[] | null> =>
      page.evaluate((card) => {
        const root = document.querySelector('[data-svc-widget]')?.shadowRoot;
        const shown = [...(root?.querySelectorAll(`${card} .before-after figure`) ?? [])];
        const loaded = shown.every((figure) => (figure.querySelector('img')?.naturalWidth ?? 0) > 0);
        return shown.length && loaded
          ? shown.map((figure) => figure.querySelector('figcaption')?.textContent ?? '')
          : null;
      }, card);
    assert.deepEqual(await until(figures, 'the pictures before and now'), ['Before', 'Now']);
    await assertPictureOfNowStored(stack, id, decoding);
    const verify = await until(async () => {
      const button = await page.evaluateHandle((card) => {
        const root = document.querySelector('[data-svc-widget]')?.shadowRoot;
        return [...(root?.querySelectorAll(`${card} button`) ?? [])].find((b) => b.textContent === 'Verified') ?? null;
      }, card);
      return button.asElement() as ElementHandle<Element> | null;
    }, 'the Verified button');
    await verify.click();
    await assertVerified(stack, id);
    await page.close();

    // A page the person did not enable: nothing of ours, no request to the server (every other
    // tab of ours closed, the badge's next read put off meanwhile).
    await evaluate(settings, 'chrome.alarms.clearAll()');
    const elsewhere = await browser.newPage();
    const requests = await serverRequestsDuring(stack, () => elsewhere.goto(`${stack.elsewhereOrigin}/pricing`));
    assert.deepEqual(requests, [], 'no request to the server');
    assert.equal(await elsewhere.$$eval('[data-svc-widget], [data-svc-extension-picker]', (found) => found.length), 0);
    await elsewhere.close();
  });
  for (const csp of ['strict', 'trusted-types']) {
    test(`a page whose policy is ${csp}: the launcher by itself, styled and working, a pin with its screenshot, no violation reported`, async () => {
      const page = await browser.newPage();
      await page.setViewport({ width: 1100, height: 760 });
      await page.goto(`${stack.siteOrigin}/pricing?csp=${csp}`);
      const launcher = await find(page, '.launcher');
      assert.equal(await launcher.evaluate((element) => getComputedStyle(element).position), 'fixed');
      await launcher.click();
      await (await find(page, '[role=tab]:last-of-type')).click();
      await (await find(page, '[data-new]')).click();
      // Picking has the page's clicks once its hint shows.
      await find(page, '.hint');
      await (await until(() => page.$('section.plans button'))).click();
      const body = `Firefox ${csp}: say the price`;
      await (await find(page, '#svc-new-body')).type(body);
      await (await find(page, 'form button[type=submit].primary')).click();
      const id = await until(() =>
        page.evaluate(
          (text) =>
            [...(document.querySelector('[data-svc-widget]')?.shadowRoot?.querySelectorAll('[data-comment]') ?? [])]
              .find((card) => card.textContent?.includes(text))
              ?.getAttribute('data-comment'),
          body,
        ),
      );
      await until(async () => (await read(id)).screenshot, 'the screenshot');
      await find(page, '.pin');
      const seen = await page.evaluate(() => ({ ...document.documentElement.dataset }));
      assert.equal(seen.violations, '0', `violations: ${seen.violated}`);
    });
  }
});
