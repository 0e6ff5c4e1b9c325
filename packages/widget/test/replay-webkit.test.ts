// Replays in WebKit (WebKitGTK's MiniBrowser over WebDriver, as webkit.test.ts drives it): the
// stored replay holds the clicks, the route and the pin, and nothing typed or masked
// (replay-check.ts); a visitor's page asks for no recorder.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { WebDriver } from 'selenium-webdriver';
import { call } from '../../server/test/helpers.js';
import { newReviewer, type Stack, startStack } from './helpers.js';
import { assertReplayKept, REVIEWER_ACTS } from './replay-check.js';
import { startWebKit, until, WEBKIT_MISSING, widgetIn } from './webkit-driver.js';

describe('replays in WebKit', { skip: WEBKIT_MISSING && `no ${WEBKIT_MISSING}` }, () => {
  let stack: Stack;
  let browser: WebDriver;
  let closeBrowser: (() => Promise<void>) | undefined;
  before(async () => {
    stack = await startStack();
    ({ browser, close: closeBrowser } = await startWebKit());
    const on = await call(stack.api.app, 'PATCH', `/api/projects/${stack.projectKey}`, {
      token: stack.admin.token,
      body: { replay: { on: true } },
    });
    assert.equal(on.status, 200);
  });
  after(async () => {
    await closeBrowser?.();
    await stack?.close();
  });

  const { find, click, inPage, onPage } = widgetIn(() => browser);
  const url = () => stack.pageUrl({ query: 'steps=1&broken=1' });

  test('the stored replay holds the clicks, the route and the pin, never the secret typed, a password or masked text', async () => {
    const reviewer = await newReviewer(stack, 'Wren WebKit');
    await browser.get(url());
    await inPage('localStorage.setItem(arguments[0], arguments[1])', `svc:token:${stack.apiBase}`, reviewer.token);
    await browser.navigate().refresh();
    await find('.launcher');
    await until(() => inPage<boolean>('return !!(window.__svcReplay && window.__svcReplay.running())'));

    await (await onPage('.plan button')).click();
    await (await onPage('#email')).sendKeys(REVIEWER_ACTS.secret);
    await (await onPage('#secret')).sendKeys(REVIEWER_ACTS.password);
    await (await onPage('#to-team')).click();
    await until(() => inPage<boolean>("return location.pathname === '/pricing/team'"));

    await click('.launcher');
    await click('[data-new]');
    await find('.hint');
    await (await onPage('#headline')).click();
    await find('#svc-new-replay');
    await (await find('#svc-new-body')).sendKeys('The headline in WebKit');
    await click('form button[type=submit].primary');
    const id = await until(() =>
      inPage<string | null>(
        `const cards = document.querySelector('[data-svc-widget]').shadowRoot.querySelectorAll('[data-comment]');
         const card = [...cards].find((el) => el.textContent.includes('The headline in WebKit'));
         return card ? card.getAttribute('data-comment') : null;`,
      ),
    );
    await until(async () => {
      const comment = await call(stack.api.app, 'GET', `/api/comments/${id}`, { token: stack.admin.token });
      return comment.body.replay !== null;
    });
    await assertReplayKept(stack, id);
  });

  test('a visitor who is not signed in never asks for the recorder', async () => {
    await browser.get(url());
    await inPage('localStorage.clear()');
    await browser.navigate().refresh();
    await click('.launcher');
    await find('input[type=email]');
    await (await onPage('.plan button')).click();
    assert.equal(
      await inPage<boolean>(
        "return performance.getEntriesByType('resource').some((r) => r.name.includes('widget-replay'))",
      ),
      false,
    );
    assert.equal(await inPage<boolean>("return '__svcReplay' in window"), false);
  });
});
