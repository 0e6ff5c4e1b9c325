import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { codeAt } from '../../server/src/modules/two-factor/totp.js';
import { call } from '../../server/test/helpers.js';
import { startTestProvider } from '../../server/test/oidc-provider.js';
import {
  appliedComment,
  launchBrowser,
  newReviewer,
  openWidget,
  recordRequests,
  type Stack,
  screenshot,
  setTabVisibility,
  signedInPage,
  startStack,
  widget,
} from './helpers.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** Waits until `condition` holds, checking every 50 ms; fails after `timeoutMs`. */
async function until(condition: () => boolean, timeoutMs: number): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`not within ${timeoutMs} ms`);
    await sleep(50);
  }
}

describe('the widget in Chromium, on another origin than the API', () => {
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

  async function newContext(): Promise<BrowserContext> {
    const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
    contexts.push(context);
    return context;
  }

  const openAs = (member: Parameters<typeof signedInPage>[2], url = stack.pageUrl()) =>
    openWidget(browser, stack, member, contexts, { url });

  test('the launcher shows the unread count in an amber badge, 99+ above 99, hidden at 0; page styles do not leak in', async () => {
    const author = await newReviewer(stack);
    const page = await openAs(author);
    const badge = widget(page).locator('.badge');
    // Rendered, and hidden at 0: a badge that was never rendered must not pass for a hidden one.
    await badge.waitFor({ state: 'attached' });
    assert.equal(await badge.count(), 1);
    await assert.doesNotReject(badge.waitFor({ state: 'hidden' }));

    await appliedComment(stack, author);
    await badge.waitFor({ state: 'visible', timeout: 5000 });
    assert.equal(await badge.textContent(), '1');
    const colour = await badge.evaluate((el) => getComputedStyle(el).backgroundColor);
    assert.equal(colour, 'rgb(245, 158, 11)', 'the badge is amber (--pf-notify)');
    const launcherColour = await widget(page)
      .locator('.launcher')
      .evaluate((el) => getComputedStyle(el).color);
    assert.equal(launcherColour, 'rgb(255, 255, 255)', "the page's `* { color: red !important }` does not reach in");
    assert.equal(await widget(page).locator('.launcher').getAttribute('aria-label'), 'Feedback, 1 unread update');
    await screenshot(page, '1-badge');

    const { id } = await appliedComment(stack, author, { body: 'Many replies' });
    for (let i = 0; i < 100; i += 1) {
      await call(stack.api.app, 'POST', `/api/comments/${id}/replies`, {
        token: stack.admin.token,
        body: { body: `r${i}` },
      });
    }
    await page.waitForFunction(
      () => document.querySelector('[data-svc-widget]')?.shadowRoot?.querySelector('.badge')?.textContent === '99+',
      null,
      { timeout: 5000 },
    );
  });

  test('polls every second with If-None-Match (304 while nothing changes), never while hidden, once at once on refocus', async () => {
    const author = await newReviewer(stack);
    const context = await newContext();
    const page = await signedInPage(context, stack, author);
    const polls = recordRequests(page, '/api/me/notifications/unread-count');
    await page.goto(stack.pageUrl());
    // Counted from the first poll: on a busy machine the widget may take a while to start.
    await page.waitForRequest((request) => request.url().includes('/unread-count'));
    await sleep(3200);
    const visible = polls.length;
    assert.ok(visible >= 3 && visible <= 5, `3-5 polls in the first 3.2 s at 1 s, got ${visible}`);
    const gaps = polls.slice(1).map((p, i) => p.at - (polls[i]?.at ?? 0));
    assert.ok(
      gaps.every((gap) => gap >= 850),
      `never faster than the interval, less its tenth of jitter: ${gaps.join(', ')} ms`,
    );
    assert.equal(polls[0]?.status, 200);
    assert.ok(
      polls.slice(1).every((p) => p.status === undefined || p.status === 304),
      `unchanged count answers 304: ${polls.map((p) => p.status).join(',')}`,
    );

    await setTabVisibility(page, 'hidden');
    const before = polls.length;
    await sleep(3000);
    assert.equal(polls.length, before, 'no request at all while the tab is hidden');

    const shownAt = Date.now();
    await setTabVisibility(page, 'visible');
    await until(() => polls.length > before, 2000);
    assert.ok((polls[before]?.at ?? 0) - shownAt < 700, 'a poll at once on refocus, not after an interval');
    await until(() => polls.length > before + 1, 3000);
    const gap = (polls[before + 1]?.at ?? 0) - (polls[before]?.at ?? 0);
    assert.ok(gap >= 850, `then the cadence resumes (${gap} ms later)`);
  });

  test('three tabs of one browser: one poll per interval in all, the count reaches every tab, a closed leader hands over, a hidden browser stops', async () => {
    const author = await newReviewer(stack);
    const { id } = await appliedComment(stack, author, { body: 'Shared by the tabs' });
    const context = await newContext();
    const polls: { page: Page; at: number }[] = [];
    const tabs: Page[] = [];
    for (let i = 0; i < 3; i++) {
      const page = i === 0 ? await signedInPage(context, stack, author) : await context.newPage();
      page.on('request', (request) => {
        if (request.url().includes('/unread-count') && request.method() === 'GET') polls.push({ page, at: Date.now() });
      });
      await page.goto(stack.pageUrl());
      await widget(page).locator('.launcher').waitFor();
      tabs.push(page);
    }
    const started = polls.length;
    await sleep(4000);
    const inAll = polls.length - started;
    assert.ok(inAll >= 3 && inAll <= 6, `one poller for the three tabs: ${inAll} polls in 4 s at 1 s`);
    const leader = polls[polls.length - 1]?.page as Page;
    assert.ok(
      polls.slice(started).every((p) => p.page === leader),
      'all by one tab',
    );

    // A reply by someone else: every tab's badge shows it, from the one tab's poll.
    await call(stack.api.app, 'POST', `/api/comments/${id}/replies`, {
      token: stack.admin.token,
      body: { body: 'Seen?' },
    });
    for (const tab of tabs) {
      await tab.waitForFunction(
        () => document.querySelector('[data-svc-widget]')?.shadowRoot?.querySelector('.badge')?.textContent === '2',
        null,
        { timeout: 5000 },
      );
    }

    // The leader closes: another tab polls within an interval or so.
    const closedAt = Date.now();
    await leader.close();
    const rest = tabs.filter((tab) => tab !== leader);
    await sleep(2500);
    const next = polls.find((p) => p.at > closedAt);
    assert.ok(next && rest.includes(next.page), 'another tab took over');
    assert.ok((next?.at ?? Number.POSITIVE_INFINITY) - closedAt < 2000, `within ${next && next.at - closedAt} ms`);

    // Every tab hidden: nobody polls; one shown again gets the count at once.
    for (const tab of rest) await setTabVisibility(tab, 'hidden');
    await sleep(300);
    const hiddenFrom = polls.length;
    await sleep(3000);
    assert.equal(polls.length, hiddenFrom, 'a hidden browser does not poll');
    await call(stack.api.app, 'POST', `/api/comments/${id}/replies`, {
      token: stack.admin.token,
      body: { body: 'And now?' },
    });
    await setTabVisibility(rest[1] as Page, 'visible');
    await (rest[1] as Page).waitForFunction(
      () => document.querySelector('[data-svc-widget]')?.shadowRoot?.querySelector('.badge')?.textContent === '3',
      null,
      { timeout: 3000 },
    );
  });

  test('the app replaces the body, or what is in it: the widget puts itself back; destroyed, it polls no more', async () => {
    const author = await newReviewer(stack);
    const page = await openAs(author);
    const polls = recordRequests(page, '/api/me/notifications/unread-count');
    await page.evaluate(() => {
      document.body.innerHTML = '<main><h1>Signed in</h1></main>';
    });
    await widget(page).locator('.launcher').waitFor();
    await page.evaluate(() => {
      const fresh = document.createElement('body');
      fresh.innerHTML = '<main><h1>Another body</h1></main>';
      document.body.replaceWith(fresh);
    });
    await widget(page).locator('.launcher').click();
    await widget(page).locator('[role=tab]').first().waitFor();
    assert.equal(await page.locator('svc-feedback').count(), 1, 'one widget, back in the new body');

    await page.evaluate(() => window.svcWidget?.destroy());
    await sleep(300);
    const after = polls.length;
    await sleep(2500);
    assert.equal(polls.length, after, 'destroyed: no poll');
    assert.equal(await page.locator('svc-feedback').count(), 0);
  });

  test('opening Updates lists notifications and calls read-all up to the newest shown, clearing the badge', async () => {
    const author = await newReviewer(stack);
    await appliedComment(stack, author, { body: 'First fix' });
    await appliedComment(stack, author, { body: 'Second fix' });
    const context = await newContext();
    const page = await signedInPage(context, stack, author);
    const readAll = recordRequests(page, '/api/me/notifications/read-all');
    await page.goto(stack.pageUrl());
    const badge = widget(page).locator('.badge');
    await badge.waitFor({ state: 'visible' });
    assert.equal(await badge.textContent(), '2');

    await widget(page).locator('.launcher').click();
    const items = widget(page).locator('[data-notification]');
    await items.first().waitFor();
    assert.equal(await items.count(), 2);
    const newestId = await items.first().getAttribute('data-notification');
    assert.equal(await badge.count(), 1, 'the badge is still rendered');
    await badge.waitFor({ state: 'hidden' });
    assert.equal(readAll.length, 1);
    assert.deepEqual(JSON.parse(readAll[0]?.body ?? '{}'), { upTo: newestId });
    const first = items.first();
    assert.match((await first.textContent()) ?? '', /Fixed — please check/);
    assert.match((await first.textContent()) ?? '', /Second fix/);
    assert.equal(await first.locator('a.sha').textContent(), 'Commit a1b2c3d');
    assert.equal(await first.locator('a.sha').getAttribute('href'), 'https://github.com/acme/site/commit/a1b2c3d');
    assert.ok(await first.locator('time[title]').count(), 'relative time with the absolute one on hover');
    await screenshot(page, '2-updates');
  });

  test('selecting a notification opens its comment in the sidebar, highlighted, and flashes the pinned element', async () => {
    const author = await newReviewer(stack);
    const { id } = await appliedComment(stack, author, { body: 'Price colour is off' });
    const page = await openAs(author);
    await widget(page).locator('.launcher').click();
    await widget(page).locator('[data-notification]').first().click();
    const card = widget(page).locator(`[data-comment="${id}"]`);
    await card.waitFor();
    assert.match((await card.getAttribute('class')) ?? '', /highlight/);
    assert.equal(await widget(page).locator('[role=tab][aria-selected=true]').textContent(), 'Comments');
    assert.equal(await card.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement), true);
    await widget(page).locator('[data-flash]').waitFor();
    await screenshot(page, '3-comment-from-notification');
  });

  test('verify controls appear only to the author, only while applied; Verified turns the pill green', async () => {
    const author = await newReviewer(stack);
    const { id } = await appliedComment(stack, author, { body: 'Align the buttons' });
    const other = await newReviewer(stack, 'Olly Other');

    const asOther = await openAs(other);
    await widget(asOther).locator('.launcher').click();
    await widget(asOther).locator('[role=tab]', { hasText: 'Comments' }).click();
    const otherCard = widget(asOther).locator(`[data-comment="${id}"]`);
    await otherCard.waitFor();
    assert.equal(await otherCard.locator('button', { hasText: 'Verified' }).count(), 0);
    assert.equal(await otherCard.locator('button', { hasText: 'Not fixed' }).count(), 0);

    const page = await openAs(author);
    await widget(page).locator('.launcher').click();
    await widget(page).locator('[role=tab]', { hasText: 'Comments' }).click();
    const card = widget(page).locator(`[data-comment="${id}"]`);
    await card.waitFor();
    assert.equal(await card.locator('.pill').first().textContent(), 'Completed');
    await screenshot(page, '4-verify-controls');
    await card.locator('button', { hasText: 'Verified' }).click();
    // Read in one go in the page: a redraw (the list re-read after the verdict) may replace the pill.
    await page.waitForFunction(
      (id) => {
        const pill = document
          .querySelector('[data-svc-widget]')
          ?.shadowRoot?.querySelector(`[data-comment="${id}"] .pill.verified`);
        return pill && getComputedStyle(pill).color === 'rgb(4, 120, 87)';
      },
      id,
      { timeout: 5000 },
    );
    const stored = (await call(stack.api.app, 'GET', `/api/comments/${id}`, { token: author.token })).body;
    assert.ok(stored.verifiedAt);
    assert.equal(stored.replies.at(-1).body, 'Verified ✓');
    await screenshot(page, '5-verified');
  });

  test('a press on a button survives the panel redrawing meanwhile: the release still clicks it', async () => {
    const author = await newReviewer(stack);
    const { id } = await appliedComment(stack, author, { body: 'Pressed during a redraw' });
    const page = await openAs(author);
    await widget(page).locator('.launcher').click();
    await widget(page).locator('[role=tab]', { hasText: 'Comments' }).click();
    const card = widget(page).locator(`[data-comment="${id}"]`);
    // Over the button once it stands still: after the picture of now is drawn above it (it is
    // taken once the card shows, and pushes the button down as it arrives).
    await page.waitForFunction((id) => {
      const img = document
        .querySelector('[data-svc-widget]')
        ?.shadowRoot?.querySelector<HTMLImageElement>(`[data-comment="${id}"] .before-after img`);
      return !!img && img.complete && img.naturalWidth > 0;
    }, id);
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
    await card.locator('button', { hasText: 'Verified' }).hover();
    // A reply notifies the author: the next poll re-reads the list, whose card now differs. That
    // list is held on its way until the button is pressed, so that it arrives while it is (the
    // widget holds a redraw for a second at most), however slow the machine.
    let press = () => {};
    const pressed = new Promise<void>((resolve) => {
      press = resolve;
    });
    let asked = () => {};
    const reading = new Promise<void>((resolve) => {
      asked = resolve;
    });
    await page.route(
      (url) => url.pathname.endsWith('/comments'),
      async (route) => {
        asked();
        await pressed;
        await route.continue();
      },
    );
    await call(stack.api.app, 'POST', `/api/comments/${id}/replies`, {
      token: stack.admin.token,
      body: { body: 'Meanwhile' },
    });
    await reading;
    const reread = page.waitForResponse((r) => r.url().includes('/comments?') && r.status() === 200);
    await page.mouse.down();
    press();
    await reread;
    await page.unroute((url) => url.pathname.endsWith('/comments'));
    await page.mouse.up();
    // The verdict first takes its picture of now: slow on a busy machine.
    await card.locator('.pill.verified').waitFor({ timeout: 20_000 });
    // The redraw held back came after: the reply and the verdict's own are counted.
    await card.getByText('2 replies', { exact: true }).waitFor({ timeout: 20_000 });
  });

  test('Not fixed needs a note (counter, at most 500), reopens the comment and removes the controls', async () => {
    const author = await newReviewer(stack);
    const { id } = await appliedComment(stack, author, { body: 'Footer overlaps' });
    const page = await openAs(author);
    await widget(page).locator('.launcher').click();
    await widget(page).locator('[role=tab]', { hasText: 'Comments' }).click();
    const card = widget(page).locator(`[data-comment="${id}"]`);
    // One way to reopen it, the one that keeps a note: no second "Reopen" beside "Not fixed".
    assert.equal(await card.locator('button', { hasText: 'Reopen' }).count(), 0);
    await card.locator('button', { hasText: 'Not fixed' }).click();
    const note = card.locator('textarea[name=note]');
    const send = card.locator('button[type=submit]', { hasText: 'Reopen' });
    assert.equal(await note.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement), true);
    assert.equal(await send.isDisabled(), true, 'no note, no reopen');
    assert.equal(await note.getAttribute('maxlength'), '500');
    await note.fill('Still overlaps on mobile');
    assert.match((await card.textContent()) ?? '', /24\/500/);
    await screenshot(page, '6-not-fixed-note');
    await send.click();
    await card.locator('.pill', { hasText: 'Open' }).waitFor();
    assert.equal(await card.locator('button', { hasText: 'Not fixed' }).count(), 0);
    assert.doesNotMatch((await card.textContent()) ?? '', /Fixed in/, 'reopened: no longer said to be fixed');
    const stored = (await call(stack.api.app, 'GET', `/api/comments/${id}`, { token: author.token })).body;
    assert.equal(stored.status, 'open');
    assert.equal(stored.replies.at(-1).body, 'Not fixed: Still overlaps on mobile');
  });

  /** Whether the widget's shadow root has `selector` focused (matching it, not a parent of it). */
  const focused = (page: Page, selector: string) =>
    widget(page).evaluate((host, selector) => {
      const active = host.shadowRoot?.activeElement;
      return Boolean(active?.matches(selector));
    }, selector);

  test('keyboard: Enter on the launcher focuses the active tab and keeps it there while updates load; Esc from anywhere inside closes and returns to the launcher', async () => {
    const author = await newReviewer(stack);
    await appliedComment(stack, author, { body: 'Keyboard path' });
    const page = await openAs(author);
    await widget(page).locator('.launcher').focus();
    await page.keyboard.press('Enter');
    // The panel's views may still be on their way (their chunk loads when the page is idle):
    // focus lands on the tab once they are drawn, however long that takes on a busy machine...
    await page.waitForFunction(() => {
      const active = document.querySelector('[data-svc-widget]')?.shadowRoot?.activeElement;
      return Boolean(active?.matches('[role=tab][aria-selected=true]'));
    });
    // ...and the updates list, loading and redrawing the panel after it opened, must not take it away.
    for (const wait of [50, 300, 1000]) {
      await sleep(wait);
      assert.equal(await focused(page, '[role=tab][aria-selected=true]'), true, `focus on the tab after ${wait} ms`);
    }
    await widget(page).locator('[data-notification]').first().waitFor();
    await page.keyboard.press('Tab');
    await page.keyboard.press('Escape');
    assert.equal(await widget(page).locator('.panel').isHidden(), true, 'Esc closes from any element of the panel');
    assert.equal(await focused(page, '.launcher'), true, 'focus back on the launcher');

    await page.keyboard.press('Enter');
    assert.equal(await focused(page, '[role=tab][aria-selected=true]'), true);
    await page.keyboard.press('ArrowRight');
    await widget(page).locator('[data-comment]').first().waitFor();
    assert.equal(await focused(page, '#svc-tab-comments'), true, 'arrow keys move between tabs, focus follows');
  });

  test('keyboard: opened while the stored session is still being checked, the panel keeps focus when the sign-in it showed gives way to the signed-in view', async () => {
    const author = await newReviewer(stack);
    const context = await newContext();
    const page = await signedInPage(context, stack, author);
    // The check of the stored session answers late, as on a slow network or a busy server.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(/\/api\/me$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(stack.pageUrl());
    await widget(page).locator('.launcher').focus();
    await page.keyboard.press('Enter');
    await widget(page).locator('#svc-email').waitFor();
    await page.waitForFunction(() => document.querySelector('[data-svc-widget]')?.shadowRoot?.activeElement !== null);
    release();
    await widget(page).locator('[role=tab][aria-selected=true]').waitFor();
    await page.waitForFunction(() => {
      const active = document.querySelector('[data-svc-widget]')?.shadowRoot?.activeElement;
      return Boolean(active?.matches('[role=tab][aria-selected=true]'));
    });
  });

  test('a redraw keeps what is being typed: a half-written note survives opening the replies, and the reply box keeps its text and focus', async () => {
    const author = await newReviewer(stack);
    const { id } = await appliedComment(stack, author, { body: 'Typed text survives' });
    const page = await openAs(author);
    await widget(page).locator('.launcher').click();
    await widget(page).locator('[role=tab]', { hasText: 'Comments' }).click();
    const card = widget(page).locator(`[data-comment="${id}"]`);
    await card.locator('button', { hasText: 'Not fixed' }).click();
    await card.locator('textarea[name=note]').fill('Half a note');
    await card.locator(`#svc-replies-${id}`).click();
    await card.locator('textarea[name=body]').waitFor();
    assert.equal(await card.locator('textarea[name=note]').inputValue(), 'Half a note');
    assert.match((await card.textContent()) ?? '', /11\/500/, 'the counter follows the kept text');
    assert.equal(await focused(page, `#svc-replies-${id}`), true, 'focus stays on the button that was pressed');
    // The open thread starts with the story of the fix, from the comment's timeline.
    assert.match((await card.locator('.story').textContent()) ?? '', /^Applied by .+ in [0-9a-f]{7}$/);

    const reply = card.locator('textarea[name=body]');
    await reply.fill('A reply being written');
    await reply.focus();
    // Something else redraws the panel (here: switching "All pages") while the reply is half written.
    await widget(page)
      .locator('#svc-all-pages')
      .evaluate((el: HTMLInputElement) => el.click());
    await sleep(300);
    assert.equal(await card.locator('textarea[name=body]').inputValue(), 'A reply being written');
    assert.equal(await card.locator('textarea[name=note]').inputValue(), 'Half a note');
    // A sent reply is not brought back by the redraw that shows it.
    await card.locator('button[type=submit]', { hasText: 'Send reply' }).click();
    await card.locator('.replies li', { hasText: 'A reply being written' }).waitFor();
    assert.equal(await card.locator('textarea[name=body]').inputValue(), '');
    assert.equal(await focused(page, `#svc-reply-${id}`), true);
  });

  test('a new comment: pick an element (outline on hover, Esc cancels), write, send; stored with selector, page and offset, and pinned', async () => {
    const author = await newReviewer(stack);
    const page = await openAs(author);
    await widget(page).locator('.launcher').click();
    await widget(page).locator('button', { hasText: 'New' }).click();
    await page.locator('#headline').hover();
    await widget(page).locator('.outline').waitFor();
    await page.keyboard.press('Escape');
    await widget(page).locator('.hint').waitFor({ state: 'detached' });
    assert.equal(await widget(page).locator('#svc-new-body').count(), 0, 'Esc cancels: no comment form');

    await widget(page).locator('button', { hasText: 'New' }).click();
    const price = page.locator('.plan:nth-of-type(2) .price');
    await price.hover();
    await screenshot(page, '7-picking');
    const box = await price.boundingBox();
    assert.ok(box);
    await page.mouse.click(box.x + 15, box.y + 9);
    const textarea = widget(page).locator('#svc-new-body');
    await textarea.waitFor();
    await textarea.fill('Make the Team price bigger');
    await widget(page).locator('button[type=submit]', { hasText: 'Send' }).click();
    await widget(page).locator('.comment.highlight').waitFor();

    const listed = await call(stack.api.app, 'GET', `/api/projects/${stack.projectKey}/comments`, {
      token: stack.admin.token,
    });
    const created = listed.body.items.find((c: { body: string }) => c.body === 'Make the Team price bigger');
    assert.ok(created, 'the comment was stored');
    assert.equal(created.pageUrl, `${stack.pageOrigin}/pricing`);
    assert.equal(created.anchor.x, 15);
    assert.equal(created.anchor.y, 9);
    const resolves = await page.evaluate(
      (selector) => document.querySelector(selector) === document.querySelectorAll('.price')[1],
      created.anchor.selector,
    );
    assert.ok(resolves, `the selector "${created.anchor.selector}" finds the picked element`);
    await widget(page).locator('.pin').first().waitFor();
    await screenshot(page, '8-new-comment-pinned');
  });

  test("?svc_comment=<id> (the console's Open on page) opens the panel on that comment, highlighted, and leaves the address bar", async () => {
    const author = await newReviewer(stack);
    const { id } = await appliedComment(stack, author, { body: 'Opened from the console' });
    const page = await openAs(author, stack.pageUrl({ query: `svc_comment=${id}&tab=plans` }));
    const card = widget(page).locator(`[data-comment="${id}"].highlight`);
    await card.waitFor();
    assert.equal(await widget(page).locator('.panel').isHidden(), false);
    // Focus follows the drawing of the card, a frame or so later on a busy machine.
    const focused = () => card.evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement);
    const until = Date.now() + 5000;
    while (!(await focused()) && Date.now() < until) await page.waitForTimeout(20);
    assert.equal(await focused(), true, 'the highlighted card takes the focus');
    assert.ok(!page.url().includes('svc_comment') && page.url().includes('tab=plans'));
  });

  test('an access link signs a client in, is removed from the address bar, and the token is kept', async () => {
    const created = await call(stack.api.app, 'POST', '/api/workspace/quick-access', {
      token: stack.admin.token,
      body: { name: 'Cleo Client' },
    });
    // A link made before the token moved after the #: in the query, still accepted.
    const older = await (await newContext()).newPage();
    await older.goto(stack.pageUrl({ query: `svc_access=${created.body.accessToken}&tab=plans` }));
    await older.waitForFunction(() => !location.search.includes('svc_access'));
    assert.ok(older.url().includes('tab=plans'), 'other parameters stay');
    await older.waitForFunction(
      (key) => localStorage.getItem(key)?.startsWith('svc_sess_'),
      `svc:token:${stack.apiBase}`,
    );
    const context = await newContext();
    // The link as it is made now: the token after the #, which the page's server never receives.
    const page = await context.newPage();
    const requested: string[] = [];
    page.on('request', (request) => requested.push(request.url()));
    await page.goto(`${stack.pageUrl({ query: 'tab=plans' })}#svc_access=${created.body.accessToken}`);
    await page.waitForFunction(() => !location.hash.includes('svc_access'));
    assert.ok(page.url().includes('tab=plans'), 'other parameters stay');
    assert.ok(
      requested.every((url) => !url.includes(created.body.accessToken)),
      'no request carries the token',
    );
    await page.waitForFunction(
      (key) => localStorage.getItem(key)?.startsWith('svc_sess_'),
      `svc:token:${stack.apiBase}`,
    );
    await widget(page).locator('.launcher').click();
    await widget(page).locator('[role=tab]', { hasText: 'Updates' }).waitFor();

    // Sign out, then in again with e-mail and password.
    await widget(page).locator('button', { hasText: 'Sign out' }).click();
    await widget(page).locator('#svc-email').waitFor();
    await screenshot(page, '9-sign-in');
    const member = await newReviewer(stack, 'Pat Password');
    await widget(page).locator('#svc-email').fill(member.email);
    await widget(page).locator('#svc-password').fill('another good password');
    await widget(page).locator('button[type=submit]', { hasText: 'Sign in' }).click();
    await widget(page).locator('[role=tab]', { hasText: 'Comments' }).waitFor();
  });

  test('two-factor: after the password the widget asks for the code; a wrong one says so; one required but not set up points to the console', async () => {
    const member = await newReviewer(stack, 'Theo Twofactor');
    const started = await call(stack.api.app, 'POST', '/api/me/two-factor/enrolment', {
      token: member.token,
      body: { password: 'another good password' },
    });
    await call(stack.api.app, 'POST', '/api/me/two-factor/confirm', {
      token: member.token,
      body: { code: codeAt(started.body.secret, Date.now() - 30_000) },
    });
    const page = await (await newContext()).newPage();
    await page.goto(stack.pageUrl());
    await widget(page).locator('.launcher').click();
    await widget(page).locator('#svc-email').fill(member.email);
    await widget(page).locator('#svc-password').fill('another good password');
    await widget(page).locator('button[type=submit]', { hasText: 'Sign in' }).click();
    const code = widget(page).locator('#svc-code');
    await code.waitFor();
    assert.equal(
      await widget(page)
        .locator('#svc-code')
        .evaluate((el) => el === (el.getRootNode() as ShadowRoot).activeElement),
      true,
      'focus moves to the code',
    );
    await code.fill('000000');
    await page.keyboard.press('Enter');
    await widget(page).locator('[role=alert]').filter({ hasText: 'is not right' }).waitFor();
    await screenshot(page, 'two-factor-code');
    await code.fill(codeAt(started.body.secret, Date.now()));
    await page.keyboard.press('Enter');
    await widget(page).locator('[role=tab]', { hasText: 'Comments' }).waitFor();

    // Required of everyone, and this one has no app yet: the console sets it up.
    const other = await newReviewer(stack, 'Una Unenrolled');
    await call(stack.api.app, 'PATCH', '/api/workspace/security', {
      token: stack.admin.token,
      body: { twoFactorRequired: 'everyone' },
    });
    try {
      const second = await (await newContext()).newPage();
      await second.goto(stack.pageUrl());
      await widget(second).locator('.launcher').click();
      await widget(second).locator('#svc-email').fill(other.email);
      await widget(second).locator('#svc-password').fill('another good password');
      await widget(second).locator('button[type=submit]', { hasText: 'Sign in' }).click();
      await widget(second).locator('[role=alert]').filter({ hasText: 'requires two-factor sign-in' }).waitFor();
    } finally {
      await call(stack.api.app, 'PATCH', '/api/workspace/security', {
        token: stack.admin.token,
        body: { twoFactorRequired: 'none' },
      });
    }
  });

  test("single sign-on from the widget: Continue with the workspace's provider in a popup, which hands the session back to the page", async () => {
    const idp = await startTestProvider(`${stack.apiBase}/api/auth/sso/callback`);
    const member = await newReviewer(stack, 'Sid Single');
    idp.people.set('sid', { email: member.email, email_verified: true });
    const configured = await call(stack.api.app, 'PUT', '/api/workspace/sso', {
      token: stack.admin.token,
      headers: { host: new URL(stack.apiBase).host },
      body: {
        issuer: idp.issuer,
        clientId: idp.clientId,
        clientSecret: idp.clientSecret,
        displayName: 'Acme Login',
        allowedDomains: [],
        newMemberRole: null,
        requireForMembers: false,
      },
    });
    assert.equal(configured.status, 200, JSON.stringify(configured.body));
    try {
      const page = await (await newContext()).newPage();
      const starts = recordRequests(page, '/api/auth/sso/start');
      await page.goto(stack.pageUrl());
      await widget(page).locator('.launcher').click();
      const button = widget(page).locator('button', { hasText: 'Continue with Acme Login' });
      await button.waitFor();
      const [popup] = await Promise.all([page.waitForEvent('popup'), button.click()]);
      await popup.locator('input[name=login]').fill('sid');
      await popup.locator('input[name=password]').fill('any');
      await popup.locator('button[type=submit]').click();
      // Listened for before the last click: the popup may close before a later listener is set.
      const closed = popup.waitForEvent('close');
      await popup.locator('button[type=submit]', { hasText: /continue/i }).click();
      // Where the popup stopped, should it stay open: the provider's page, or the server's last one.
      await closed.catch(async (error) => {
        const text = await popup
          .locator('body')
          .textContent({ timeout: 1000 })
          .catch(() => '(unreadable)');
        throw new Error(`the popup stayed open at ${popup.url()}: ${(text ?? '').slice(0, 300)}`, { cause: error });
      });
      await widget(page).locator('[role=tab]', { hasText: 'Comments' }).waitFor();
      assert.equal(starts.length, 1);
      assert.equal(
        await page.evaluate((key) => localStorage.getItem(key)?.startsWith('svc_sess_'), `svc:token:${stack.apiBase}`),
        true,
      );
    } finally {
      await call(stack.api.app, 'DELETE', '/api/workspace/sso', { token: stack.admin.token });
      await idp.close();
    }
  });

  test('on an origin no project allows, signing in says which origin to add and links where an admin adds it', async () => {
    const context = await newContext();
    const page = await context.newPage();
    const refusedUrl = stack.pageUrl().replace('//localhost:', '//127.0.0.1:');
    const origin = new URL(refusedUrl).origin;
    await page.goto(refusedUrl);
    await widget(page).locator('.launcher').click();
    const member = await newReviewer(stack, 'Olive Origin');
    await widget(page).locator('#svc-email').fill(member.email);
    await widget(page).locator('#svc-password').fill('another good password');
    await widget(page).locator('button[type=submit]', { hasText: 'Sign in' }).click();
    const alert = widget(page).locator('[role=alert]');
    await alert.filter({ hasText: 'may not use this feedback project' }).waitFor();
    assert.match((await alert.textContent()) ?? '', new RegExp(`\\(${origin.replaceAll('.', '\\.')}\\)`));
    const href = (await alert.locator('a').getAttribute('href')) ?? '';
    assert.equal(href, `${stack.apiBase}/projects?edit=${stack.projectKey}&origin=${encodeURIComponent(origin)}`);
    await screenshot(page, 'origin-refused');
    const noted = await call(stack.api.app, 'GET', `/api/projects/${stack.projectKey}/refused-origins`, {
      token: stack.admin.token,
    });
    assert.deepEqual(
      noted.body.items.map((item: { origin: string }) => item.origin),
      [origin],
    );
  });

  test('a refused session stops polling and shows the sign-in', async () => {
    const member = await newReviewer(stack);
    const context = await newContext();
    const page = await signedInPage(context, stack, member);
    const polls = recordRequests(page, '/api/me/notifications/unread-count');
    await page.goto(stack.pageUrl());
    await sleep(1200);
    await call(stack.api.app, 'POST', '/api/auth/logout', { token: member.token });
    await widget(page).locator('#svc-email').waitFor({ timeout: 5000 });
    const stopped = polls.length;
    await sleep(2500);
    assert.equal(polls.length, stopped, 'no polls after a 401');
  });

  test('the beacon reports <html data-build-sha> once per page load, never for a client; nothing is logged', async () => {
    const member = await newReviewer(stack);
    const sha = 'c0ffee0123456789c0ffee0123456789c0ffee01';
    const context = await newContext();
    const page = await signedInPage(context, stack, member);
    const beacons = recordRequests(page, '/builds');
    const console: string[] = [];
    page.on('console', (message) => console.push(message.text()));
    await page.goto(stack.pageUrl({ buildSha: sha }));
    await page.waitForFunction(() => true);
    await sleep(1500);
    assert.equal(beacons.length, 1);
    assert.deepEqual(JSON.parse(beacons[0]?.body ?? '{}'), { sha, containsCommitShas: [] });
    const builds = await call(stack.api.app, 'GET', `/api/projects/${stack.projectKey}/builds`, {
      token: stack.admin.token,
    });
    assert.ok(builds.body.items.some((b: { sha: string }) => b.sha === sha));

    // A client may not report builds: the widget knows its role and does not try.
    const client = await call(stack.api.app, 'POST', '/api/workspace/quick-access', {
      token: stack.admin.token,
      body: { name: 'Quiet Client' },
    });
    const clientContext = await newContext();
    const clientPage = await clientContext.newPage();
    const refused = recordRequests(clientPage, '/builds');
    const clientConsole: string[] = [];
    clientPage.on('console', (message) => clientConsole.push(message.text()));
    await clientPage.goto(stack.pageUrl({ buildSha: sha, query: `svc_access=${client.body.accessToken}` }));
    await sleep(2500);
    await widget(clientPage).locator('.launcher').waitFor();
    assert.equal(refused.length, 0, 'a client sends no beacon');
    assert.equal(await widget(clientPage).locator('.panel').isHidden(), true, 'nothing shown');
    const fromWidget = [...console, ...clientConsole].filter((text) => !text.startsWith('Failed to load resource'));
    assert.deepEqual(fromWidget, [], 'no console output from the widget');
  });

  test('destroy() removes the host, its timers and listeners', async () => {
    const member = await newReviewer(stack);
    const context = await newContext();
    const page = await signedInPage(context, stack, member);
    const polls = recordRequests(page, '/api/me/notifications/unread-count');
    await page.goto(stack.pageUrl());
    await widget(page).locator('.launcher').waitFor();
    await page.evaluate(() => window.svcWidget?.destroy());
    assert.equal(await page.locator('[data-svc-widget]').count(), 0);
    const after = polls.length;
    await sleep(2200);
    await setTabVisibility(page, 'visible');
    await sleep(300);
    assert.equal(polls.length, after, 'no polls after destroy, not even on refocus');
  });

  test('a pin’s number is the server’s: a list filtered to the open comments numbers a comment as the console does, the fixed one before it still counting', async () => {
    // A page of their own: the other tests' comments are on /pricing.
    const pageUrl = `${stack.pageOrigin}/numbered`;
    await appliedComment(stack, stack.author, { body: 'Fixed first', selector: '#headline', pageUrl });
    const open = await call(stack.api.app, 'POST', `/api/projects/${stack.projectKey}/comments`, {
      token: stack.author.token,
      body: {
        body: 'Still open',
        pageUrl,
        anchor: { selector: 'section.plans > div:nth-of-type(2) > p', x: 4, y: 4 },
      },
    });
    assert.equal(open.body.pin, 2, 'the server numbers it second on its page');

    const page = await openWidget(browser, stack, stack.author, contexts, {
      url: stack.pageUrl({ path: '/numbered' }),
    });
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

declare global {
  interface Window {
    svcWidget?: { destroy: () => void };
  }
}
