// Firefox for the widget's tests: Debian's firefox-esr, driven over WebDriver BiDi by puppeteer-core.
import fs from 'node:fs';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';
import type { Stack } from './helpers.js';

const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/** Why a suite is skipped on this machine (no Firefox), or false. */
export const FIREFOX_MISSING = !fs.existsSync(FIREFOX_PATH) && `no Firefox at ${FIREFOX_PATH}`;

/** Firefox, headless. */
export const launchFirefox = (): Promise<Browser> =>
  puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX_PATH, headless: true });

/**
 * Polls `read` every 100 ms until it gives something (30 s at most): puppeteer's waits hear of
 * changes to the document, not to a shadow root's, and would miss what the widget draws later.
 */
export async function until<T>(read: () => Promise<T | undefined | null | false>): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const value = await read();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('waited 30 s');
}

/** A selector of an element inside the widget's shadow root. */
export const inWidget = (selector: string) => `[data-svc-widget] >>> ${selector}`;

/**
 * Clicks an element of the widget, found again when the widget redrew it between the two (a
 * detached node, or one without a box yet).
 */
export async function clickInWidget(page: Page, selector: string): Promise<void> {
  for (let tries = 1; ; tries++) {
    try {
      return await (await until(() => page.$(inWidget(selector)))).click();
    } catch (error) {
      if (tries >= 5 || !/detached|not clickable/i.test(String(error))) throw error;
    }
  }
}

/**
 * The test site in a browser context of its own (a visitor's page shares no storage with a
 * reviewer's), signed in as `token` when given: seeded once, so that a reload keeps what the
 * widget made of it since. Resolves once the launcher is drawn.
 */
export async function widgetPage(browser: Browser, stack: Stack, token: string | null, query: string): Promise<Page> {
  const page = await (await browser.createBrowserContext()).newPage();
  await page.setViewport({ width: 1100, height: 760 });
  if (token) {
    await page.evaluateOnNewDocument(
      (key, value) => {
        if (!sessionStorage.getItem('svc-test-seeded')) {
          localStorage.setItem(key, value);
          sessionStorage.setItem('svc-test-seeded', '1');
        }
      },
      `svc:token:${stack.apiBase}`,
      token,
    );
  }
  await page.goto(stack.pageUrl({ query }));
  await until(() => page.$(inWidget('.launcher')));
  return page;
}
