// A client's visit, as a usability report found it: the first visit bare (a round button, "No
// updates yet", "Commit 08ff9ce" linking to a private repository), a headline's pin at the
// page's edge, before and now too small to judge. Here: a welcome that says what this is and
// how to pin, once per person; updates in a client's words with the way to check a fix, and
// commits for the team only; pins beside their element's content; before and now large enough
// to read, at one scale, openable full size, on a 390 px phone too.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { call, type Member } from '../../server/test/helpers.js';
import {
  contentPoint,
  launchBrowser,
  newReviewer,
  openWidget,
  type Stack,
  screenshot,
  startStack,
  widget,
} from './helpers.js';

describe('a client’s visit', () => {
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

  /** A comment by `author` pinned to `selector` of `path`. */
  async function pinned(author: Member, body: string, selector: string, path = '/pricing') {
    const answer = await call(stack.api.app, 'POST', `/api/projects/${stack.projectKey}/comments`, {
      token: author.token,
      body: { body, pageUrl: `${stack.pageOrigin}${path}`, anchor: { selector, x: 4, y: 4 } },
    });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    return answer.body as { id: string };
  }

  /** Where the pin of comment `id` points: its tail, 6 px in from its left and 20 px down (see the pin's style). */
  async function pinPoint(page: Page, id: string) {
    const box = await widget(page).locator(`[data-pin="${id}"]`).boundingBox();
    assert.ok(box, `pin ${id} shown`);
    return { x: box.x + 6, y: box.y + 20 };
  }

  test('a pin sits where its element’s content is: at the end of a headline’s first line, not at the page’s edge; a button’s and an image’s at their corner; it keeps its place as the page scrolls', async () => {
    const reviewer = await newReviewer(stack, 'Pia Pins');
    const targets = {
      headline: '#headline',
      wrapped: '#wrapped',
      rtl: '#rtl',
      button: 'section.plans > div:nth-of-type(2) > button',
      image: '#logo',
    };
    const ids = new Map<string, string>();
    for (const [name, selector] of Object.entries(targets))
      ids.set(name, (await pinned(reviewer, `Pinned to the ${name}`, selector)).id);
    const page = await openWidget(browser, stack, reviewer, contexts);
    // The page's own script adds a paragraph that wraps, a heading written right to left and an
    // image, then room to scroll: late content, whose pins come when it does.
    await page.evaluate(() => {
      const more = document.createElement('section');
      more.innerHTML = `<p id="wrapped" style="width:240px">Every plan includes unlimited projects and priority support for the whole team.</p>
        <h2 id="rtl" dir="rtl">خطط بسيطة</h2>
        <img id="logo" alt="Logo" width="120" height="48" src="data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' width='120' height='48'%3E%3Crect width='120' height='48' fill='%234f46e5'/%3E%3C/svg%3E">
        <div style="height:1600px"></div>`;
      document.body.append(more);
    });
    for (const id of ids.values()) await widget(page).locator(`[data-pin="${id}"]`).waitFor({ timeout: 10_000 });
    const check = async (when: string) => {
      // Layout settles within a frame or two of a change.
      await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
      for (const [name, selector] of Object.entries(targets)) {
        const expected = await contentPoint(page.locator(selector));
        const actual = await pinPoint(page, ids.get(name) ?? '');
        const dx = actual.x - expected.x;
        const dy = actual.y - expected.y;
        if (expected.rtl) {
          // Beside the line's start on its left, not over its words.
          assert.ok(
            dx <= 0 && dx >= -32 && Math.abs(dy) <= 3,
            `${when}: rtl pin ${JSON.stringify(actual)} vs ${JSON.stringify(expected)}`,
          );
        } else {
          assert.ok(
            Math.abs(dx) <= 3 && Math.abs(dy) <= 3,
            `${when}: ${name} pin ${JSON.stringify(actual)} vs ${JSON.stringify(expected)}`,
          );
        }
      }
      const headline = await page.locator('#headline').boundingBox();
      const pin = await pinPoint(page, ids.get('headline') ?? '');
      assert.ok(headline && pin.x < headline.x + headline.width - 200, `${when}: not at the page's edge (${pin.x})`);
    };
    await check('on arrival');
    await screenshot(page, 'pins-beside-content');
    await page.mouse.wheel(0, 180);
    await page.waitForFunction(() => scrollY >= 180);
    await check('scrolled');
    await page.setViewportSize({ width: 700, height: 760 });
    await check('in a narrower window');
  });
});
