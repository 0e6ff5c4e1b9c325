// Pictures that show the problem and prove the fix. Marking up the screenshot before sending: by mouse, touch and keyboard, with undo; what is
// hidden is painted over in the file sent (its pixels never leave the browser); the markup is
// a chunk of its own, loaded when markup starts. Checked on the stored file's pixels.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { seriousViolations } from '../../console/test/helpers.js';
import { call } from '../../server/test/helpers.js';
import { launchBrowser, newReviewer, openWidget, type Stack, screenshot, startStack, widget } from './helpers.js';

type Box = { x: number; y: number; width: number; height: number };

describe('marking up the screenshot, and before and after', () => {
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

  const markupLoaded = (page: Page) =>
    page.evaluate(() =>
      performance.getEntriesByType('resource').some((entry) => entry.name.endsWith('/widget-markup.js')),
    );

  /** Scrolls the panel to `target`, found again if the panel was drawn again under it. */
  async function scrollPanelTo(target: Locator): Promise<void> {
    for (let tries = 1; ; tries++) {
      const scrolled = await target.scrollIntoViewIfNeeded({ timeout: 5000 }).then(
        () => true,
        (error) => {
          if (tries >= 3) throw error;
          return false;
        },
      );
      if (scrolled) return;
    }
  }

  /** Opens + New: the hint says to pick an element. */
  async function startPicking(page: Page): Promise<void> {
    await widget(page).locator('.launcher').click();
    await widget(page).locator('[role=tab]', { hasText: 'Comments' }).click();
    await widget(page).locator('button', { hasText: 'New' }).click();
    await widget(page).locator('.hint').waitFor();
  }

  /** Opens + New on the whole page and writes `body`; the form. */
  async function newComment(page: Page, body: string): Promise<Locator> {
    await startPicking(page);
    await widget(page).locator('.hint button', { hasText: 'Whole page' }).click();
    const form = widget(page).locator('form', { has: page.locator('#svc-new-body') });
    await form.locator('#svc-new-body').fill(body);
    return form;
  }

  /** Pixels of an image (its bytes) in a region: how many, and how far each channel strays from `like`. */
  const region = (page: Page, bytes: number[], area: Box) =>
    page.evaluate(
      async ({ bytes, area }) => {
        const bitmap = await createImageBitmap(new Blob([new Uint8Array(bytes)]));
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const drawing = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D;
        drawing.drawImage(bitmap, 0, 0);
        const data = drawing.getImageData(area.x, area.y, area.width, area.height).data;
        const pixels: [number, number, number][] = [];
        for (let i = 0; i < data.length; i += 4) pixels.push([data[i] ?? 0, data[i + 1] ?? 0, data[i + 2] ?? 0]);
        return { width: bitmap.width, pixels };
      },
      { bytes, area },
    );
  const spread = (pixels: [number, number, number][]) =>
    Math.max(
      ...[0, 1, 2].map(
        (c) => Math.max(...pixels.map((p) => p[c] as number)) - Math.min(...pixels.map((p) => p[c] as number)),
      ),
    );
  const isRed = ([r, g, b]: [number, number, number]) => r > 170 && g < 90 && b < 90;
  const isYellow = ([r, g, b]: [number, number, number]) => r > 200 && g > 170 && b < 110;

  test('by mouse, touch and keyboard, with undo: the hidden region is uniform in the stored file where the page had text; its chunk loads when markup starts', async () => {
    const reviewer = await newReviewer(stack, 'Mara Markup');
    const page = await openWidget(browser, stack, reviewer, contexts, { viewport: { width: 1100, height: 760 } });
    const form = await newComment(page, 'The headline gives away a customer’s name');
    assert.equal(await markupLoaded(page), false, 'not loaded before markup starts');
    await form.locator('#svc-markup').click();
    const dialog = widget(page).getByRole('dialog', { name: 'Mark up the screenshot' });
    await dialog.waitFor();
    assert.equal(await markupLoaded(page), true);
    assert.deepEqual(await seriousViolations(page, '[data-svc-widget]'), [], 'the markup dialog');
    const canvas = dialog.locator('canvas');
    const shown = (await canvas.boundingBox()) as Box;
    const imageWidth = await canvas.evaluate((el) => (el as HTMLCanvasElement).width);
    assert.equal(imageWidth, 1100, 'the viewport at its own size');
    // Image pixels (the page's, here) to where the dialog shows them.
    const k = shown.width / imageWidth;
    const at = (x: number, y: number) => [shown.x + x * k, shown.y + y * k] as const;
    const drag = async (from: readonly [number, number], to: readonly [number, number]) => {
      await page.mouse.move(...at(...from));
      await page.mouse.down();
      await page.mouse.move(...at(...to), { steps: 6 });
      await page.mouse.up();
    };
    const status = dialog.getByRole('status');

    // The headline, hidden by mouse: in the picture the page had its text there.
    const headline = (await page.locator('#headline').boundingBox()) as Box;
    const hidden = {
      x: Math.round(headline.x),
      y: Math.round(headline.y),
      width: 200,
      height: Math.round(headline.height),
    };
    const before = await canvas.evaluate(
      (el, area) =>
        Array.from(
          (el as HTMLCanvasElement).getContext('2d')?.getImageData(area.x, area.y, area.width, area.height).data ?? [],
        ),
      hidden,
    );
    const beforePixels: [number, number, number][] = [];
    for (let i = 0; i < before.length; i += 4)
      beforePixels.push([before[i] ?? 0, before[i + 1] ?? 0, before[i + 2] ?? 0]);
    assert.ok(spread(beforePixels) > 100, 'the headline’s text is there before');
    await dialog.getByRole('button', { name: 'Hide' }).click();
    await drag([hidden.x - 6, hidden.y - 6], [hidden.x + hidden.width + 6, hidden.y + hidden.height + 6]);
    await status.filter({ hasText: 'Hide added.' }).waitFor();

    // A yellow box where the page is empty, undone.
    await dialog.getByRole('button', { name: 'Yellow' }).click();
    await dialog.getByRole('button', { name: 'Box', exact: true }).click();
    await drag([700, 560], [900, 680]);
    await status.filter({ hasText: 'Box added.' }).waitFor();
    await dialog.getByRole('button', { name: 'Undo' }).click();
    await status.filter({ hasText: 'Undone.' }).waitFor();

    // A red box by keyboard: from the cursor (the middle), 100 px right and 50 down.
    await dialog.getByRole('button', { name: 'Red', exact: true }).click();
    await canvas.focus();
    await page.keyboard.press('Enter');
    await status.filter({ hasText: 'Mark started' }).waitFor();
    for (let i = 0; i < 10; i++) await page.keyboard.press('ArrowRight');
    for (let i = 0; i < 5; i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await status.filter({ hasText: 'Box added.' }).waitFor();
    // Escape drops a mark begun, and leaves the dialog open.
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('Escape');
    assert.equal(await dialog.isVisible(), true);

    // An arrow by touch.
    await dialog.getByRole('button', { name: 'Arrow' }).click();
    const cdp = await page.context().newCDPSession(page);
    const touch = async (type: 'touchStart' | 'touchMove' | 'touchEnd', point?: readonly [number, number]) =>
      cdp.send('Input.dispatchTouchEvent', {
        type,
        touchPoints: point ? [{ x: point[0], y: point[1] }] : [],
      });
    await touch('touchStart', at(450, 150));
    for (let i = 1; i <= 5; i++) await touch('touchMove', at(450 + i * 30, 150 + i * 20));
    await touch('touchEnd');
    await status.filter({ hasText: 'Arrow added.' }).waitFor();
    // A text, typed in its field and placed by a click.
    await dialog.getByRole('button', { name: 'Text', exact: true }).click();
    await dialog.getByRole('textbox', { name: 'Text to place' }).fill('Wrong price');
    await page.mouse.click(...at(420, 470));
    await status.filter({ hasText: 'Text added.' }).waitFor();
    await screenshot(page, 'markup-dialog');

    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });
    await form.locator('img.marked').waitFor();
    assert.equal(await form.locator('#svc-markup').textContent(), 'Mark it up again');
    assert.equal(await form.locator('#svc-new-shot').isChecked(), true);
    await form.locator('button[type=submit]', { hasText: 'Send' }).click();
    const card = widget(page).locator('[data-comment]', { hasText: 'gives away a customer' });
    await card.waitFor();
    const id = (await card.getAttribute('data-comment')) ?? '';
    let stored = await stack.api.app.inject({
      method: 'GET',
      url: `/api/comments/${id}/screenshot`,
      headers: { authorization: `Bearer ${reviewer.token}` },
    });
    for (let i = 0; i < 300 && stored.statusCode !== 200; i++) {
      await page.waitForTimeout(100);
      stored = await stack.api.app.inject({
        method: 'GET',
        url: `/api/comments/${id}/screenshot`,
        headers: { authorization: `Bearer ${reviewer.token}` },
      });
    }
    assert.equal(stored.statusCode, 200);
    const bytes = [...stored.rawPayload];
    // Hidden: one colour (the encoding's noise aside) where the text was.
    const inner = { x: hidden.x + 3, y: hidden.y + 3, width: hidden.width - 6, height: hidden.height - 6 };
    const redacted = await region(page, bytes, inner);
    assert.equal(redacted.width, 1100);
    assert.ok(spread(redacted.pixels) <= 12, `uniform where hidden (spread ${spread(redacted.pixels)})`);
    // Undone: no yellow left.
    assert.equal((await region(page, bytes, { x: 695, y: 555, width: 210, height: 130 })).pixels.some(isYellow), false);
    // By keyboard: the top edge of the red box, from (550, 380) to (650, 380).
    assert.ok((await region(page, bytes, { x: 560, y: 376, width: 80, height: 9 })).pixels.some(isRed), 'the red box');
    // By touch: the arrow's line, through (525, 200).
    assert.ok((await region(page, bytes, { x: 515, y: 190, width: 20, height: 20 })).pixels.some(isRed), 'the arrow');
    assert.ok((await region(page, bytes, { x: 420, y: 470, width: 120, height: 24 })).pixels.some(isRed), 'the text');
  });

  test('what the reviewer hid stays hidden in every later picture of the comment: the stored screenshot, the picture of now kept while the fix waits, the verdict’s; shown in one only when its author uncovers it', async () => {
    const reviewer = await newReviewer(stack, 'Hana Hidden');
    const page = await openWidget(browser, stack, reviewer, contexts, { viewport: { width: 1100, height: 760 } });
    await startPicking(page);
    // The Team plan's card, picked by its padding; its title stands for a customer's name.
    const plan = page.locator('section.plans .plan:nth-of-type(2)');
    await plan.click({ position: { x: 4, y: 4 } });
    const form = widget(page).locator('form', { has: page.locator('#svc-new-body') });
    await form.locator('#svc-new-body').fill('This card names a customer');
    await form.locator('#svc-markup').click();
    const dialog = widget(page).getByRole('dialog', { name: 'Mark up the screenshot' });
    const canvas = dialog.locator('canvas');
    await canvas.waitFor();
    const shown = (await canvas.boundingBox()) as Box;
    const k = shown.width / (await canvas.evaluate((el) => (el as HTMLCanvasElement).width));
    const title = (await plan.locator('h2').boundingBox()) as Box;
    const hidden = { x: Math.round(title.x), y: Math.round(title.y), width: 120, height: Math.round(title.height) };
    await dialog.getByRole('button', { name: 'Hide' }).click();
    await page.mouse.move(shown.x + (hidden.x - 4) * k, shown.y + (hidden.y - 4) * k);
    await page.mouse.down();
    await page.mouse.move(shown.x + (hidden.x + hidden.width + 4) * k, shown.y + (hidden.y + hidden.height + 4) * k, {
      steps: 6,
    });
    await page.mouse.up();
    await dialog.getByRole('status').filter({ hasText: 'Hide added.' }).waitFor();
    await dialog.getByRole('button', { name: 'Done' }).click();
    await form.locator('img.marked').waitFor();
    await form.locator('button[type=submit]', { hasText: 'Send' }).click();
    const card = widget(page).locator('[data-comment]', { hasText: 'names a customer' });
    await card.waitFor();
    const id = (await card.getAttribute('data-comment')) ?? '';
    const read = async () => (await call(stack.api.app, 'GET', `/api/comments/${id}`, { token: reviewer.token })).body;
    const bytesOf = async (url: string) => [
      ...(await stack.api.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${reviewer.token}` } }))
        .rawPayload,
    ];
    /** The spread of the title's pixels in a picture of the window cropped at `origin`: uniform where hidden. */
    const spreadIn = async (bytes: number[], origin = { x: 0, y: 0 }) =>
      spread(
        (
          await region(page, bytes, {
            x: hidden.x + 3 - origin.x,
            y: hidden.y + 3 - origin.y,
            width: hidden.width - 6,
            height: hidden.height - 6,
          })
        ).pixels,
      );
    for (let i = 0; i < 300 && !(await read()).screenshot; i++) await page.waitForTimeout(100);
    assert.ok((await spreadIn(await bytesOf(`/api/comments/${id}/screenshot`))) <= 12, 'hidden in the screenshot');

    // The fix waits for the author's verdict: the card's picture of now, cropped around the
    // card (48 px of room), is kept on the server; the title is painted over in it.
    await call(stack.api.app, 'POST', `/api/comments/${id}/apply`, {
      token: stack.admin.token,
      body: { commitSha: 'abc1234' },
    });
    const box = (await plan.boundingBox()) as Box;
    const crop = { x: Math.max(0, Math.floor(box.x - 48)), y: Math.max(0, Math.floor(box.y - 48)) };
    const keptNow = async (other?: string) => {
      for (let i = 0; i < 300; i++) {
        const now = (await read()).images.find((image: { kind: string; id: string }) => image.kind === 'now');
        if (now && now.id !== other) return now as { id: string; url: string };
        await page.waitForTimeout(100);
      }
      throw new Error('no picture of now kept');
    };
    const now = await keptNow();
    assert.ok((await spreadIn(await bytesOf(now.url), crop)) <= 12, 'hidden in the picture of now');
    const compare = card.getByRole('group', { name: 'Before and now' });
    await compare.locator('figure', { hasText: 'Now' }).locator('img[src^="blob:"]').waitFor();
    const note = compare.locator('.hidden-note');
    assert.match((await note.textContent()) ?? '', /What you hid on your screenshot stays hidden here/);
    assert.deepEqual(await seriousViolations(page, '[data-svc-widget]'), [], 'the card saying what stays hidden');
    // The list may be drawn again meanwhile (its refresh): scrolled to the note as drawn then.
    await scrollPanelTo(note);
    await screenshot(page, 'hidden-stays-hidden');

    // Shown, knowingly: this picture is taken again without the cover, and kept so.
    await note.getByRole('button', { name: 'Show it in this picture (your team will see it)' }).click();
    const uncovered = await keptNow(now.id);
    assert.ok((await spreadIn(await bytesOf(uncovered.url), crop)) > 100, 'the title is there once uncovered');
    await note.filter({ hasText: 'is shown in this picture' }).waitFor();
    // And hidden again: taken again with it, and kept so.
    await note.getByRole('button', { name: 'Hide it again' }).click();
    const coveredAgain = await keptNow(uncovered.id);
    assert.ok((await spreadIn(await bytesOf(coveredAgain.url), crop)) <= 12, 'hidden again');

    await card.locator('button', { hasText: 'Verified' }).click();
    let verdict: { url: string } | undefined;
    for (let i = 0; i < 300 && !verdict; i++) {
      verdict = (await read()).images.find((image: { kind: string }) => image.kind === 'after');
      if (!verdict) await page.waitForTimeout(100);
    }
    assert.ok(verdict, 'the verdict’s picture is kept');
    assert.ok((await spreadIn(await bytesOf(verdict.url), crop)) <= 12, 'hidden in the verdict’s picture');
  });

  test('on a 390 px phone the dialog fits, its tools wrap, and Escape on the canvas closes it with nothing kept', async () => {
    const reviewer = await newReviewer(stack, 'Pia Phone');
    const page = await openWidget(browser, stack, reviewer, contexts, { viewport: { width: 390, height: 844 } });
    const form = await newComment(page, 'Marked on a phone');
    await form.locator('#svc-markup').click();
    const dialog = widget(page).getByRole('dialog', { name: 'Mark up the screenshot' });
    await dialog.waitFor();
    const overflow = await page.evaluate(() => {
      const host = document.querySelector('[data-svc-widget]') as HTMLElement;
      const bar = host.shadowRoot?.querySelector('.markup .bar') as HTMLElement;
      return bar.scrollWidth - bar.clientWidth;
    });
    assert.ok(overflow <= 0, `the toolbar fits (${overflow})`);
    assert.deepEqual(await seriousViolations(page, '[data-svc-widget]'), [], 'the dialog on a phone');
    await screenshot(page, 'markup-phone-390');
    await dialog.locator('canvas').focus();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    assert.equal(await form.locator('img.marked').count(), 0, 'cancelled: nothing kept');
    assert.equal(
      await form.locator('#svc-markup').evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement),
      true,
      'focus back on the button',
    );
  });

  test('before and after: the author of a fix waiting for a verdict sees the screenshot cropped around the element beside it now; Verified keeps the picture of now with the verdict', async () => {
    const reviewer = await newReviewer(stack, 'Bea Before');
    const page = await openWidget(browser, stack, reviewer, contexts, { viewport: { width: 1100, height: 760 } });
    await startPicking(page);
    await page.locator('section.plans button').click();
    const form = widget(page).locator('form', { has: page.locator('#svc-new-body') });
    await form.locator('#svc-new-body').fill('The button should say Choose Team plan');
    assert.equal(await form.locator('#svc-new-shot').isChecked(), true);
    await form.locator('button[type=submit]', { hasText: 'Send' }).click();
    const card = widget(page).locator('[data-comment]', { hasText: 'should say Choose Team plan' });
    await card.waitFor();
    const id = (await card.getAttribute('data-comment')) ?? '';
    const read = async () => (await call(stack.api.app, 'GET', `/api/comments/${id}`, { token: reviewer.token })).body;
    for (let i = 0; i < 300 && !(await read()).screenshot; i++) await page.waitForTimeout(100);
    const sent = await read();
    assert.ok(sent.screenshot, 'the screenshot arrived');
    const button = (await page.locator('section.plans button').boundingBox()) as Box;
    assert.deepEqual(
      sent.context.pinnedBox,
      { x: button.x, y: button.y, width: button.width, height: button.height },
      'where the element was in the window',
    );
    await call(stack.api.app, 'POST', `/api/comments/${id}/apply`, {
      token: stack.admin.token,
      body: { commitSha: 'abc1234' },
    });
    const compare = card.getByRole('group', { name: 'Before and now' });
    await compare.waitFor({ timeout: 30000 });
    await compare.locator('figure', { hasText: 'Before' }).locator('img[src^="blob:"]').waitFor();
    await compare.locator('figure', { hasText: 'Now' }).locator('img[src^="blob:"]').waitFor();
    const sizes = await compare
      .locator('img')
      .evaluateAll((images) =>
        images.map((image) => [(image as HTMLImageElement).naturalWidth, (image as HTMLImageElement).naturalHeight]),
      );
    for (const [width, height] of sizes) {
      assert.ok((width ?? 0) < 400 && (height ?? 0) < 300, `cropped around the element (${width}×${height})`);
    }
    assert.deepEqual(await seriousViolations(page, '[data-svc-widget]'), [], 'before and now');
    await screenshot(page, 'before-and-now');
    await card.locator('button', { hasText: 'Verified' }).click();
    let after: { kind: string; eventId: string } | undefined;
    for (let i = 0; i < 300 && !after; i++) {
      after = (await read()).images.find((image: { kind: string }) => image.kind === 'after');
      if (!after) await page.waitForTimeout(100);
    }
    const verified = (await read()).timeline.find((event: { kind: string }) => event.kind === 'verified');
    assert.equal(after?.eventId, verified.id, 'kept with the verdict');
  });
});
