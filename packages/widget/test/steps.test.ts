// Steps to reproduce, in Chromium: a signed-in reviewer's clicks (in words), routes and fields
// typed in (never what) and the page's failed requests and errors become the steps kept with
// their comment; a visitor who is not signed in never loads the recorder.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { call } from '../../server/test/helpers.js';
import {
  launchBrowser,
  newReviewer,
  recordRequests,
  type Stack,
  signedInPage,
  startStack,
  TYPED_SECRET,
  widget,
} from './helpers.js';
import { assertStepsKept, FAILED_REQUEST_KEPT, RECORDER_REQUESTED } from './steps-check.js';

describe('steps to reproduce, recorded for a signed-in reviewer', () => {
  let browser: Browser;
  let stack: Stack;
  const contexts: BrowserContext[] = [];
  before(async () => {
    browser = await launchBrowser();
    stack = await startStack();
  });
  after(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await stack?.close();
  });

  test('the reviewer’s click, route, field, error and failed request become steps, and what they typed is nowhere', async () => {
    const reviewer = await newReviewer(stack, 'Stella Steps');
    const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
    contexts.push(context);
    const page = await signedInPage(context, stack, reviewer);
    const recorder = recordRequests(page, 'widget-steps.js');
    await page.goto(stack.pageUrl({ query: 'steps=1' }));
    await widget(page).locator('.launcher').waitFor();
    await page.waitForFunction(() => 'svcWidget' in window && '__svcSteps' in window);
    assert.equal(recorder.length, 1, 'the recorder is loaded once');

    await page.locator('.plan button', { hasText: 'Choose Team' }).click();
    // The failed request is kept once answered.
    await page.waitForFunction(`(() => { ${FAILED_REQUEST_KEPT} })()`);
    await page.locator('#email').fill(TYPED_SECRET);
    await page.locator('#refund').click();
    await page.locator('#to-team').click();
    await page.waitForURL(/\/pricing\/team/);

    await widget(page).locator('.launcher').click();
    await widget(page).locator('button', { hasText: 'New' }).click();
    await page.locator('.plan button', { hasText: 'Choose Team' }).click();
    await widget(page).locator('#svc-new-body').fill('Choosing Team fails');
    await widget(page).locator('button[type=submit]', { hasText: 'Send' }).click();
    await widget(page).locator('.comment.highlight').waitFor();

    const list = await call(stack.api.app, 'GET', '/api/comments?q=Choosing', { token: reviewer.token });
    await assertStepsKept(stack, reviewer, list.body.items[0].id);
  });

  test('hash routes and the history’s back are routes taken too, without their query; signing out forgets them all', async () => {
    const reviewer = await newReviewer(stack, 'Hana Hash');
    const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
    contexts.push(context);
    const page = await signedInPage(context, stack, reviewer);
    await page.goto(stack.pageUrl({ query: 'steps=1' }));
    await page.waitForFunction(() => '__svcSteps' in window);
    await page.evaluate(() => {
      location.hash = '#/cart?coupon=never-kept';
    });
    await page.waitForFunction(() => location.hash.startsWith('#/cart'));
    await page.goBack();
    await page.waitForFunction(() => location.hash === '');
    const routes = () =>
      page.evaluate(`window.__svcSteps.recentActions().filter((a) => a.kind !== 'press').map((a) => a.path)`);
    await page.waitForFunction(`window.__svcSteps.recentActions().length === 3`);
    assert.deepEqual(await routes(), ['/pricing', '/pricing#/cart', '/pricing']);

    // Signed out (the token gone): nothing kept, and nothing more.
    await widget(page).locator('.launcher').click();
    await widget(page).locator('button', { hasText: 'Sign out' }).click();
    await page.locator('.plan button', { hasText: 'Choose Team' }).click();
    assert.deepEqual(await routes(), []);
    assert.deepEqual(await page.evaluate('window.__svcSteps.recentRequests()'), []);
  });

  test('a visitor who is not signed in never loads the recorder, even reaching for the panel', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
    contexts.push(context);
    const page = await context.newPage();
    const recorder = recordRequests(page, 'widget-steps.js');
    const panel = recordRequests(page, 'widget-panel.js');
    await page.goto(stack.pageUrl({ query: 'steps=1' }));
    await widget(page).locator('.launcher').click();
    await widget(page).locator('input[type=email]').waitFor();
    await page.locator('.plan button', { hasText: 'Choose Team' }).click();
    await page.locator('#to-team').click();
    await page.waitForTimeout(500);
    assert.equal(panel.length, 1, 'the panel is loaded (the sign-in), so the page asked for chunks');
    assert.equal(recorder.length, 0, 'no recorder for a visitor');
    assert.equal(await page.evaluate(() => '__svcSteps' in window), false);
    assert.equal(await page.evaluate(`(() => { ${RECORDER_REQUESTED} })()`), false);
  });
});
