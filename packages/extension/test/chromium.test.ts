// The extension in Debian's Chromium (loaded unpacked into a persistent profile, headless):
// the settings page's sign-in, the toolbar button's widget on a project's site that carries no
// script of ours, a pin with a screenshot, shown again after a reload, and a page the person did
// not enable left untouched.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { type BrowserContext, chromium, type Page, type Worker } from 'playwright-core';
import { CHROMIUM_PATH } from '../../widget/test/helpers.js';
import {
  type Box,
  call,
  extensionFor,
  MEMBER_PASSWORD,
  regionIn,
  type Stack,
  startStack,
  storedScreenshot,
} from './helpers.js';

describe('the extension in Chromium', {
  skip: !fs.existsSync(CHROMIUM_PATH) && `no Chromium at ${CHROMIUM_PATH}`,
}, () => {
  let stack: Stack;
  let context: BrowserContext;
  let worker: Worker;
  let extensionId: string;
  const dirs: string[] = [];
  before(async () => {
    stack = await startStack();
    const extension = await extensionFor('chromium', stack.apiBase);
    const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-extension-profile-'));
    dirs.push(extension, profile);
    context = await chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM_PATH,
      // The old headless mode has no extensions: the new one, asked for by its flag.
      headless: false,
      viewport: { width: 1280, height: 800 },
      args: [
        '--headless=new',
        '--no-sandbox',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        // The toolbar button is pressed through the DevTools protocol (Extensions.triggerAction).
        '--enable-unsafe-extension-debugging',
        `--disable-extensions-except=${extension}`,
        `--load-extension=${extension}`,
      ],
    });
    worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker'));
    extensionId = new URL(worker.url()).host;
  });
  after(async () => {
    await context?.close();
    await stack?.close();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Presses the extension's toolbar button on `page`'s tab, as a person's click does. */
  async function pressToolbarButton(page: Page): Promise<void> {
    const browser = await context.browser()?.newBrowserCDPSession();
    assert.ok(browser, 'the browser-level DevTools session');
    const { targetInfos } = await browser.send('Target.getTargets', { filter: [{ type: 'tab' }] });
    const tab = targetInfos.find((target) => target.url === page.url());
    assert.ok(tab, `the tab of ${page.url()}`);
    // Pressed again when nothing came of it: on a busy machine the extension's service worker
    // may still be starting when the first press arrives (seen once in CI).
    for (let press = 1; ; press++) {
      await browser.send(
        'Extensions.triggerAction' as 'Target.getTargets',
        { id: extensionId, targetId: tab.targetId } as never,
      );
      try {
        await page.locator('[data-svc-widget]').waitFor({ state: 'attached', timeout: 15_000 });
        break;
      } catch (error) {
        if (press >= 3) throw error;
      }
    }
    await browser.detach();
  }

  const inWidget = (page: Page, selector: string) => page.locator(`[data-svc-widget] ${selector}`);

  /** Signs in on the settings page, the address of the server the build came from filled in. */
  async function signInOnSettingsPage(): Promise<void> {
    // The settings page the extension opened itself when it was installed, else a new one.
    const address = `chrome-extension://${extensionId}/options.html`;
    const opened =
      context.pages().find((page) => page.url() === address) ??
      (await context
        .waitForEvent('page', { predicate: (page) => page.url() === address, timeout: 5000 })
        .catch(() => null));
    const settings = opened ?? (await context.newPage());
    if (!opened) await settings.goto(address);
    await settings.waitForLoadState();
    assert.equal(await settings.locator('input[name=server]').inputValue(), stack.apiBase);
    await settings.locator('#server button').click();
    await settings.locator('input[name=email]').fill(stack.reviewer.email);
    await settings.locator('input[name=password]').fill(MEMBER_PASSWORD);
    await settings.locator('#sign-in button').click();
    await settings.locator('#signed-in .who', { hasText: stack.reviewer.name }).waitFor();
    await settings.locator('#signed-in .sites li', { hasText: stack.siteOrigin }).waitFor();
    await settings.close();
  }

  /** A comment on the Team plan's button, from the panel the toolbar button opened; its id once its screenshot is stored. */
  async function commentOnButton(page: Page, body: string): Promise<string> {
    await inWidget(page, '.panel [role=tab]').last().click();
    await inWidget(page, '[data-new]').click();
    await page.locator('section.plans button').click();
    await inWidget(page, '#svc-new-body').fill(body);
    await inWidget(page, 'form button[type=submit].primary').click();
    const card = inWidget(page, '[data-comment]').filter({ hasText: body });
    await card.waitFor();
    const id = String(await card.getAttribute('data-comment'));
    for (let i = 0; i < 100 && !(await read(id)).screenshot; i++) await page.waitForTimeout(100);
    return id;
  }
  const read = async (id: string) =>
    (await call(stack.api.app, 'GET', `/api/comments/${id}`, { token: stack.reviewer.token })).body;

  test('sign in on the settings page, comment on a project’s site through the toolbar button (the browser’s picture, masked), the pin after a reload; a page not enabled untouched', async () => {
    await signInOnSettingsPage();
    // The session is the extension's: no page's storage holds it.
    const kept = await worker.evaluate(() => chrome.storage.local.get(['token']));
    assert.match(String(kept.token), /.{20,}/);

    // The project's site, with no script of ours: the toolbar button brings the widget.
    const page = await context.newPage();
    await page.goto(`${stack.siteOrigin}/pricing`);
    assert.equal(await page.locator('[data-svc-widget]').count(), 0, 'nothing added before the button');
    await pressToolbarButton(page);
    const id = await commentOnButton(page, 'Choose Team needs a price');
    const comment = await read(id);
    assert.equal(comment.anchor.tag, 'button');
    assert.ok(comment.screenshot, 'the screenshot is stored');
    assert.ok(comment.pageUrl.startsWith(stack.siteOrigin));
    // The browser's picture: the password field and the masked element painted over, uniform.
    const stored = await storedScreenshot(stack, id);
    for (const selector of ['#secret', '#masked']) {
      const { mean, spread } = await regionIn(page, stored, (await page.locator(selector).boundingBox()) as Box);
      assert.ok(spread <= 12, `${selector} uniform (spread ${spread})`);
      // The mask's colour (#d1d5db), within what the picture's compression moves.
      for (const [c, value] of mean.entries()) {
        assert.ok(Math.abs(value - ([209, 213, 219][c] ?? 0)) <= 6, `${selector} in the mask's colour: ${mean}`);
      }
    }

    // A reply by the admin: the toolbar badge counts it, once the background reads the count
    // again (when a tab's widget starts: the reload below).
    assert.equal(await worker.evaluate(() => chrome.action.getBadgeText({})), '');
    const reply = await call(stack.api.app, 'POST', `/api/comments/${id}/replies`, {
      token: stack.admin.token,
      body: { body: 'Which price?' },
    });
    assert.equal(reply.status, 201);

    // After a reload, the toolbar button again: the pin is where it was, the badge says 1.
    await page.reload();
    await pressToolbarButton(page);
    await inWidget(page, '.pin').first().waitFor();
    for (let i = 0; i < 50 && (await worker.evaluate(() => chrome.action.getBadgeText({}))) !== '1'; i++) {
      await page.waitForTimeout(100);
    }
    assert.equal(await worker.evaluate(() => chrome.action.getBadgeText({})), '1');

    // A page the person did not enable nor open the extension on: nothing of ours.
    const elsewhere = await context.newPage();
    await elsewhere.goto(`${stack.elsewhereOrigin}/pricing`);
    await elsewhere.waitForTimeout(500);
    assert.equal(await elsewhere.locator('[data-svc-widget]').count(), 0);
  });

  test('a page that carries the widget’s script too: one launcher, the toolbar button opening the page’s', async () => {
    if (!(await worker.evaluate(() => chrome.storage.local.get(['token']))).token) await signInOnSettingsPage();
    const page = await context.newPage();
    await page.goto(`${stack.siteOrigin}/pricing?widget=1`);
    await page.locator('[data-svc-widget] .launcher').waitFor();
    await pressToolbarButton(page);
    await inWidget(page, '.panel').waitFor();
    assert.equal(await page.locator('[data-svc-widget]').count(), 1, 'one launcher');
    assert.equal(await page.locator('[data-svc-extension]').count(), 0, 'the page’s own');
  });

  for (const csp of ['strict', 'trusted-types']) {
    test(`a page whose policy is ${csp}: the launcher and panel styled and working, no violation reported`, async () => {
      if (!(await worker.evaluate(() => chrome.storage.local.get(['token']))).token) await signInOnSettingsPage();
      const page = await context.newPage();
      await page.goto(`${stack.siteOrigin}/pricing?csp=${csp}`);
      await pressToolbarButton(page);
      // Styled: the launcher where the widget's styles put it, the panel laid out.
      const launcher = inWidget(page, '.launcher');
      assert.equal(await launcher.evaluate((element) => getComputedStyle(element).position), 'fixed');
      const id = await commentOnButton(page, `Strict ${csp}: say the price`);
      assert.ok((await read(id)).screenshot, 'the screenshot is stored');
      await inWidget(page, '.pin').first().waitFor();
      const violations = await page.evaluate(() => document.documentElement.dataset);
      assert.equal(violations.violations, '0', `violations: ${violations.violated}`);
    });
  }
});
