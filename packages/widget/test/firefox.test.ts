// The widget's main flows in Firefox (Debian's firefox-esr, driven over WebDriver BiDi by
// puppeteer-core), where engines differ from Chromium: picking an element and sending with a
// screenshot, marking the screenshot up by mouse (a hidden region checked in the stored
// file's pixels), the before and after card with its verdict's picture, and where a pin points
// (the end of a line's words, read from a Range's client rects).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, ElementHandle, Page } from 'puppeteer-core';
import { call } from '../../server/test/helpers.js';
import { clickInWidget, FIREFOX_MISSING, inWidget, launchFirefox, until } from './firefox-browser.js';
import {
  assertOneReadableScale,
  CONTENT_SPOT,
  commentWithScreenshot,
  cropWidth,
  DRAWN_PICTURES,
  fixedAndLive,
  newReviewer,
  pictureScales,
  pinPointsAt,
  type Stack,
  startStack,
} from './helpers.js';

type Box = { x: number; y: number; width: number; height: number };

describe('the widget in Firefox', { skip: FIREFOX_MISSING }, () => {
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

  /** A page of the stack (`url`) with `token` signed in, the widget's launcher there. */
  async function open(token: string, url = stack.pageUrl()): Promise<Page> {
    const page = await browser.newPage();
    await page.setViewport({ width: 1100, height: 760 });
    await page.evaluateOnNewDocument(
      (key, value) => {
        if (!sessionStorage.getItem('svc-test-seeded')) {
          localStorage.setItem(key, value);
          sessionStorage.setItem('svc-test-seeded', '1');
        }
      },
      `svc:token:${stack.apiBase}`,
      token,
    );
    await page.goto(url);
    await find(page, '.launcher');
    return page;
  }
  /** An element of the widget, polled for. */
  const find = (page: Page, selector: string) => until(() => page.$(inWidget(selector)));
  const click = clickInWidget;

  /** Comment `id`'s card shows before and now, both pictures drawn. */
  const showsBeforeAndNow = (page: Page, id: string) =>
    until(() =>
      page.evaluate((id) => {
        const root = document.querySelector('[data-svc-widget]')?.shadowRoot;
        const images = root?.querySelectorAll<HTMLImageElement>(`[data-comment="${id}"] .before-after img`) ?? [];
        return (
          images.length === 2 && [...images].every((image) => image.src.startsWith('blob:') && image.naturalWidth > 0)
        );
      }, id),
    );

  /**
   * How far the pixels of an image (its bytes) stray in `area` (3 px in from its edges, less
   * `origin`: where a cropped picture starts in the window): at most a few where it is hidden.
   */
  const spreadIn = (page: Page, bytes: number[], area: Box, origin = { x: 0, y: 0 }) =>
    page.evaluate(
      async (bytes, area, origin) => {
        const bitmap = await createImageBitmap(new Blob([new Uint8Array(bytes)]));
        const canvas = document.createElement('canvas');
        canvas.width = bitmap.width;
        canvas.height = bitmap.height;
        const drawing = canvas.getContext('2d') as CanvasRenderingContext2D;
        drawing.drawImage(bitmap, 0, 0);
        const data = drawing.getImageData(
          area.x + 3 - origin.x,
          area.y + 3 - origin.y,
          area.width - 6,
          area.height - 6,
        ).data;
        let widest = 0;
        for (let c = 0; c < 3; c++) {
          let [low, high] = [255, 0];
          for (let i = c; i < data.length; i += 4) {
            low = Math.min(low, data[i] ?? 0);
            high = Math.max(high, data[i] ?? 0);
          }
          widest = Math.max(widest, high - low);
        }
        return widest;
      },
      bytes,
      area,
      origin,
    );

  /** Hides `hidden` (in the window's CSS pixels) on the markup's canvas, by mouse, and keeps it. */
  async function hideOnMarkup(page: Page, hidden: Box) {
    await click(page, '#svc-markup');
    const canvas = await find(page, '.markup canvas');
    const shown = (await canvas.boundingBox()) as Box;
    const k = shown.width / (await canvas.evaluate((el) => (el as HTMLCanvasElement).width));
    await click(page, '.markup button ::-p-text(Hide)');
    await page.mouse.move(shown.x + (hidden.x - 6) * k, shown.y + (hidden.y - 6) * k);
    await page.mouse.down();
    await page.mouse.move(shown.x + (hidden.x + hidden.width + 6) * k, shown.y + (hidden.y + hidden.height + 6) * k, {
      steps: 6,
    });
    await page.mouse.up();
    await find(page, '.markup [role=status] ::-p-text(Hide added.)');
    await click(page, '.markup .done');
    await find(page, 'img.marked');
  }

  /** Writes `body` about the element `pickSelector` finds (clicked at `at` in it, else in its middle), or about the whole page. */
  async function startComment(page: Page, body: string, pickSelector: string | null, at?: { x: number; y: number }) {
    // The panel stays open after a comment is sent: the launcher would close it.
    const shown = await page.evaluate(
      () =>
        document.querySelector('[data-svc-widget]')?.shadowRoot?.querySelector<HTMLElement>('.panel')?.hidden === false,
    );
    if (!shown) await click(page, '.launcher');
    await click(page, '[role=tab]:last-of-type');
    await click(page, '[data-new]');
    if (pickSelector) await (await until(() => page.$(pickSelector))).click(at ? { offset: at } : {});
    else await click(page, '.hint button');
    await (await find(page, '#svc-new-body')).type(body);
  }
  const send = (page: Page) => click(page, 'form button[type=submit].primary');
  const commentId = (page: Page, body: string) =>
    until(() =>
      page.evaluate((text) => {
        const root = document.querySelector('[data-svc-widget]')?.shadowRoot;
        const card = [...(root?.querySelectorAll('[data-comment]') ?? [])].find((el) => el.textContent?.includes(text));
        return card?.getAttribute('data-comment') ?? null;
      }, body),
    );

  test('pick an element and send with a screenshot; mark one up (a hidden region uniform in the stored file); before and after, and the verdict’s picture', async () => {
    const reviewer = await newReviewer(stack, 'Frida Firefox');
    const page = await open(reviewer.token);
    const read = async (id: string) =>
      (await call(stack.api.app, 'GET', `/api/comments/${id}`, { token: reviewer.token })).body;

    // Pick and send: the anchor names the button, the screenshot arrives.
    await startComment(page, 'Choose Team needs a price', 'section.plans button');
    await send(page);
    const picked = await commentId(page, 'Choose Team needs a price');
    const sent = await until(async () => {
      const comment = await read(picked);
      return comment.screenshot ? comment : null;
    });
    assert.equal(sent.anchor.tag, 'button');
    assert.equal(sent.anchor.text.exact, 'Choose Team');
    assert.ok(sent.context.pinnedBox.width > 0);

    // Mark up: a region hidden by mouse over the headline.
    await startComment(page, 'The headline names a customer', null);
    const headline = (await (await page.$('#headline'))?.boundingBox()) as Box;
    const hidden = {
      x: Math.round(headline.x),
      y: Math.round(headline.y),
      width: 200,
      height: Math.round(headline.height),
    };
    await hideOnMarkup(page, hidden);
    await send(page);
    const marked = await commentId(page, 'The headline names a customer');
    await until(async () => (await read(marked)).screenshot);
    const stored = await stack.api.app.inject({
      method: 'GET',
      url: `/api/comments/${marked}/screenshot`,
      headers: { authorization: `Bearer ${reviewer.token}` },
    });
    const spread = await spreadIn(page, [...stored.rawPayload], hidden);
    assert.ok(spread <= 12, `the hidden region is uniform in the stored file (spread ${spread})`);

    // Before and after: the fix of the picked comment waits for this reviewer's verdict.
    await call(stack.api.app, 'POST', `/api/comments/${picked}/apply`, { token: stack.admin.token, body: {} });
    await showsBeforeAndNow(page, picked);
    await click(page, `[data-comment="${picked}"] .btn.ok`);
    const afterImage = await until(async () =>
      (await read(picked)).images.find((image: { kind: string }) => image.kind === 'after'),
    );
    const verified = (await read(picked)).timeline.find((event: { kind: string }) => event.kind === 'verified');
    assert.equal(afterImage.eventId, verified.id);
  });

  test('what the reviewer hid stays hidden in the stored screenshot, the picture of now kept while the fix waits, and the verdict’s picture', async () => {
    const reviewer = await newReviewer(stack, 'Helga Hidden');
    const page = await open(reviewer.token);
    const read = async (id: string) =>
      (await call(stack.api.app, 'GET', `/api/comments/${id}`, { token: reviewer.token })).body;
    const bytesOf = async (url: string) => [
      ...(await stack.api.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${reviewer.token}` } }))
        .rawPayload,
    ];
    // The Team plan's card, picked by its padding; its title stands for a customer's name.
    const planSelector = 'section.plans .plan:nth-of-type(2)';
    await startComment(page, 'This card names a customer', planSelector, { x: 4, y: 4 });
    const plan = (await page.$(planSelector)) as ElementHandle;
    const title = (await (await plan.$('h2'))?.boundingBox()) as Box;
    const hidden = { x: Math.round(title.x), y: Math.round(title.y), width: 120, height: Math.round(title.height) };
    await hideOnMarkup(page, hidden);
    await send(page);
    const id = await commentId(page, 'This card names a customer');
    await until(async () => (await read(id)).screenshot);
    assert.ok((await spreadIn(page, await bytesOf(`/api/comments/${id}/screenshot`), hidden)) <= 12, 'the screenshot');

    // Cropped around the card, 48 px of room.
    await call(stack.api.app, 'POST', `/api/comments/${id}/apply`, { token: stack.admin.token, body: {} });
    const box = (await plan.boundingBox()) as Box;
    const crop = { x: Math.max(0, Math.floor(box.x - 48)), y: Math.max(0, Math.floor(box.y - 48)) };
    const now = await until(async () =>
      (await read(id)).images.find((image: { kind: string }) => image.kind === 'now'),
    );
    assert.ok((await spreadIn(page, await bytesOf(now.url), hidden, crop)) <= 12, 'the picture of now');
    await showsBeforeAndNow(page, id);
    await click(page, `[data-comment="${id}"] .btn.ok`);
    const verdict = await until(async () =>
      (await read(id)).images.find((image: { kind: string }) => image.kind === 'after'),
    );
    assert.ok((await spreadIn(page, await bytesOf(verdict.url), hidden, crop)) <= 12, 'the verdict’s picture');
  });

  test('a fix Live that reworded a button and removed an offer: the button found again, before and now, its picture of now kept; the offer said gone, with Point at it again', async () => {
    const reviewer = await newReviewer(stack, 'Fiona Fix');
    const page = await open(reviewer.token, stack.pageUrl({ query: 'release=first' }));
    const read = async (id: string) =>
      (await call(stack.api.app, 'GET', `/api/comments/${id}`, { token: reviewer.token })).body;
    const pinned = async (body: string, selector: string) => {
      await startComment(page, body, selector);
      await send(page);
      const id = await commentId(page, body);
      await until(async () => (await read(id)).screenshot);
      return id;
    };
    const order = await pinned('Say Place your order', '#order');
    const offer = await pinned('The Sunday offer ended', 'section.menu .offer');
    await fixedAndLive(stack, [order, offer], 'f1f0c0def1f0c0def1f0c0def1f0c0def1f0c0de');

    await page.goto(stack.pageUrl({ query: 'release=next' }));
    await click(page, '.launcher');
    await click(page, '[role=tab]:last-of-type');
    const again = await find(page, `#svc-point-again-${offer}`);
    assert.match(
      (await again.evaluate((button) => button.closest('.gone')?.textContent)) ?? '',
      /isn’t here any more — the fix may have changed or removed it/,
    );
    // Found again by its id, though its label is the fix's.
    await showsBeforeAndNow(page, order);
    await until(async () => (await read(order)).images.find((image: { kind: string }) => image.kind === 'now'));
  });

  test('a pin beside its headline’s words, not at the page’s edge; before and now at one scale, large enough to read, and full size', async () => {
    const reviewer = await newReviewer(stack, 'Fern Firefox');
    const window = { width: 1100, height: 760 };
    const then = await browser.newPage();
    await then.setViewport(window);
    await then.goto(stack.pageUrl());
    const pinnedBox = (await (await then.$('#headline'))?.boundingBox()) as {
      x: number;
      y: number;
      width: number;
      height: number;
    };
    const picture = await then.screenshot();
    await then.close();
    const id = await commentWithScreenshot(stack, reviewer, {
      body: 'The headline is hard to read',
      selector: '#headline',
      picture,
      viewport: window,
      pinnedBox,
    });
    await call(stack.api.app, 'POST', `/api/comments/${id}/apply`, { token: stack.admin.token, body: {} });
    const page = await open(reviewer.token);

    const pin = (await (await find(page, `[data-pin="${id}"]`)).boundingBox()) as { x: number; y: number };
    const words = await page.evaluate((body) => {
      const el = document.querySelector('#headline') as Element;
      const box = el.getBoundingClientRect();
      const spot = new Function('el', body)(el) as { dx: number; dy: number };
      return { x: box.x + spot.dx, y: box.y + spot.dy, right: box.right };
    }, CONTENT_SPOT);
    assert.ok(pinPointsAt(pin, words), `the pin at ${pin.x},${pin.y}, the words' end at ${words.x},${words.y}`);
    assert.ok(pin.x < words.right - 200, 'not at the page’s edge');

    await click(page, '.launcher');
    await click(page, '[role=tab]:last-of-type');
    await showsBeforeAndNow(page, id);
    const shown = cropWidth(pinnedBox, window.width);
    const scales = () =>
      pictureScales(() => page.evaluate(`(() => {${DRAWN_PICTURES}})()`) as Promise<number[]>, [shown, shown]);
    const fit = await scales();
    await click(page, `#svc-full-size-${id}`);
    await find(page, `#svc-full-size-${id}[aria-pressed=true]`);
    assertOneReadableScale(fit, await scales());
  });
});
