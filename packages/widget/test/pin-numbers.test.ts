// A pin's number is the server's (the comment's `pin`), not the widget's own count of what it
// loaded: with the list filtered, a comment keeps the number the console shows for it.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { call } from '../../server/test/helpers.js';
import { appliedComment, launchBrowser, openWidget, type Stack, startStack, widget } from './helpers.js';

describe('pin numbers', () => {
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

  test('a list filtered to the open comments numbers a comment as the server does: the fixed one before it still counts', async () => {
    await appliedComment(stack, stack.author, { body: 'Fixed first', selector: '#headline' });
    const open = await call(stack.api.app, 'POST', `/api/projects/${stack.projectKey}/comments`, {
      token: stack.author.token,
      body: {
        body: 'Still open',
        pageUrl: `${stack.pageOrigin}/pricing`,
        anchor: { selector: 'section.plans > div:nth-of-type(2) > p', x: 4, y: 4 },
      },
    });
    assert.equal(open.body.pin, 2, 'the server numbers it second on its page');

    const page = await openWidget(browser, stack, stack.author, contexts);
    await widget(page).locator('.launcher').click();
    await widget(page).locator('#svc-tab-comments').click();
    await widget(page).locator('#svc-filter-open').click();
    const card = widget(page).locator(`[data-comment="${open.body.id}"]`);
    await widget(page).locator('#svc-filter-open[aria-pressed="true"]').waitFor();
    await widget(page).locator('[data-comment]').filter({ hasText: 'Fixed first' }).waitFor({ state: 'detached' });
    await card.locator('.number').waitFor();
    assert.equal(await card.locator('.number').textContent(), '2', 'its card');
    // The pins are drawn anew as their elements are found: read the one drawn once it is.
    const pin = await page.waitForFunction((id) => {
      const drawn = document.querySelector('[data-svc-widget]')?.shadowRoot?.querySelector(`.pin[data-pin="${id}"]`);
      return drawn ? { text: drawn.textContent, label: drawn.getAttribute('aria-label') } : null;
    }, open.body.id);
    const { text, label } = (await pin.jsonValue()) as { text: string; label: string };
    assert.equal(text, '2', 'its pin');
    assert.match(label, /^Comment 2 by Rita Reviewer/);
  });
});
