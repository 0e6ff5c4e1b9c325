// Context with every comment: captured in a real browser on a page with errors and secrets.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { call } from '../../server/test/helpers.js';
import {
  launchBrowser,
  newReviewer,
  recordRequests,
  type Stack,
  screenshot,
  signedInPage,
  startStack,
  widget,
} from './helpers.js';

describe('context and a screenshot with a new comment', () => {
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

  async function commentOn(query: string, body: string) {
    const reviewer = await newReviewer(stack, 'Cora Capture');
    const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
    contexts.push(context);
    const page = await signedInPage(context, stack, reviewer);
    // Recorded from the first request: the chunk must not load before a screenshot is asked for.
    const chunks = recordRequests(page, 'widget-screenshot.js');
    await page.goto(stack.pageUrl({ query }));
    await widget(page).locator('.launcher').waitFor();
    await page.waitForTimeout(800);
    await widget(page).locator('.launcher').click();
    await widget(page).locator('button', { hasText: 'New' }).click();
    await page.locator('#headline').click();
    await widget(page).locator('#svc-new-body').fill(body);
    assert.equal(chunks.length, 0, 'the screenshot chunk is not loaded before it is needed');
    await widget(page).locator('button[type=submit]', { hasText: 'Send' }).click();
    await widget(page).locator('.comment.highlight').waitFor();
    const list = await call(stack.api.app, 'GET', `/api/comments?q=${encodeURIComponent(body)}`, {
      token: reviewer.token,
    });
    const comment = list.body.items[0];
    return { page, reviewer, comment, chunks };
  }

  test('captured on a page with a failing request, a console error, a password field and a masked block', async () => {
    const { page, comment, chunks } = await commentOn('broken=1&tab=plans', 'Captured with context');
    assert.equal(chunks.length, 1, 'the chunk is loaded once, when the screenshot is taken');
    const context = comment.context;
    assert.equal(context.viewport.width, 1100);
    assert.match(context.url, /tab=plans/, 'the full address, query included');
    assert.match(context.browser.name, /^Chrome/);
    assert.ok(
      context.errors.some(
        (e: { kind: string; message: string }) => e.kind === 'console' && e.message.includes('Broken on purpose'),
      ),
    );
    const failed = context.errors.find((e: { kind: string }) => e.kind === 'network');
    assert.equal(failed.status, 404);
    assert.equal(failed.method, 'GET');
    assert.ok(!failed.url.includes('token'), 'never the query string');
    assert.ok(comment.screenshot, 'a screenshot is attached');
    assert.ok(comment.screenshot.bytes < 300 * 1024);

    // Read the stored image back in the page and look at its pixels.
    const [secret, masked, headline] = await Promise.all(
      ['#secret', '#masked', '#headline'].map((selector) =>
        page.locator(selector).evaluate((el) => el.getBoundingClientRect().toJSON()),
      ),
    );
    const token = (await page.evaluate((key) => localStorage.getItem(key), `svc:token:${stack.apiBase}`)) ?? '';
    const args = JSON.stringify({
      url: `${stack.apiBase}${comment.screenshot.url}`,
      token,
      regions: { secret, masked, headline },
    });
    // A string, so that the test runner's transpiler adds no helper to the code run in the page.
    const pixels = (await page.evaluate(`(async ({ url, token, regions }) => {
      const blob = await (await fetch(url, { headers: { authorization: 'Bearer ' + token } })).blob();
      const bitmap = await createImageBitmap(blob);
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const context = canvas.getContext('2d');
      context.drawImage(bitmap, 0, 0);
      const darkest = (r) => {
        const data = context.getImageData(r.left + 6, r.top + 6, r.width - 12, r.height - 12).data;
        let min = 255;
        for (let i = 0; i < data.length; i += 4) min = Math.min(min, data[i], data[i + 1], data[i + 2]);
        return min;
      };
      const at = (x, y) => [...context.getImageData(x, y, 1, 1).data].slice(0, 3);
      const all = context.getImageData(0, 0, bitmap.width, bitmap.height).data;
      let opaque = 255;
      for (let i = 3; i < all.length; i += 4) opaque = Math.min(opaque, all[i]);
      return {
        width: bitmap.width,
        opaque,
        corner: at(bitmap.width - 2, bitmap.height - 2),
        secret: darkest(regions.secret),
        masked: darkest(regions.masked),
        outline: at(regions.headline.left - 3, regions.headline.top + regions.headline.height / 2),
      };
    })(${args})`)) as {
      width: number;
      opaque: number;
      corner: number[];
      secret: number;
      masked: number;
      outline: number[];
    };
    assert.equal(pixels.width, 1100);
    // The page has no background of its own: flattened on white, readable on a dark console.
    assert.equal(pixels.opaque, 255, 'no transparent pixel');
    assert.deepEqual(pixels.corner, [255, 255, 255]);
    assert.ok(pixels.secret > 150, `no password dots in the image (darkest ${pixels.secret})`);
    assert.ok(pixels.masked > 150, `the masked block is blank (darkest ${pixels.masked})`);
    const [r, g, b] = pixels.outline as [number, number, number];
    assert.ok(r > 200 && g > 120 && g < 200 && b < 80, `the pinned element is outlined in amber (${pixels.outline})`);

    await widget(page).locator(`[data-comment="${comment.id}"] .thumb`).waitFor();
    await widget(page).locator(`#svc-details-${comment.id}`).click();
    await widget(page).locator('.details', { hasText: 'Broken on purpose' }).waitFor();
    await screenshot(page, 'context-details');
  });

  test('opt-outs: data-capture-console="false" records no console error; data-screenshot="false" leaves the box unchecked', async () => {
    const { comment, chunks } = await commentOn('broken=1&noconsole=1&noshot=1', 'Captured without console');
    assert.ok(!comment.context.errors.some((e: { kind: string }) => e.kind === 'console'));
    assert.ok(comment.context.errors.some((e: { kind: string }) => e.kind === 'network'));
    assert.equal(comment.screenshot, null);
    assert.equal(chunks.length, 0);
  });
});
