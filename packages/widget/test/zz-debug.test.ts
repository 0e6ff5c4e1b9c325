import { after, before, test } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { appliedComment, launchBrowser, newReviewer, openWidget, type Stack, startStack, widget } from './helpers.js';

let browser: Browser;
let stack: Stack;
const contexts: BrowserContext[] = [];
before(async () => {
  browser = await launchBrowser();
  stack = await startStack();
});
after(async () => {
  for (const c of contexts) await c.close();
  await browser?.close();
  await stack?.close();
});
test('debug', async () => {
  const reviewer = await newReviewer(stack, 'ليلى');
  await appliedComment(stack, reviewer, { body: 'x' });
  await appliedComment(stack, reviewer, { body: 'y' });
  const page = await openWidget(browser, stack, reviewer, contexts, {
    url: stack.pageUrl({ query: 'locale=ar' }),
    viewport: { width: 1200, height: 800 },
  });
  page.on('pageerror', (e) => console.log('PAGEERROR', e.message));
  page.on('console', (m) => console.log('CONSOLE', m.text()));
  await new Promise((r) => setTimeout(r, 4000));
  console.log(
    await widget(page).evaluate(
      (host) =>
        JSON.stringify(host.shadowRoot!.querySelector('.badge')!.getBoundingClientRect()) +
        JSON.stringify(host.shadowRoot!.querySelector('.launcher')!.getBoundingClientRect()) +
        getComputedStyle(host).direction +
        ' ' +
        host.getAttribute('lang'),
    ),
  );
  const unread = await fetch(`${stack.apiBase}/api/me/notifications/unread-count`, {
    headers: { authorization: `Bearer ${reviewer.token}` },
  });
  console.log(unread.status, await unread.text());
});
