// Steps to reproduce in Firefox (firefox-esr over WebDriver BiDi, as firefox.test.ts drives it):
// the key check of steps-check.ts, and no recorder for a visitor who is not signed in.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { FIREFOX_MISSING, launchFirefox } from './firefox-browser.js';
import { newReviewer, type Stack, startStack, TYPED_SECRET } from './helpers.js';
import { assertStepsKept, FAILED_REQUEST_KEPT, RECORDER_REQUESTED } from './steps-check.js';

describe('steps to reproduce in Firefox', { skip: FIREFOX_MISSING }, () => {
  let browser: Browser;
  let stack: Stack;
  before(async () => {
    stack = await startStack();
    browser = await launchFirefox();
  });
  after(async () => {
    await browser?.close();
    await stack?.close();
  });

  const until = async <T>(read: () => Promise<T | undefined | null | false>): Promise<T> => {
    for (let i = 0; i < 300; i++) {
      const value = await read();
      if (value) return value;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('waited 30 s');
  };
  /** A script of steps-check.ts run in the page. */
  const inPage = (page: Page, script: string) => page.evaluate(`(() => { ${script} })()`) as Promise<boolean>;
  const inWidget = (selector: string) => `[data-svc-widget] >>> ${selector}`;
  /** Clicks an element of the widget, found again when the widget redrew it meanwhile. */
  const click = async (page: Page, selector: string) => {
    for (let tries = 1; ; tries++) {
      try {
        return await (await until(() => page.$(inWidget(selector)))).click();
      } catch (error) {
        if (tries >= 5 || !/detached|not clickable/i.test(String(error))) throw error;
      }
    }
  };

  async function newPage(token: string | null): Promise<Page> {
    // A context of its own: a visitor's page shares no storage (no token) with the reviewer's.
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
    await page.goto(stack.pageUrl({ query: 'steps=1' }));
    await until(() => page.$(inWidget('.launcher')));
    return page;
  }

  test('the click, route and field are kept as steps, and the secret typed is nowhere', async () => {
    const reviewer = await newReviewer(stack, 'Fenna Firefox');
    const page = await newPage(reviewer.token);
    await until(() => page.evaluate(() => '__svcSteps' in window));

    await page.click('.plan button');
    await until(() => inPage(page, FAILED_REQUEST_KEPT));
    await page.type('#email', TYPED_SECRET);
    await page.click('#refund');
    await page.click('#to-team');
    await until(() => page.evaluate(() => location.pathname === '/pricing/team'));

    await click(page, '.launcher');
    await click(page, '[role=tab]:last-of-type');
    await click(page, '[data-new]');
    await until(() => page.$(inWidget('.hint')));
    await page.click('.plan button');
    await (await until(() => page.$(inWidget('#svc-new-body')))).type('Choosing Team fails in Firefox');
    await click(page, 'form button[type=submit].primary');
    const id = await until(() =>
      page.evaluate(() => {
        const root = document.querySelector('[data-svc-widget]')?.shadowRoot;
        const card = [...(root?.querySelectorAll('[data-comment]') ?? [])].find((el) =>
          el.textContent?.includes('Choosing Team fails in Firefox'),
        );
        return card?.getAttribute('data-comment') ?? null;
      }),
    );
    await assertStepsKept(stack, reviewer, id);
  });

  test('a visitor who is not signed in never asks for the recorder', async () => {
    const page = await newPage(null);
    await click(page, '.launcher');
    await until(() => page.$(inWidget('input[type=email]')));
    await page.click('.plan button');
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(await inPage(page, RECORDER_REQUESTED), false);
    assert.equal(await page.evaluate(() => '__svcSteps' in window), false);
  });
});
