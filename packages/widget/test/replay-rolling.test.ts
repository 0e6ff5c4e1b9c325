// The replay's rolling, in Chromium, on the page's own clock (advanced, never waited for): a
// still page is kept with its one full picture, moved up to the period's start, rather than a new
// one every half period (each blocks a large page for a tenth of a second or more), so what is
// held begins with that picture, the scroll of before and nothing else older than the period; a
// page that changed gets a new picture, taken when the browser is idle.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { call } from '../../server/test/helpers.js';
import { newReviewer, openWidget, widgetSuite } from './helpers.js';

interface ReplayEvent {
  type: number;
  timestamp: number;
  data: { source?: number; type?: number; y?: number; tag?: string; payload?: { from?: number } };
}
const META = 4;
const CUSTOM = 5;
const FULL_PICTURE = 2;
const INCREMENTAL = 3;
const SCROLL = 3;
const MOUSE_INTERACTION = 2;
const CLICK = 2;
const PERIOD_S = 30;

/** What the recorder holds now, as a comment would send it (ungzipped). */
const held = (page: Page) =>
  page.evaluate(async () => {
    const recorder = (window as unknown as { __svcReplay: { take(pin: unknown): Promise<Blob | null> } }).__svcReplay;
    const blob = await recorder.take({ selector: null });
    const text = await new Response(blob?.stream().pipeThrough(new DecompressionStream('gzip'))).text();
    return { events: JSON.parse(text) as ReplayEvent[] };
  });

describe('the replay rolls a still page without a new full picture, a changed one with one', () => {
  const suite = widgetSuite();

  test('a still page: one picture, moved up to the period, its scroll kept, no click older than the period; a change: a new picture', async () => {
    const stack = suite.stack();
    const set = await call(stack.api.app, 'PATCH', `/api/projects/${stack.projectKey}`, {
      token: stack.admin.token,
      body: { replay: { on: true, seconds: PERIOD_S } },
    });
    assert.equal(set.status, 200);
    const reviewer = await newReviewer(stack, 'Rolf Rolling');
    const page = await openWidget(suite.browser(), stack, reviewer, suite.contexts, { url: stack.pageUrl() });
    await page.waitForFunction(
      () => (window as { __svcReplay?: { running(): boolean } }).__svcReplay?.running() === true,
    );
    // From here on the page's clock is ours: the page again, its recorder on that clock.
    await page.clock.install();
    // Short enough for the page to scroll.
    await page.setViewportSize({ width: 1100, height: 240 });
    await page.reload();
    await page.waitForFunction(
      () => (window as { __svcReplay?: { running(): boolean } }).__svcReplay?.running() === true,
    );
    await page.locator('#headline').click();
    // The scroll heard before the clock runs on: the recorder's note of it waits on that clock
    // (a busy machine may fire the event late, and it would be noted in the period instead).
    await page.evaluate(
      () =>
        new Promise<void>((resolve) => {
          addEventListener('scroll', () => resolve(), { once: true });
          window.scrollTo(0, 120);
        }),
    );
    await page.clock.runFor(1_000);
    // Three half periods: the recorder's checkpoints at 15, 30 and 45 s.
    await page.clock.runFor((PERIOD_S * 3 * 1000) / 2);
    await page.locator('#headline').click();
    await page.clock.runFor(1_000);

    const still = await held(page);
    const pictures = still.events.filter((e) => e.type === FULL_PICTURE);
    assert.equal(pictures.length, 1, 'no new picture of a still page');
    assert.deepEqual(
      still.events.slice(0, 2).map((e) => e.type),
      [META, FULL_PICTURE],
      'the replay begins with the picture',
    );
    const first = still.events[0]?.timestamp ?? 0;
    const pin = still.events.find((e) => e.type === CUSTOM && e.data.tag === 'svc-pin');
    assert.equal(first, pin?.data.payload?.from, 'the period exactly, nothing older');
    const clicks = still.events.filter(
      (e) => e.type === INCREMENTAL && e.data.source === MOUSE_INTERACTION && e.data.type === CLICK,
    );
    assert.equal(clicks.length, 1, 'the click within the period, not the one before');
    const scroll = still.events.find((e) => e.type === INCREMENTAL && e.data.source === SCROLL);
    assert.equal(scroll?.data.y, 120, 'the scroll of before, kept');
    assert.equal(scroll?.timestamp, first, 'at the start of the period');
    const times = still.events.map((e) => e.timestamp);
    assert.deepEqual(
      times,
      [...times].sort((a, b) => a - b),
      'in order',
    );

    // The page changes: at the next checkpoint, a new picture holding the change.
    await page.evaluate(() => {
      const added = document.createElement('p');
      added.textContent = 'Added after the first picture';
      document.body.append(added);
    });
    await page.clock.runFor((PERIOD_S * 1000) / 2 + 1_000);
    const changed = await held(page);
    const newPictures = changed.events.filter((e) => e.type === FULL_PICTURE);
    assert.equal(newPictures.length, 2, 'a new picture of a changed page');
    assert.match(JSON.stringify(newPictures[1]), /Added after the first picture/);
  });
});
