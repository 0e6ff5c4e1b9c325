// A client's visit, as a usability report found it: the first visit bare (a round button, "No
// updates yet", "Commit 08ff9ce" linking to a private repository), a headline's pin at the
// page's edge, before and now too small to judge. Here: a welcome that says what this is and
// how to pin, once per person; updates in a client's words with the way to check a fix, and
// commits for the team only; pins beside their element's content; before and now large enough
// to read, at one scale, openable full size, on a 390 px phone too.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seriousViolations } from '../../console/test/helpers.js';
import { addClient, call, type Member } from '../../server/test/helpers.js';
import {
  appliedComment,
  assertOneReadableScale,
  commentWithScreenshot,
  contentPoint,
  cropWidth,
  DRAWN_PICTURES,
  launchBrowser,
  newReviewer,
  openWidget,
  pictureScales,
  type Stack,
  screenshot,
  startStack,
  widget,
} from './helpers.js';

type Client = Member & { accessToken: string };
type Viewport = { width: number; height: number };

const DESKTOP = { width: 1100, height: 760 };
const PHONE = { width: 390, height: 844 };
/** A commit as the report saw it: a short hash, and a link into a private repository. */
const COMMIT = /\b[0-9a-f]{7,40}\b|Commit /;

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

  const newClient = (name: string) => addClient(stack.api.app, stack.admin, stack.projectKey, name) as Promise<Client>;

  /** `client` arrives through their access link, in a browser of their own (a phone: touch, 3x). */
  async function arrive(client: Client, viewport: Viewport = DESKTOP, url = stack.pageUrl()): Promise<Page> {
    const phone = viewport.width < 480;
    const context = await browser.newContext({
      viewport,
      ...(phone ? { hasTouch: true, isMobile: true, deviceScaleFactor: 3 } : {}),
    });
    contexts.push(context);
    const page = await context.newPage();
    await page.goto(`${url}#svc_access=${client.accessToken}`);
    await widget(page).locator('.launcher').waitFor();
    return page;
  }

  /** The panel's views are on the page (signed in, they load with the page): whatever they draw at once is drawn. */
  const settled = async (page: Page) => {
    await page.waitForFunction(() => Boolean((window as { __svcPanel?: unknown }).__svcPanel));
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 50))));
  };

  /** A comment by `author` pinned to `selector` of `path`. */
  async function pinned(author: Member, body: string, selector: string, path = '/pricing') {
    const answer = await call(stack.api.app, 'POST', `/api/projects/${stack.projectKey}/comments`, {
      token: author.token,
      body: { body, pageUrl: `${stack.pageOrigin}${path}`, anchor: { selector, x: 4, y: 4 } },
    });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    return answer.body as { id: string };
  }

  test('first visit: a welcome says what this is and how to pin, with Pin a comment as its first action; once per person, dismissed for good; tapped on a 390 px phone', async () => {
    const client = await newClient('Wanda Welcome');
    const page = await arrive(client, PHONE);
    const welcome = widget(page).locator('.welcome');
    await welcome.waitFor({ timeout: 10_000 });
    assert.match((await welcome.textContent()) ?? '', /Pin a comment.*click or tap the part of the page/s);
    assert.deepEqual(await seriousViolations(page, '[data-svc-widget]'), [], 'the welcome');
    const box = await welcome.boundingBox();
    const launcher = await widget(page).locator('.launcher').boundingBox();
    assert.ok(box && launcher);
    assert.ok(box.x >= 0 && box.x + box.width <= PHONE.width, `within the phone's width (${box.x}, ${box.width})`);
    assert.ok(box.y + box.height <= launcher.y, 'above the launcher, not over it');
    await screenshot(page, 'welcome-390');

    // Its first action starts pointing at the page; the element tapped is the new comment's.
    await welcome.getByRole('button', { name: 'Pin a comment' }).tap();
    await widget(page).locator('.hint').waitFor();
    assert.equal(await welcome.count(), 0, 'gone once its action is taken');
    await page.locator('#headline').tap();
    await widget(page).locator('#svc-new-body').waitFor();
    assert.match((await widget(page).locator('form').first().textContent()) ?? '', /About the “Simple pricing”/);

    // Remembered: the next visit is not welcomed again.
    await page.reload();
    await widget(page).locator('.launcher').waitFor();
    await settled(page);
    assert.equal(await widget(page).locator('.welcome').count(), 0, 'not shown twice to the same person');

    // Dismissed by keyboard on a desktop, it stays dismissed; another person of the same browser is welcomed.
    const other = await newClient('Dora Dismiss');
    const desk = await arrive(other);
    const shown = widget(desk).locator('.welcome');
    await shown.waitFor({ timeout: 10_000 });
    await widget(desk).locator('.launcher').focus();
    await desk.keyboard.press('Tab');
    assert.equal(
      await widget(desk).evaluate((host) => host.shadowRoot?.activeElement?.textContent),
      'Pin a comment',
      'Tab from the launcher reaches the welcome',
    );
    await desk.keyboard.press('Tab');
    await desk.keyboard.press('Enter');
    await shown.waitFor({ state: 'detached' });
    assert.equal(
      await widget(desk).evaluate((host) => host.shadowRoot?.activeElement?.classList.contains('launcher')),
      true,
      'focus back on the launcher',
    );
    await desk.reload();
    await settled(desk);
    assert.equal(await widget(desk).locator('.welcome').count(), 0, 'dismissed for good');
    const third = await newClient('Tom Third');
    await desk.goto(`${stack.pageUrl({ query: 'again=1' })}#svc_access=${third.accessToken}`);
    await widget(desk).locator('.welcome').waitFor({ timeout: 10_000 });
  });

  test('updates in a client’s words: “Fixed — please check” opens before and now here, or goes to the page; a client sees no commit, the team does; empty, the list says what will come', async () => {
    const client = await newClient('Carla Check');
    const page = await arrive(client);
    await widget(page).locator('.launcher').click();
    // The same box says "Loading…" first.
    const empty = widget(page).locator('#svc-tabpanel .empty', { hasNotText: 'Loading' });
    await empty.waitFor();
    assert.equal(
      await empty.textContent(),
      'Nothing here yet. When someone replies to your comments or fixes what you reported, you will see it here.',
    );
    await widget(page).locator('button[aria-label=Close]').click();

    // Two fixes of the client's comments: one of this page (Live, its build deployed), one of another.
    const here = await appliedComment(stack, client, { body: 'The headline is too faint', selector: '#headline' });
    const build = await call(stack.api.app, 'POST', `/api/projects/${stack.projectKey}/builds`, {
      token: stack.admin.token,
      body: { sha: 'a1b2c3d4e5f6a7b8c9d0a1b2c3d4e5f6a7b8c9d0' },
    });
    assert.deepEqual(build.body.deployedCommentIds, [here.id], 'Live');
    const there = await appliedComment(stack, client, {
      body: 'The about page title is wrong',
      pageUrl: `${stack.pageOrigin}/about`,
    });
    await widget(page).locator('.badge').waitFor({ state: 'visible', timeout: 10_000 });
    await widget(page).locator('.launcher').click();
    const items = widget(page).locator('[data-notification]');
    await items.nth(1).waitFor();
    const panel = widget(page).locator('.panel');
    assert.doesNotMatch((await panel.textContent()) ?? '', COMMIT, 'no commit hash for a client');
    assert.equal(await panel.locator('a[href*="github.com"]').count(), 0, 'no link into the repository');
    const thereItem = items.filter({ hasText: 'The about page title is wrong' });
    const hereItem = items.filter({ hasText: 'The headline is too faint' });
    for (const item of [thereItem, hereItem]) assert.match((await item.textContent()) ?? '', /Fixed — please check/);
    // Of another page: the way to check is that page, where the comment opens.
    const goThere = thereItem.getByRole('link', { name: /Go to the page to check/ });
    const href = new URL((await goThere.getAttribute('href')) ?? '');
    assert.equal(href.origin + href.pathname, `${stack.pageOrigin}/about`);
    assert.equal(href.searchParams.get('svc_comment'), there.id);
    assert.deepEqual(await seriousViolations(page, '[data-svc-widget]'), [], 'updates');
    await screenshot(page, 'client-updates');
    // Of this page: its before and now, on its card.
    await hereItem.getByRole('button', { name: /Compare before and now/ }).click();
    const card = widget(page).locator(`[data-comment="${here.id}"].highlight`);
    await card.getByRole('group', { name: 'Before and now' }).waitFor();
    await card.locator('.story').waitFor();
    const words = (await card.textContent()) ?? '';
    assert.match(words, /Live/);
    assert.doesNotMatch(words, COMMIT, `no commit hash on the client's card: ${words}`);
    assert.equal(await card.locator('a[href*="github.com"]').count(), 0);
    await screenshot(page, 'client-card');
    await widget(page).locator('[role=tab]', { hasText: 'Updates' }).click();
    await goThere.click();
    await page.waitForURL((url) => url.pathname === '/about');
    await widget(page).locator(`[data-comment="${there.id}"].highlight`).waitFor();

    // The team keeps the commit, linked: in Updates and on the card.
    const member = await newReviewer(stack, 'Tess Team');
    const fixed = await appliedComment(stack, member, { body: 'The team sees its commit' });
    const team = await openWidget(browser, stack, member, contexts);
    await widget(team).locator('.launcher').click();
    const update = widget(team).locator('[data-notification]').first();
    await update.waitFor();
    assert.match((await update.textContent()) ?? '', /Fixed — please check/);
    assert.equal(await update.locator('a.sha').textContent(), 'Commit a1b2c3d');
    assert.equal(await update.locator('a.sha').getAttribute('href'), 'https://github.com/acme/site/commit/a1b2c3d');
    await update.getByRole('button', { name: /Compare before and now/ }).click();
    const teamCard = widget(team).locator(`[data-comment="${fixed.id}"]`);
    await teamCard.locator('a.sha').waitFor();
    assert.match((await teamCard.textContent()) ?? '', /Fixed in a1b2c3d/);
  });

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

  test('before and now are large enough to read, at one scale, and open full size: a desktop’s screenshot beside a 390 px phone’s page, tapped', async () => {
    const headline = '#headline';
    const reviewer = await newReviewer(stack, 'Bea Before');
    // Before: the page on a desktop's window, as the comment's screenshot.
    const desktop = await browser.newContext({ viewport: DESKTOP });
    contexts.push(desktop);
    const then = await desktop.newPage();
    await then.goto(stack.pageUrl());
    const pinnedBox = (await then.locator(headline).boundingBox()) as {
      x: number;
      y: number;
      width: number;
      height: number;
    };
    const id = await commentWithScreenshot(stack, reviewer, {
      body: 'The headline is hard to read',
      selector: headline,
      picture: await then.screenshot(),
      viewport: DESKTOP,
      pinnedBox,
    });
    await call(stack.api.app, 'POST', `/api/comments/${id}/apply`, { token: stack.admin.token, body: {} });

    // Now: its author on a phone, three device pixels to the page's one.
    const page = await openWidget(browser, stack, reviewer, contexts, {
      viewport: PHONE,
      touch: true,
      deviceScaleFactor: 3,
    });
    await widget(page).locator('.launcher').tap();
    await widget(page).locator('[role=tab]', { hasText: 'Comments' }).tap();
    const compare = widget(page).locator(`[data-comment="${id}"]`).getByRole('group', { name: 'Before and now' });
    await compare.locator('figure', { hasText: 'Now' }).locator('img[src^="blob:"]').waitFor();
    const nowBox = (await page.locator(headline).boundingBox()) as { x: number; width: number };
    const scales = () =>
      pictureScales(
        () => page.evaluate(`(() => {${DRAWN_PICTURES}})()`) as Promise<number[]>,
        [cropWidth(pinnedBox, DESKTOP.width), cropWidth(nowBox, PHONE.width)],
      );
    const fit = await scales();
    const overflow = await widget(page).evaluate((host) => {
      const panel = host.shadowRoot?.querySelector('.panel') as HTMLElement;
      return panel.scrollWidth - panel.clientWidth;
    });
    assert.ok(overflow <= 0, `nothing wider than the panel (${overflow})`);
    await compare.evaluate((group) => group.scrollIntoView({ block: 'start' }));
    assert.deepEqual(await seriousViolations(page, '[data-svc-widget]'), [], 'before and now');
    await screenshot(page, 'before-now-390');

    // Full size: both at the page's own size.
    await compare.getByRole('button', { name: 'Full size' }).tap();
    await compare.locator('button[aria-pressed=true]', { hasText: 'Full size' }).waitFor();
    assertOneReadableScale(fit, await scales());
    await screenshot(page, 'before-now-390-full-size');
  });
});
