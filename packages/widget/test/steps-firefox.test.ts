// Steps to reproduce in Firefox (firefox-esr over WebDriver BiDi, as firefox.test.ts drives it):
// the key check of steps-check.ts, and no recorder for a visitor who is not signed in.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { clickInWidget, FIREFOX_MISSING, inWidget, launchFirefox, until, widgetPage } from './firefox-browser.js';
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

  /** A script of steps-check.ts run in the page. */
  const inPage = (page: Page, script: string) => page.evaluate(`(() => { ${script} })()`) as Promise<boolean>;
  const newPage = (token: string | null) => widgetPage(browser, stack, token, 'steps=1');
  const click = clickInWidget;

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
