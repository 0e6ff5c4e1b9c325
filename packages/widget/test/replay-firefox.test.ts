// Replays in Firefox (firefox-esr over WebDriver BiDi, as firefox.test.ts drives it): a reviewer
// clicks, types a secret and a password, changes route and pins; the stored replay holds the
// clicks, the route and the pin, and nothing typed or masked (replay-check.ts). A visitor's page
// asks for no recorder.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'puppeteer-core';
import { call } from '../../server/test/helpers.js';
import { clickInWidget, FIREFOX_MISSING, inWidget, launchFirefox, until, widgetPage } from './firefox-browser.js';
import { newReviewer, type Stack, startStack } from './helpers.js';
import { assertReplayKept, REVIEWER_ACTS } from './replay-check.js';

describe('replays in Firefox', { skip: FIREFOX_MISSING }, () => {
  let browser: Browser;
  let stack: Stack;
  before(async () => {
    stack = await startStack();
    browser = await launchFirefox();
    const on = await call(stack.api.app, 'PATCH', `/api/projects/${stack.projectKey}`, {
      token: stack.admin.token,
      body: { replay: { on: true } },
    });
    assert.equal(on.status, 200);
  });
  after(async () => {
    await browser?.close();
    await stack?.close();
  });

  const requested = (page: Page) =>
    page.evaluate(() => performance.getEntriesByType('resource').some((r) => r.name.includes('widget-replay')));
  const newPage = (token: string | null) => widgetPage(browser, stack, token, 'steps=1&broken=1');
  const click = clickInWidget;

  test('the stored replay holds the clicks, the route and the pin, never the secret typed, a password or masked text', async () => {
    const reviewer = await newReviewer(stack, 'Fenna Firefox');
    const page = await newPage(reviewer.token);
    await until(() =>
      page.evaluate(() => (window as { __svcReplay?: { running(): boolean } }).__svcReplay?.running() === true),
    );
    await page.click('.plan button');
    await page.type('#email', REVIEWER_ACTS.secret);
    await page.type('#secret', REVIEWER_ACTS.password);
    await page.click('#to-team');
    await until(() => page.evaluate(() => location.pathname === '/pricing/team'));

    await click(page, '.launcher');
    await click(page, '[data-new]');
    await until(() => page.$(inWidget('.hint')));
    await page.click('#headline');
    await until(() => page.$(inWidget('#svc-new-replay')));
    await (await until(() => page.$(inWidget('#svc-new-body')))).type('The headline in Firefox');
    await click(page, 'form button[type=submit].primary');
    const id = await until(() =>
      page.evaluate(() => {
        const root = document.querySelector('[data-svc-widget]')?.shadowRoot;
        const card = [...(root?.querySelectorAll('[data-comment]') ?? [])].find((el) =>
          el.textContent?.includes('The headline in Firefox'),
        );
        return card?.getAttribute('data-comment') ?? null;
      }),
    );
    await until(async () => {
      const comment = await call(stack.api.app, 'GET', `/api/comments/${id}`, { token: stack.admin.token });
      return comment.body.replay !== null;
    });
    await assertReplayKept(stack, id);
  });

  test('a visitor who is not signed in never asks for the recorder', async () => {
    const page = await newPage(null);
    await click(page, '.launcher');
    await until(() => page.$(inWidget('input[type=email]')));
    await page.click('.plan button');
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
    assert.equal(await requested(page), false);
    assert.equal(await page.evaluate(() => '__svcReplay' in window), false);
  });
});
