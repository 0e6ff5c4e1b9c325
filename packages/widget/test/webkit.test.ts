// The widget's main flows in WebKit, Safari's engine: Debian's WebKitGTK MiniBrowser, driven by
// its WebKitWebDriver (classic WebDriver, through selenium-webdriver) under xvfb-run. The same
// flows as in Firefox: pick an element and send with a screenshot, mark one up by mouse (a
// hidden region checked in the stored file's pixels), before and after with the verdict's picture,
// and where a pin points (the end of a line's words, read from a Range's client rects).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { By, type WebDriver } from 'selenium-webdriver';
import { call } from '../../server/test/helpers.js';
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
import { startWebKit, until, WEBKIT_MISSING, widgetIn } from './webkit-driver.js';

type Box = { x: number; y: number; width: number; height: number };

describe('the widget in WebKit', { skip: WEBKIT_MISSING && `no ${WEBKIT_MISSING}` }, () => {
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

  const { find, fresh, click, inPage } = widgetIn(() => browser);

  /** Comment `id`'s card shows before and now, both pictures drawn. */
  const showsBeforeAndNow = (id: string) =>
    until(() =>
      inPage<boolean>(
        `const images = document.querySelector('[data-svc-widget]').shadowRoot
           .querySelectorAll('[data-comment="' + arguments[0] + '"] .before-after img');
         return images.length === 2 && [...images].every((image) => image.src.startsWith('blob:') && image.naturalWidth > 0);`,
        id,
      ),
    );

  /**
   * How far the pixels of an image (its bytes) stray in `area` (3 px in from its edges, less
   * `origin`: where a cropped picture starts in the window): at most a few where it is hidden.
   */
  const spreadIn = (bytes: number[], area: Box, origin = { x: 0, y: 0 }) =>
    inPage<number>(
      `const [bytes, area, origin] = arguments;
       return createImageBitmap(new Blob([new Uint8Array(bytes)])).then((bitmap) => {
         const canvas = document.createElement('canvas');
         canvas.width = bitmap.width;
         canvas.height = bitmap.height;
         const drawing = canvas.getContext('2d');
         drawing.drawImage(bitmap, 0, 0);
         const data = drawing.getImageData(area.x + 3 - origin.x, area.y + 3 - origin.y, area.width - 6, area.height - 6).data;
         let widest = 0;
         for (let c = 0; c < 3; c++) {
           let low = 255, high = 0;
           for (let i = c; i < data.length; i += 4) { low = Math.min(low, data[i]); high = Math.max(high, data[i]); }
           widest = Math.max(widest, high - low);
         }
         return widest;
       });`,
      bytes,
      area,
      origin,
    );

  /** Hides `hidden` (in the window's CSS pixels) on the markup's canvas, by mouse, and keeps it. */
  async function hideOnMarkup(hidden: Box) {
    await click('#svc-markup');
    const canvas = await find('.markup canvas');
    const shown = await canvas.getRect();
    const imageWidth = await inPage<number>(
      "return document.querySelector('[data-svc-widget]').shadowRoot.querySelector('.markup canvas').width",
    );
    const k = shown.width / imageWidth;
    for (const button of await (await find('.markup .bar')).findElements(By.css('button'))) {
      if ((await button.getText()) === 'Hide') await button.click();
    }
    const at = (x: number, y: number) => ({ x: Math.round(shown.x + x * k), y: Math.round(shown.y + y * k) });
    await browser
      .actions()
      .move(at(hidden.x - 6, hidden.y - 6))
      .press()
      .move({ ...at(hidden.x + hidden.width / 2, hidden.y + hidden.height / 2), duration: 50 })
      .move({ ...at(hidden.x + hidden.width + 6, hidden.y + hidden.height + 6), duration: 50 })
      .release()
      .perform();
    // Read as text, not as shown: the live region is for screen readers, clipped to nothing on screen.
    await until(() =>
      inPage<boolean>(
        "return document.querySelector('[data-svc-widget]').shadowRoot.querySelector('.markup [role=status]').textContent === 'Hide added.'",
      ),
    );
    await click('.markup .done');
    await find('img.marked');
  }

  /** Writes `body` about the element `pick` finds (clicked at `at` in it, else in its middle), or about the whole page. */
  async function startComment(body: string, pick: string | null, at?: { x: number; y: number }) {
    const shown = await inPage<boolean>(
      "return document.querySelector('[data-svc-widget]').shadowRoot.querySelector('.panel').hidden === false",
    );
    if (!shown) await click('.launcher');
    await click('[role=tab]:last-of-type');
    await click('[data-new]');
    await find('.hint');
    if (pick && at) {
      const { x, y } = await (await browser.findElement(By.css(pick))).getRect();
      await browser
        .actions()
        .move({ x: Math.round(x + at.x), y: Math.round(y + at.y) })
        .click()
        .perform();
    } else if (pick) await (await browser.findElement(By.css(pick))).click();
    else await click('.hint button');
    await (await find('#svc-new-body')).sendKeys(body);
  }
  const commentId = (body: string) =>
    until(() =>
      inPage<string | null>(
        `const cards = document.querySelector('[data-svc-widget]').shadowRoot.querySelectorAll('[data-comment]');
         const card = [...cards].find((el) => el.textContent.includes(arguments[0]));
         return card ? card.getAttribute('data-comment') : null;`,
        body,
      ),
    );

  test('pick an element and send with a screenshot; mark one up (a hidden region uniform in the stored file); before and after, and the verdict’s picture', async () => {
    const reviewer = await newReviewer(stack, 'Wanda WebKit');
    const read = async (id: string) =>
      (await call(stack.api.app, 'GET', `/api/comments/${id}`, { token: reviewer.token })).body;
    // Signed in as the widget keeps a session: its token in the page's storage.
    await browser.get(stack.pageUrl());
    await inPage('localStorage.setItem(arguments[0], arguments[1])', `svc:token:${stack.apiBase}`, reviewer.token);
    await browser.navigate().refresh();
    await find('.launcher');

    await startComment('Choose Team needs a price', 'section.plans button');
    await click('form button[type=submit].primary');
    const picked = await commentId('Choose Team needs a price');
    const sent = await until(async () => {
      const comment = await read(picked);
      return comment.screenshot ? comment : null;
    });
    assert.equal(sent.anchor.tag, 'button');
    assert.equal(sent.anchor.text.exact, 'Choose Team');
    // WebKit's canvas has no WebP encoder: asked for WebP it gives PNG, which is sent as it is.
    assert.equal(sent.screenshot.contentType, 'image/png');

    await startComment('The headline names a customer', null);
    const headline = await (await browser.findElement(By.css('#headline'))).getRect();
    const hidden = {
      x: Math.round(headline.x),
      y: Math.round(headline.y),
      width: 200,
      height: Math.round(headline.height),
    };
    await hideOnMarkup(hidden);
    await click('form button[type=submit].primary');
    const marked = await commentId('The headline names a customer');
    await until(async () => (await read(marked)).screenshot);
    const stored = await stack.api.app.inject({
      method: 'GET',
      url: `/api/comments/${marked}/screenshot`,
      headers: { authorization: `Bearer ${reviewer.token}` },
    });
    const spread = await spreadIn([...stored.rawPayload], hidden);
    assert.ok(spread <= 16, `the hidden region is uniform in the stored file (spread ${spread})`);

    await call(stack.api.app, 'POST', `/api/comments/${picked}/apply`, { token: stack.admin.token, body: {} });
    await showsBeforeAndNow(picked);
    await click(`[data-comment="${picked}"] .btn.ok`);
    const afterImage = await until(async () =>
      (await read(picked)).images.find((image: { kind: string }) => image.kind === 'after'),
    );
    const verified = (await read(picked)).timeline.find((event: { kind: string }) => event.kind === 'verified');
    assert.equal(afterImage.eventId, verified.id);
  });

  test('what the reviewer hid stays hidden in the stored screenshot, the picture of now kept while the fix waits, and the verdict’s picture', async () => {
    const reviewer = await newReviewer(stack, 'Hedda Hidden');
    const read = async (id: string) =>
      (await call(stack.api.app, 'GET', `/api/comments/${id}`, { token: reviewer.token })).body;
    const bytesOf = async (url: string) => [
      ...(await stack.api.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${reviewer.token}` } }))
        .rawPayload,
    ];
    await browser.get(stack.pageUrl());
    await inPage('localStorage.setItem(arguments[0], arguments[1])', `svc:token:${stack.apiBase}`, reviewer.token);
    await browser.navigate().refresh();
    await find('.launcher');
    // The Team plan's card, picked by its padding; its title stands for a customer's name.
    const plan = 'section.plans .plan:nth-of-type(2)';
    await startComment('This card names a customer', plan, { x: 4, y: 4 });
    const title = await (await browser.findElement(By.css(`${plan} h2`))).getRect();
    const hidden = { x: Math.round(title.x), y: Math.round(title.y), width: 120, height: Math.round(title.height) };
    await hideOnMarkup(hidden);
    await click('form button[type=submit].primary');
    const id = await commentId('This card names a customer');
    await until(async () => (await read(id)).screenshot);
    const screenshot = await spreadIn(await bytesOf(`/api/comments/${id}/screenshot`), hidden);
    assert.ok(screenshot <= 16, `the screenshot (spread ${screenshot})`);

    // Cropped around the card, 48 px of room.
    await call(stack.api.app, 'POST', `/api/comments/${id}/apply`, { token: stack.admin.token, body: {} });
    const box = await (await browser.findElement(By.css(plan))).getRect();
    const crop = { x: Math.max(0, Math.floor(box.x - 48)), y: Math.max(0, Math.floor(box.y - 48)) };
    const now = await until(async () =>
      (await read(id)).images.find((image: { kind: string }) => image.kind === 'now'),
    );
    const inNow = await spreadIn(await bytesOf(now.url), hidden, crop);
    assert.ok(inNow <= 16, `the picture of now (spread ${inNow})`);
    await showsBeforeAndNow(id);
    await click(`[data-comment="${id}"] .btn.ok`);
    const verdict = await until(async () =>
      (await read(id)).images.find((image: { kind: string }) => image.kind === 'after'),
    );
    const inVerdict = await spreadIn(await bytesOf(verdict.url), hidden, crop);
    assert.ok(inVerdict <= 16, `the verdict’s picture (spread ${inVerdict})`);
  });

  test('a fix Live that reworded a button and removed an offer: the button found again, before and now, its picture of now kept (PNG); the offer said gone, with Point at it again', async () => {
    const reviewer = await newReviewer(stack, 'Wes Webkit');
    const read = async (id: string) =>
      (await call(stack.api.app, 'GET', `/api/comments/${id}`, { token: reviewer.token })).body;
    await browser.get(stack.pageUrl({ query: 'release=first' }));
    await inPage('localStorage.setItem(arguments[0], arguments[1])', `svc:token:${stack.apiBase}`, reviewer.token);
    await browser.navigate().refresh();
    await find('.launcher');
    const pinned = async (body: string, selector: string) => {
      await startComment(body, selector);
      await click('form button[type=submit].primary');
      const id = await commentId(body);
      await until(async () => (await read(id)).screenshot);
      return id;
    };
    const order = await pinned('Say Place your order', '#order');
    const offer = await pinned('The Sunday offer ended', 'section.menu .offer');
    await fixedAndLive(stack, [order, offer], 'b0a7c0deb0a7c0deb0a7c0deb0a7c0deb0a7c0de');

    await browser.get(stack.pageUrl({ query: 'release=next' }));
    await click('.launcher');
    await click('[role=tab]:last-of-type');
    await find(`#svc-point-again-${offer}`);
    const said = await inPage<string>(
      `return document.querySelector('[data-svc-widget]').shadowRoot
         .querySelector('[data-comment="' + arguments[0] + '"] .gone').textContent`,
      offer,
    );
    assert.match(said, /isn’t here any more — the fix may have changed or removed it/);
    // Found again by its id, though its label is the fix's.
    await showsBeforeAndNow(order);
    const now = await until(async () =>
      (await read(order)).images.find((image: { kind: string }) => image.kind === 'now'),
    );
    assert.equal(now.contentType, 'image/png');
  });

  test('a pin beside its headline’s words, not at the page’s edge; before and now at one scale, large enough to read, and full size', async () => {
    const reviewer = await newReviewer(stack, 'Wren Webkit');
    await browser.get(stack.pageUrl());
    await find('.launcher');
    // The page as the comment's screenshot shows it: the driver's picture of the window.
    const picture = Buffer.from(await browser.takeScreenshot(), 'base64');
    const window = { width: picture.readUInt32BE(16), height: picture.readUInt32BE(20) };
    const pinnedBox = await inPage<{ x: number; y: number; width: number; height: number }>(
      "const r = document.querySelector('#headline').getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height };",
    );
    const id = await commentWithScreenshot(stack, reviewer, {
      body: 'The headline is hard to read',
      selector: '#headline',
      picture,
      viewport: window,
      pinnedBox,
    });
    await call(stack.api.app, 'POST', `/api/comments/${id}/apply`, { token: stack.admin.token, body: {} });
    await inPage('localStorage.setItem(arguments[0], arguments[1])', `svc:token:${stack.apiBase}`, reviewer.token);
    await browser.navigate().refresh();

    const pin = await fresh(`[data-pin="${id}"]`, (element) => element.getRect());
    const words = await inPage<{ x: number; y: number; right: number }>(
      `const el = document.querySelector('#headline');
       const box = el.getBoundingClientRect();
       const spot = (function (el) {${CONTENT_SPOT}})(el);
       return { x: box.x + spot.dx, y: box.y + spot.dy, right: box.right };`,
    );
    assert.ok(pinPointsAt(pin, words), `the pin at ${pin.x},${pin.y}, the words' end at ${words.x},${words.y}`);
    assert.ok(pin.x < words.right - 200, 'not at the page’s edge');

    await click('.launcher');
    await click('[role=tab]:last-of-type');
    await showsBeforeAndNow(id);
    const shown = cropWidth(pinnedBox, window.width);
    const scales = () => pictureScales(() => inPage<number[]>(DRAWN_PICTURES), [shown, shown]);
    const fit = await scales();
    await click(`#svc-full-size-${id}`);
    await find(`#svc-full-size-${id}[aria-pressed=true]`);
    assertOneReadableScale(fit, await scales());
  });
});
