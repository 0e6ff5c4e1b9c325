// A fix that changes the element its comment is pinned to: a price and a button's label
// reworded in place, a part of the page removed. Once the fix is Live, its author still finds
// the reworded ones (their pins, no "not found"), sees before and now, and verifies looking at
// both; the picture of now reaches the server once. Where the fix removed the element, the card
// says so plainly and offers to point at it again (keyboard, tapped on a phone).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { seriousViolations } from '../../console/test/helpers.js';
import { call, type Member } from '../../server/test/helpers.js';
import {
  fixedAndLive,
  launchBrowser,
  newReviewer,
  openWidget,
  recordRequests,
  type Stack,
  screenshot,
  startStack,
  widget,
} from './helpers.js';

type Image = { kind: string; eventId: string | null; commitSha: string | null };
type Comment = {
  anchor: unknown;
  screenshot: unknown;
  repinned: unknown;
  images: Image[];
  timeline: { id: string; kind: string }[];
};

const GONE = 'The part of the page you pointed at isn’t here any more — the fix may have changed or removed it.';

describe('verifying a fix that changed the pinned element', () => {
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

  /** The page as the release before the fix shows it, and as the release with the fix. */
  const release = (name: 'first' | 'next') => stack.pageUrl({ query: `release=${name}` });
  const read = async (member: Member, id: string): Promise<Comment> =>
    (await call(stack.api.app, 'GET', `/api/comments/${id}`, { token: member.token })).body;
  /** The comment as the API reads it, once `holds` is true of it. */
  async function until(member: Member, id: string, holds: (c: Comment) => boolean): Promise<Comment> {
    for (let i = 0; i < 300; i++) {
      const comment = await read(member, id);
      if (holds(comment)) return comment;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`waited 30 s for comment ${id}`);
  }

  const openComments = async (page: Page) => {
    await widget(page).locator('.launcher').click();
    await widget(page).locator('[role=tab]', { hasText: 'Comments' }).click();
  };

  /** `member` pins the element `selector` with `body`, sent with a screenshot; its id once the screenshot is stored. */
  async function pin(page: Page, member: Member, selector: string, body: string): Promise<string> {
    if (!(await widget(page).locator('[data-new]').isVisible())) await openComments(page);
    await widget(page).locator('[data-new]').click();
    await widget(page).locator('.hint').waitFor();
    await page.locator(selector).click();
    const form = widget(page).locator('form', { has: page.locator('#svc-new-body') });
    await form.locator('#svc-new-body').fill(body);
    await form.locator('button[type=submit]', { hasText: 'Send' }).click();
    const card = widget(page).locator('[data-comment]', { hasText: body });
    await card.waitFor();
    const id = (await card.getAttribute('data-comment')) ?? '';
    await until(member, id, (c) => c.screenshot !== null);
    return id;
  }

  /** The card of comment `id` shows before and now, both pictures drawn. */
  async function showsBeforeAndNow(page: Page, id: string): Promise<Locator> {
    const compare = widget(page).locator(`[data-comment="${id}"]`).getByRole('group', { name: 'Before and now' });
    await compare.locator('figure', { hasText: 'Before' }).locator('img[src^="blob:"]').waitFor({ timeout: 30000 });
    await compare.locator('figure', { hasText: 'Now' }).locator('img[src^="blob:"]').waitFor({ timeout: 30000 });
    return compare;
  }

  /**
   * Scrolls the panel to comment `id`'s card (or to `part` of it), in one step in the page: a
   * card is drawn again when the list is re-read, and a locator's scroll may hold the old one.
   */
  const scrollToCard = (page: Page, id: string, part = '') =>
    page.evaluate(
      ([id, part]) =>
        document
          .querySelector('[data-svc-widget]')
          ?.shadowRoot?.querySelector(`[data-comment="${id}"] ${part}`)
          ?.scrollIntoView({ block: 'nearest' }),
      [id, part],
    );

  /** Found: its pin is on the page, without doubt (the change was the fix's), and its card is not among those not found. */
  async function found(page: Page, id: string): Promise<void> {
    await widget(page).locator(`[data-pin="${id}"]`).waitFor({ timeout: 30000 });
    const card = widget(page).locator(`[data-comment="${id}"]`);
    assert.equal(await card.getByText('not found on this page').count(), 0, 'not said to be missing');
    assert.equal(await card.getByText('moved?').count(), 0, 'not said to have moved');
    assert.equal(await widget(page).locator(`section.missing [data-comment="${id}"]`).count(), 0, 'listed as pinned');
  }

  /**
   * A new reviewer, `name`, pins each element (selector, comment) on the release before the fix,
   * on a 1280 px screen; the fix is applied in commit `sha` and goes Live. Their page stays there.
   */
  async function pinnedThenFixed(name: string, pins: [string, string][], sha: string) {
    const author = await newReviewer(stack, name);
    const page = await openWidget(browser, stack, author, contexts, {
      url: release('first'),
      viewport: { width: 1280, height: 800 },
    });
    const ids: string[] = [];
    for (const [selector, body] of pins) ids.push(await pin(page, author, selector, body));
    await fixedAndLive(stack, ids, sha);
    return { author, page, ids };
  }

  /** The release with the fix, its comments shown. */
  async function nextRelease(page: Page): Promise<void> {
    await page.goto(release('next'));
    await openComments(page);
  }

  /** `author` on the release with the fix on a 390 px phone, its comments shown by taps. */
  async function onPhone(author: Member): Promise<Page> {
    const phone = await openWidget(browser, stack, author, contexts, {
      url: release('next'),
      viewport: { width: 390, height: 844 },
      touch: true,
    });
    await widget(phone).locator('.launcher').tap();
    await widget(phone).locator('[role=tab]', { hasText: 'Comments' }).tap();
    return phone;
  }

  test('once Live, the fix waits for its author’s verdict: before and now; the author’s picture of now kept on the server once per comment and commit; Verified keeps its own with the verdict', async () => {
    const sha = 'da7e0123da7e0123da7e0123da7e0123da7e0123';
    const { author, page, ids } = await pinnedThenFixed(
      'Vera Verdict',
      [['section.menu .dish h2', 'Say which roast the espresso is']],
      sha,
    );
    const [dish = ''] = ids;
    const sent = recordRequests(page, '/images');
    await nextRelease(page);
    await found(page, dish);
    await showsBeforeAndNow(page, dish);
    assert.deepEqual(await seriousViolations(page, '[data-svc-widget]'), [], 'before and now of a Live fix');
    await scrollToCard(page, dish);
    await screenshot(page, 'fixed-live-before-and-now-1280');
    const kept = await until(author, dish, (c) => c.images.some((image) => image.kind === 'now'));
    assert.equal(kept.images.find((image) => image.kind === 'now')?.commitSha, sha, 'taken for the fix Live');
    // The list is re-read every second meanwhile, and the card drawn again: no second picture.
    await widget(page).locator(`#svc-replies-${dish}`).click();
    await page.waitForTimeout(2500);
    const nowSent = sent.filter((request) => request.method === 'POST' && request.url.includes('now=true'));
    assert.deepEqual(
      nowSent.map((request) => new URL(request.url).pathname.split('/')[3]),
      [dish],
      'one picture of now',
    );

    // On a 390 px phone, by touch: the same before and now.
    const phone = await onPhone(author);
    await showsBeforeAndNow(phone, dish);
    await scrollToCard(phone, dish, '.before-after');
    assert.deepEqual(await seriousViolations(phone, '[data-svc-widget]'), [], 'before and now on a phone');
    await screenshot(phone, 'fixed-live-before-and-now-390');
    await phone.context().close();

    await widget(page).locator(`[data-comment="${dish}"]`).getByRole('button', { name: 'Verified' }).click();
    const verdict = await until(author, dish, (c) => c.images.some((image) => image.kind === 'after'));
    const verified = verdict.timeline.find((event) => event.kind === 'verified');
    assert.equal(
      verdict.images.find((image) => image.kind === 'after')?.eventId,
      verified?.id,
      'kept with the verdict',
    );
  });

  test('a button label and a price the fix reworded in place: once Live, their author finds both (pins, no “not found”), sees before and now, and their pictures of now are kept', async () => {
    const { author, page, ids } = await pinnedThenFixed(
      'Carla Café',
      [
        ['#order', 'Say “Place your order”, it is clearer'],
        ['section.menu .price', 'The espresso costs €2.10 since May'],
      ],
      'c0ffee12c0ffee12c0ffee12c0ffee12c0ffee12',
    );
    await nextRelease(page);
    // The button, by its id; the price, by its place and make-up: their texts are the fix's.
    for (const id of ids) {
      await found(page, id);
      await showsBeforeAndNow(page, id);
    }
    assert.deepEqual(await seriousViolations(page, '[data-svc-widget]'), [], 'the cards of the fixes');
    await screenshot(page, 'fixed-reworded-1280');
    for (const id of ids) await until(author, id, (c) => c.images.some((image) => image.kind === 'now'));
  });

  test('an element the fix removed: the card says so in plain words and offers to point at it again (keyboard, and tapped on a 390 px phone), which moves the pin; the author’s name is not painted as a warning', async () => {
    const { author, page, ids } = await pinnedThenFixed(
      'Omar Offer',
      [['section.menu .offer', 'The Sunday offer ended last month']],
      'feed0123feed0123feed0123feed0123feed0123',
    );
    const [offer = ''] = ids;
    await nextRelease(page);
    const card = widget(page).locator(`[data-comment="${offer}"]`);
    await card.getByText(GONE).waitFor({ timeout: 30000 });
    const again = card.getByRole('button', { name: 'Point at it again' });
    assert.equal(await again.count(), 1);
    assert.equal(await card.getByRole('button', { name: 'Move pin' }).count(), 0, 'one button for one action');
    assert.equal(await card.getByText('not found on this page').count(), 0, 'said once, plainly');
    assert.equal(
      await card.locator('.row strong').evaluate((name) => getComputedStyle(name).color),
      'rgb(17, 24, 39)',
      'the author’s name in the text’s colour',
    );
    assert.deepEqual(await seriousViolations(page, '[data-svc-widget]'), [], 'the card of the removed element');
    await scrollToCard(page, offer);
    await screenshot(page, 'fixed-removed-1280');

    // By keyboard: Enter starts pointing, Escape gives up; the pin stays as it was.
    await again.focus();
    await page.keyboard.press('Enter');
    await widget(page).locator('.hint').waitFor();
    await page.keyboard.press('Escape');
    await widget(page).locator('.hint').waitFor({ state: 'detached' });
    assert.equal((await read(author, offer)).repinned, null, 'nothing moved');

    // On a 390 px phone, by touch: the card says the same, and a tap on the button starts pointing.
    const phone = await onPhone(author);
    const phoneCard = widget(phone).locator(`[data-comment="${offer}"]`);
    await phoneCard.getByText(GONE).waitFor({ timeout: 30000 });
    await scrollToCard(phone, offer);
    assert.deepEqual(await seriousViolations(phone, '[data-svc-widget]'), [], 'on a phone');
    await screenshot(phone, 'fixed-removed-390');
    await phoneCard.getByRole('button', { name: 'Point at it again' }).tap();
    await widget(phone).locator('.hint').waitFor();
    await phone.context().close();

    // Pointed at again: the pin moves to the element picked, and the card shows it now.
    const before = (await read(author, offer)).anchor;
    await again.click();
    await widget(page).locator('.hint').waitFor();
    await page.locator('section.menu .dish h2').click();
    const moved = await until(author, offer, (c) => c.timeline.some((event) => event.kind === 'repinned'));
    assert.notDeepEqual(moved.anchor, before, 'a new anchor');
    await widget(page).locator(`[data-pin="${offer}"]`).waitFor({ timeout: 30000 });
    await showsBeforeAndNow(page, offer);
    assert.equal(await card.getByText(GONE).count(), 0);
    await scrollToCard(page, offer);
    await screenshot(page, 'fixed-pointed-again-1280');
  });

  test('on a phone, a tap on an element while pointing at it again moves the pin there', async () => {
    const { author, ids } = await pinnedThenFixed(
      'Tess Touch',
      [['section.menu .offer', 'Drop the Sunday offer']],
      'beef0123beef0123beef0123beef0123beef0123',
    );
    const [offer = ''] = ids;
    const phone = await onPhone(author);
    await widget(phone).locator(`[data-comment="${offer}"]`).getByRole('button', { name: 'Point at it again' }).tap();
    await widget(phone).locator('.hint').waitFor();
    await phone.locator('section.menu .dish h2').tap();
    await until(author, offer, (c) => c.timeline.some((event) => event.kind === 'repinned'));
    await widget(phone).locator(`[data-pin="${offer}"]`).waitFor({ timeout: 30000 });
    await showsBeforeAndNow(phone, offer);
    await screenshot(phone, 'fixed-pointed-again-390');
  });
});
