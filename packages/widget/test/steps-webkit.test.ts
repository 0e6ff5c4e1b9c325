// Steps to reproduce in WebKit (WebKitGTK's MiniBrowser over WebDriver, as webkit.test.ts
// drives it): the key check of steps-check.ts, and no recorder for a visitor not signed in.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { WebDriver } from 'selenium-webdriver';
import { newReviewer, type Stack, startStack, TYPED_SECRET } from './helpers.js';
import { assertStepsKept, FAILED_REQUEST_KEPT, RECORDER_REQUESTED } from './steps-check.js';
import { startWebKit, until, WEBKIT_MISSING, widgetIn } from './webkit-driver.js';

describe('steps to reproduce in WebKit', { skip: WEBKIT_MISSING && `no ${WEBKIT_MISSING}` }, () => {
  let stack: Stack;
  let browser: WebDriver;
  let closeBrowser: (() => Promise<void>) | undefined;
  before(async () => {
    stack = await startStack();
    ({ browser, close: closeBrowser } = await startWebKit());
  });
  after(async () => {
    await closeBrowser?.();
    await stack?.close();
  });

  const { find, click, inPage, onPage } = widgetIn(() => browser);

  test('the click, route and field are kept as steps, and the secret typed is nowhere', async () => {
    const reviewer = await newReviewer(stack, 'Wren WebKit');
    // Signed in as the widget keeps a session: its token in the page's storage.
    await browser.get(stack.pageUrl({ query: 'steps=1' }));
    await inPage('localStorage.setItem(arguments[0], arguments[1])', `svc:token:${stack.apiBase}`, reviewer.token);
    await browser.navigate().refresh();
    await find('.launcher');
    await until(() => inPage<boolean>("return '__svcSteps' in window"));

    await (await onPage('.plan button')).click();
    await until(() => inPage<boolean>(FAILED_REQUEST_KEPT));
    await (await onPage('#email')).sendKeys(TYPED_SECRET);
    await (await onPage('#refund')).click();
    await (await onPage('#to-team')).click();
    await until(() => inPage<boolean>("return location.pathname === '/pricing/team'"));

    await click('.launcher');
    await click('[role=tab]:last-of-type');
    await click('[data-new]');
    await find('.hint');
    await (await onPage('.plan button')).click();
    await (await find('#svc-new-body')).sendKeys('Choosing Team fails in WebKit');
    await click('form button[type=submit].primary');
    const id = await until(() =>
      inPage<string | null>(
        `const cards = document.querySelector('[data-svc-widget]').shadowRoot.querySelectorAll('[data-comment]');
         const card = [...cards].find((el) => el.textContent.includes('Choosing Team fails in WebKit'));
         return card ? card.getAttribute('data-comment') : null;`,
      ),
    );
    await assertStepsKept(stack, reviewer, id);
  });

  test('a visitor who is not signed in never asks for the recorder', async () => {
    await browser.get(stack.pageUrl({ query: 'steps=1' }));
    await inPage('localStorage.clear()');
    await browser.navigate().refresh();
    await click('.launcher');
    await find('input[type=email]');
    await (await onPage('.plan button')).click();
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(await inPage<boolean>(RECORDER_REQUESTED), false);
    assert.equal(await inPage<boolean>("return '__svcSteps' in window"), false);
  });
});
