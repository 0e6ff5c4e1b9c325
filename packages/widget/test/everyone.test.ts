// The widget for everyone: keyboard and screen readers, phones, hostile pages, triage by role,
// freshness while open, and plain words.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page, Route } from 'playwright-core';
import { seriousViolations } from '../../console/test/helpers.js';
import { addClient, call, createProject } from '../../server/test/helpers.js';
import { cleanWebp, jpegWithMetadata, pngWithMetadata, SECRETS } from '../../server/test/images.js';
import {
  appliedComment,
  launchBrowser,
  newReviewer,
  openWidget,
  type Stack,
  screenshot,
  type signedInPage,
  startStack,
  widget,
} from './helpers.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the widget for everyone', () => {
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

  const focused = (page: Page, selector: string) =>
    widget(page).evaluate((host, selector) => Boolean(host.shadowRoot?.activeElement?.matches(selector)), selector);

  const openAs = (
    member: Parameters<typeof signedInPage>[2],
    url = stack.pageUrl(),
    viewport = { width: 1100, height: 760 },
  ) => openWidget(browser, stack, member, contexts, { url, viewport });

  async function comment(
    author: Parameters<typeof signedInPage>[2],
    body: string,
    selector = 'section.plans > div:nth-of-type(2) > button',
  ) {
    const answer = await call(stack.api.app, 'POST', `/api/projects/${stack.projectKey}/comments`, {
      token: author.token,
      body: { body, pageUrl: `${stack.pageOrigin}/pricing`, anchor: { selector, x: 5, y: 5 } },
    });
    return answer.body as { id: string };
  }

  test('keyboard and screen reader: Tab stays inside the open panel; axe finds nothing serious in any state', async () => {
    const reviewer = await newReviewer(stack, 'Kim Keyboard');
    await appliedComment(stack, reviewer, { body: 'Checked by keyboard' });
    const page = await openAs(reviewer);
    assert.deepEqual(await seriousViolations(page, '[data-svc-widget]'), [], 'closed');
    await widget(page).locator('.launcher').focus();
    await page.keyboard.press('Enter');
    await widget(page).locator('[data-notification]').first().waitFor();
    assert.deepEqual(await seriousViolations(page, '[data-svc-widget]'), [], 'updates');
    for (let i = 0; i < 25; i++) {
      await page.keyboard.press('Tab');
      assert.equal(await focused(page, '.panel *'), true, `Tab ${i + 1} stays in the panel`);
    }
    await page.keyboard.press('Shift+Tab');
    assert.equal(await focused(page, '.panel *'), true);
    await widget(page).locator('[role=tab]', { hasText: 'Comments' }).click();
    await widget(page).locator('[data-comment]').first().waitFor();
    assert.deepEqual(await seriousViolations(page, '[data-svc-widget]'), [], 'comments');
    await widget(page).locator('button', { hasText: 'Not fixed' }).first().click();
    assert.deepEqual(await seriousViolations(page, '[data-svc-widget]'), [], 'not fixed note');
    await page.keyboard.press('Escape');
    assert.equal(await focused(page, '.launcher'), true);

    await page.keyboard.press('Enter');
    await widget(page).locator('button', { hasText: 'New' }).click();
    assert.deepEqual(await seriousViolations(page, '[data-svc-widget]'), [], 'picking');
    await widget(page).locator('.hint button').click();
    await widget(page).locator('#svc-new-body').waitFor();
    // Clicked with the mouse, the hint's own button is not taken for an element of the page.
    assert.equal(await widget(page).locator('form p.muted').first().textContent(), 'About the whole page');
    assert.deepEqual(await seriousViolations(page, '[data-svc-widget]'), [], 'new comment');
    await widget(page).locator('.who button', { hasText: 'Sign out' }).click();
    await widget(page).locator('#svc-email').waitFor();
    assert.deepEqual(await seriousViolations(page, '[data-svc-widget]'), [], 'sign-in');
  });

  for (const [width, height] of [
    [390, 844],
    [360, 640],
    [844, 390],
    [640, 360],
  ] as const) {
    test(`a ${width}x${height} phone: the panel is a full sheet with its close button in reach; the picking banner is one line`, async () => {
      const reviewer = await newReviewer(stack, 'Pat Phone with a rather long name for a small screen');
      await appliedComment(stack, reviewer, { body: 'Seen on a phone' });
      const page = await openAs(reviewer, stack.pageUrl(), { width, height });
      await widget(page).locator('.launcher').click();
      const panel = await widget(page).locator('.panel').boundingBox();
      if (width < 480) {
        assert.deepEqual(panel, { x: 0, y: 0, width, height }, 'a full-height sheet');
        // The sheet has its own close button: the launcher would only cover its bottom.
        assert.equal(await widget(page).locator('.launcher').isVisible(), false, 'no launcher over the sheet');
      }
      const close = await widget(page).locator('button[aria-label=Close]').boundingBox();
      assert.ok(
        close && close.x >= 0 && close.y >= 0 && close.x + close.width <= width && close.y + close.height <= height,
      );
      await widget(page).locator('button[aria-label=Close]').click();
      assert.equal(await widget(page).locator('.panel').isHidden(), true, 'the close button works');
      await widget(page).locator('.launcher').click();
      await widget(page).locator('[role=tab]', { hasText: 'Comments' }).click();
      await widget(page).locator('[data-comment]').first().waitFor();
      const overflow = await widget(page).evaluate((host) => {
        const body = host.shadowRoot?.querySelector('.panel') as HTMLElement;
        return body.scrollWidth - body.clientWidth;
      });
      const widest = await widget(page).evaluate((host) => {
        const panel = host.shadowRoot?.querySelector('.panel') as HTMLElement;
        const limit = panel.getBoundingClientRect().right;
        return [...panel.querySelectorAll('*')]
          .filter((el) => el.getBoundingClientRect().right > limit + 1)
          .map((el) => `${el.tagName}.${el.className}`)
          .slice(0, 5);
      });
      assert.ok(overflow <= 0, `nothing wider than the panel (${overflow}): ${widest.join(', ')}`);
      await screenshot(page, `phone-${width}x${height}-comments`);
      await widget(page).locator('button', { hasText: 'New' }).click();
      const hint = await widget(page).locator('.hint').boundingBox();
      assert.ok(hint && hint.height <= 48, `one compact line (${hint?.height} px)`);
      const whole = await widget(page).locator('.hint button').boundingBox();
      assert.ok(whole && whole.height <= 30, '"Whole page" on one line');
      await screenshot(page, `phone-${width}x${height}-picking`);
      await page.keyboard.press('Escape');
    });
  }

  test('a hostile page: its rules do not reach the widget, and pins and outlines sit on their elements', async () => {
    const reviewer = await newReviewer(stack, 'Hana Hostile');
    const pinned = await comment(reviewer, 'Pinned on a hostile page');
    const page = await openAs(reviewer, stack.pageUrl({ query: 'hostile=1' }));
    await widget(page).locator(`[data-pin="${pinned.id}"]`).waitFor();
    const target = await page.locator('section.plans > div:nth-of-type(2) > button').boundingBox();
    const pin = await widget(page).locator(`[data-pin="${pinned.id}"]`).boundingBox();
    assert.ok(target && pin);
    // The pin's point sits at the element's top-right corner, whatever the page's margins and transforms.
    assert.ok(
      Math.abs(pin.x + 6 - (target.x + target.width)) <= 2,
      `pin x ${pin.x} vs corner ${target.x + target.width}`,
    );
    assert.ok(Math.abs(pin.y + 20 - target.y) <= 2, `pin y ${pin.y} vs corner ${target.y}`);
    await widget(page).locator('.launcher').click();
    const style = await widget(page)
      .locator('[role=tab]')
      .first()
      .evaluate((el) => {
        const s = getComputedStyle(el);
        return [s.letterSpacing, s.textTransform, s.fontStyle];
      });
    assert.deepEqual(style, ['normal', 'none', 'normal']);
    const host = await widget(page).evaluate((el) => getComputedStyle(el).marginTop);
    assert.equal(host, '0px');
    await widget(page).locator('button', { hasText: 'New' }).click();
    await page.locator('#headline').hover();
    const outline = await widget(page).locator('.outline').boundingBox();
    const headline = await page.locator('#headline').boundingBox();
    assert.ok(outline && headline && Math.abs(outline.x - headline.x) <= 1 && Math.abs(outline.y - headline.y) <= 1);
    await screenshot(page, 'hostile-page-picking');
    await page.keyboard.press('Escape');
    await widget(page).locator('[data-comment]').first().waitFor();
    await screenshot(page, 'hostile-page-panel');
  });

  test('triage by role: members archive and reopen, delete their own (confirmed), filter by status; admins delete any; clients see none of it', async () => {
    const member = await newReviewer(stack, 'Tess Triage');
    const mine = await comment(member, 'Mine to triage');
    const other = await appliedComment(stack, stack.admin, { body: 'Applied by the admin' });
    const page = await openAs(member);
    await widget(page).locator('.launcher').click();
    await widget(page).locator('[role=tab]', { hasText: 'Comments' }).click();
    const otherCard = widget(page).locator(`[data-comment="${other.id}"]`);
    await otherCard.waitFor();
    assert.equal(await otherCard.locator('button', { hasText: 'Delete' }).count(), 0, 'not their own: no delete');
    await otherCard.locator('button', { hasText: 'Reopen' }).click();
    await otherCard.locator('[role=status]', { hasText: 'Reopened.' }).waitFor();
    await otherCard.locator('button', { hasText: 'Archive' }).click();
    await otherCard.locator('.pill', { hasText: 'Archived' }).waitFor();

    await widget(page).locator('button.chip', { hasText: 'Open' }).click();
    await widget(page).locator(`[data-comment="${other.id}"]`).waitFor({ state: 'detached' });
    assert.equal(await widget(page).locator('button.chip', { hasText: 'Open' }).getAttribute('aria-pressed'), 'true');
    const mineCard = widget(page).locator(`[data-comment="${mine.id}"]`);
    await mineCard.locator('button', { hasText: 'Delete' }).click();
    assert.equal(await focused(page, `#svc-keep-${mine.id}`), true, 'the confirmation takes focus');
    await mineCard.locator('button.danger', { hasText: 'Delete' }).click();
    await mineCard.waitFor({ state: 'detached' });
    assert.equal((await call(stack.api.app, 'GET', `/api/comments/${mine.id}`, { token: member.token })).status, 404);

    // An admin may delete anyone's comment.
    const theirs = await comment(member, 'Deletable by the admin');
    const adminPage = await openAs(stack.admin);
    await widget(adminPage).locator('.launcher').click();
    await widget(adminPage).locator('[role=tab]', { hasText: 'Comments' }).click();
    await widget(adminPage).locator(`[data-comment="${theirs.id}"] button`, { hasText: 'Delete' }).waitFor();

    const client = await addClient(stack.api.app, stack.admin, undefined, 'Cleo Client');
    await comment(client, 'A client comment');
    const clientPage = await openAs(client);
    await widget(clientPage).locator('.launcher').click();
    await widget(clientPage).locator('[role=tab]', { hasText: 'Comments' }).click();
    await widget(clientPage).locator('[data-comment]').first().waitFor();
    assert.equal(await widget(clientPage).locator('.team').count(), 0, 'clients see no triage');
  });

  test('who is on it: a card says so (an agent as such), with its priority and labels; the team takes a free one and sets its priority and labels; one taken meanwhile by someone else is said on its card; clients only read it', async () => {
    const dev = await newReviewer(stack, 'Dora Dev');
    const rival = await newReviewer(stack, 'Ravi Rival');
    const free = await comment(stack.admin, 'Free to take');
    const raced = await comment(stack.admin, 'Taken while the panel was open');
    const agent = await call(stack.api.app, 'POST', '/api/workspace/agents', {
      token: stack.admin.token,
      body: { name: 'Night agent' },
    });
    const handed = await comment(stack.admin, 'Handed to the agent');
    await call(stack.api.app, 'PUT', `/api/comments/${handed.id}/assignee`, {
      token: stack.admin.token,
      body: { assigneeId: agent.body.agent.id },
    });
    // Its triage shows too: the priority beside the state, the labels under the text.
    const label = await call(stack.api.app, 'POST', '/api/workspace/labels', {
      token: stack.admin.token,
      body: { name: 'Checkout', color: 'orange' },
    });
    await call(stack.api.app, 'PUT', `/api/comments/${handed.id}/priority`, {
      token: stack.admin.token,
      body: { priority: 'urgent' },
    });
    await call(stack.api.app, 'PUT', `/api/comments/${handed.id}/labels`, {
      token: stack.admin.token,
      body: { labelIds: [label.body.id] },
    });
    const page = await openAs(dev);
    await widget(page).locator('.launcher').click();
    await widget(page).locator('[role=tab]', { hasText: 'Comments' }).click();
    const handedCard = widget(page).locator(`[data-comment="${handed.id}"]`);
    await handedCard.getByText('On it: Night agent (agent)').waitFor();
    await handedCard.locator('.pill.priority-urgent', { hasText: 'Urgent' }).waitFor();
    await handedCard.locator('.labels', { hasText: 'Checkout' }).waitFor();
    assert.equal(await handedCard.locator('button', { hasText: 'Take it' }).count(), 0, 'held: nothing to take');

    const freeCard = widget(page).locator(`[data-comment="${free.id}"]`);
    await freeCard.locator('button', { hasText: 'Take it' }).focus();
    await page.keyboard.press('Enter');
    await freeCard.locator('[role=status]', { hasText: 'It’s yours.' }).waitFor();
    await freeCard.getByText('On it: Dora Dev').waitFor();
    assert.equal(await freeCard.locator('button', { hasText: 'Take it' }).count(), 0);

    // Someone else takes the other one before this panel hears of it: the panel's refreshes of
    // the list are held meanwhile (on a busy machine one could come between the claim and the click).
    const racedCard = widget(page).locator(`[data-comment="${raced.id}"]`);
    await racedCard.locator('button', { hasText: 'Take it' }).waitFor();
    const listRefresh = /\/api\/comments\?/;
    const held: Route[] = [];
    let holding = true;
    await page.route(listRefresh, (route) => (holding ? void held.push(route) : route.continue()));
    await call(stack.api.app, 'POST', `/api/comments/${raced.id}/claim`, { token: rival.token });
    await racedCard.locator('button', { hasText: 'Take it' }).click();
    await racedCard.locator('[role=status].refused', { hasText: 'Ravi Rival is already on this comment' }).waitFor();
    // The card now shows who took it, and nothing left to take.
    await racedCard.getByText('On it: Ravi Rival').waitFor();
    assert.equal(await racedCard.locator('button', { hasText: 'Take it' }).count(), 0);
    holding = false;
    // A refresh the page gave up meanwhile (a newer one replaced it) is handled already.
    for (const route of held) await route.continue().catch(() => undefined);
    await page.unroute(listRefresh);
    await screenshot(page, 'assignee-cards');

    // The team sets the priority from the card, by keyboard.
    const priority = freeCard.getByLabel('Priority');
    await priority.focus();
    await priority.selectOption({ label: 'High' });
    await freeCard.locator('[role=status]', { hasText: 'Priority set.' }).waitFor();
    await freeCard.locator('.pill.priority-high').waitFor();
    const stored = (await call(stack.api.app, 'GET', `/api/comments/${free.id}`, { token: dev.token })).body;
    assert.equal(stored.priority, 'high');
    // And its labels: one added from the menu, then taken off by its button.
    await freeCard.getByLabel('Add a label').selectOption({ label: 'Checkout' });
    await freeCard.locator('[role=status]', { hasText: 'Labels set.' }).waitFor();
    await freeCard.locator('.labels', { hasText: 'Checkout' }).waitFor();
    const labelled = (await call(stack.api.app, 'GET', `/api/comments/${free.id}`, { token: dev.token })).body;
    assert.deepEqual(
      labelled.labels.map((l: { name: string }) => l.name),
      ['Checkout'],
    );
    assert.equal(await freeCard.getByLabel('Add a label').count(), 0, 'no label left to add');
    await screenshot(page, 'labels-on-card');
    await freeCard.getByRole('button', { name: 'Take the label Checkout off' }).click();
    await freeCard.locator('.labels').waitFor({ state: 'detached' });
    await freeCard.getByLabel('Add a label').waitFor();
    // Whose: mine, then nobody's.
    await widget(page).locator('#svc-all-pages').check();
    await widget(page).getByLabel('Whose').selectOption({ label: 'Assigned to me' });
    await widget(page).locator(`[data-comment="${raced.id}"]`).waitFor({ state: 'detached' });
    await freeCard.waitFor();
    assert.equal(await handedCard.count(), 0, 'the agent’s is not mine');
    await widget(page).getByLabel('Whose').selectOption({ label: 'Unassigned' });
    await freeCard.waitFor({ state: 'detached' });
    assert.equal(await widget(page).locator('[data-comment]').filter({ hasText: 'On it:' }).count(), 0);

    const client = await addClient(stack.api.app, stack.admin, undefined, 'Cleo Onlooker');
    const clientPage = await openAs(client);
    await widget(clientPage).locator('.launcher').click();
    await widget(clientPage).locator('[role=tab]', { hasText: 'Comments' }).click();
    const seen = widget(clientPage).locator(`[data-comment="${free.id}"]`);
    await seen.getByText('On it: Dora Dev').waitFor();
    assert.equal(await seen.locator('button', { hasText: 'Take it' }).count(), 0, 'clients do not take work');
  });

  test('mentions when writing: @ suggests the project’s people in a combobox (keyboard, a 390 px phone), and the person chosen is told', async () => {
    const writer = await newReviewer(stack, 'Mia Mention');
    const lena = await newReviewer(stack, 'Lena Fischer');
    const other = await createProject(stack.api.app, stack.admin);
    await addClient(stack.api.app, stack.admin, other.key, 'Otto Otherproject');
    const asked = await comment(stack.admin, 'The plans’ buttons are misaligned');
    const page = await openAs(writer, stack.pageUrl(), { width: 390, height: 844 });
    await widget(page).locator('.launcher').click();
    await widget(page).locator('[role=tab]', { hasText: 'Comments' }).click();
    const card = widget(page).locator(`[data-comment="${asked.id}"]`);
    await card.locator(`#svc-replies-${asked.id}`).click();
    const field = card.locator('textarea');
    await field.focus();
    await page.keyboard.type('Thanks @');
    const list = card.locator('[role=listbox]');
    await list.locator('[role=option]').first().waitFor();
    const everyone = await list.locator('[role=option]').allTextContents();
    assert.ok(everyone.includes('Lena Fischer'), everyone.join(', '));
    assert.ok(!everyone.some((name) => name.includes('Otto')), 'a client of another project is nobody to mention here');
    await page.keyboard.type('fi');
    await list.locator('[role=option]', { hasText: 'Lena Fischer' }).waitFor();
    assert.equal(await list.locator('[role=option]').count(), 1);
    assert.equal(
      await field.getAttribute('aria-activedescendant'),
      await list.locator('[role=option]').getAttribute('id'),
    );
    assert.deepEqual(await seriousViolations(page, '[data-svc-widget]'), [], 'the suggestions open');
    await screenshot(page, 'mention-suggestions-390');
    // Escape closes the suggestions, not the panel.
    await page.keyboard.press('Escape');
    await list.waitFor({ state: 'hidden' });
    assert.equal(await widget(page).locator('.panel').isVisible(), true);
    await page.keyboard.type('s');
    await list.locator('[role=option]', { hasText: 'Lena Fischer' }).waitFor();
    await page.keyboard.press('Enter');
    await list.waitFor({ state: 'hidden' });
    assert.equal(await field.inputValue(), 'Thanks @Lena Fischer ');
    await page.keyboard.type('can you look?');
    await card.locator('button', { hasText: 'Send reply' }).click();
    await card.locator('.replies', { hasText: 'Thanks @Lena Fischer can you look?' }).waitFor();
    const told = (await call(stack.api.app, 'GET', '/api/me/notifications', { token: lena.token })).body.items;
    assert.equal(told[0]?.type, 'CommentMentioned');
    assert.equal(told[0]?.excerpt, 'Thanks @Lena Fischer can you look?');
  });

  test('images: a PNG with metadata pasted into a new comment, a JPEG with its location dropped on a reply, one picked: they arrive re-encoded without their metadata and show in the thread; keyboard, 390 px', async () => {
    const writer = await newReviewer(stack, 'Ines Images');
    const page = await openAs(writer, stack.pageUrl(), { width: 390, height: 844 });
    await widget(page).locator('.launcher').click();
    await widget(page).locator('[role=tab]', { hasText: 'Comments' }).click();
    await widget(page).locator('button', { hasText: 'New' }).click();
    await widget(page).locator('.hint button', { hasText: 'Whole page' }).click();
    const form = widget(page).locator('form', { has: page.locator('#svc-new-body') });
    await form.locator('#svc-new-body').fill('The price is wrong, see the photo');
    // Pasted, as from the clipboard: a PNG whose chunks say where and when it was made.
    const inTheBrowser = (kind: 'paste' | 'drop', selector: string, bytes: number[], type: string) =>
      page.evaluate(
        ([kind, selector, bytes, type]) => {
          const host = document.querySelector('[data-svc-widget]') as HTMLElement;
          const target = host.shadowRoot?.querySelector(selector as string) as HTMLElement;
          const data = new DataTransfer();
          data.items.add(new File([new Uint8Array(bytes as number[])], 'photo', { type: type as string }));
          target.dispatchEvent(
            kind === 'paste'
              ? new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true })
              : new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }),
          );
        },
        [kind, selector, bytes, type] as const,
      );
    await inTheBrowser('paste', '#svc-new-body', [...pngWithMetadata()], 'image/png');
    await form.locator('.thumbs img').first().waitFor();
    // A text file named like an image is refused, said in words.
    await form
      .locator('input[type=file]')
      .setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('not an image') });
    await form.getByRole('alert').filter({ hasText: 'not an image this browser can read' }).waitFor();
    assert.equal(await form.locator('.thumbs img').count(), 1);
    assert.deepEqual(await seriousViolations(page, '[data-svc-widget]'), [], 'images to send');
    await screenshot(page, 'images-to-send-390');
    await form.locator('button[type=submit]', { hasText: 'Send' }).click();
    const card = widget(page).locator('[data-comment]', { hasText: 'The price is wrong, see the photo' });
    await card.waitFor();
    const id = (await card.getAttribute('data-comment')) ?? '';
    const thread = async () => (await call(stack.api.app, 'GET', `/api/comments/${id}`, { token: writer.token })).body;
    const stored = (await thread()).images;
    assert.equal(stored.length, 1);
    assert.equal(stored[0].contentType, 'image/webp', 're-encoded by the browser');
    const bytes = (
      await stack.api.app.inject({
        method: 'GET',
        url: stored[0].url,
        headers: { authorization: `Bearer ${writer.token}` },
      })
    ).rawPayload;
    for (const secret of SECRETS) assert.equal(bytes.includes(secret), false, `${secret} did not leave the browser`);

    // A reply: one dropped on it, one picked by keyboard.
    await card.locator(`#svc-replies-${id}`).click();
    await card.locator('.thumbs img').first().waitFor();
    // Dropped: a phone's JPEG with its GPS position.
    await inTheBrowser('drop', `#svc-reply-${id}`, [...jpegWithMetadata()], 'image/jpeg');
    const replyForm = card.locator('form', { has: page.locator(`#svc-reply-${id}`) });
    await replyForm.locator('.thumbs img').first().waitFor();
    await replyForm.locator('input[type=file]').focus();
    await replyForm
      .locator('input[type=file]')
      .setInputFiles({ name: 'shot.webp', mimeType: 'image/webp', buffer: cleanWebp });
    await replyForm.locator('.thumbs img').nth(1).waitFor();
    await replyForm.getByRole('button', { name: 'Take image 2 off' }).click();
    assert.equal(await replyForm.locator('.thumbs img').count(), 1);
    await card.locator(`#svc-reply-${id}`).fill('Here is the page now');
    await replyForm.locator('button[type=submit]').click();
    await card.locator('.replies li', { hasText: 'Here is the page now' }).locator('.thumbs img').waitFor();
    const images = (await thread()).images;
    assert.equal(images.length, 2);
    assert.equal(images[1].replyId, (await thread()).replies[0].id);
    const dropped = await stack.api.app.inject({
      method: 'GET',
      url: images[1].url,
      headers: { authorization: `Bearer ${writer.token}` },
    });
    for (const secret of SECRETS)
      assert.equal(dropped.rawPayload.includes(secret), false, `${secret} did not leave the browser`);
    await screenshot(page, 'images-in-thread-390');
  });

  test('freshness: with the panel open, a comment by someone else appears, and a notification raised meanwhile shows in Updates', async () => {
    const reader = await newReviewer(stack, 'Fresh Fran');
    const writer = await newReviewer(stack, 'Other Otto');
    const page = await openAs(reader);
    const lists = [] as number[];
    page.on('response', (response) => {
      if (response.url().includes('/api/comments?')) lists.push(response.status());
    });
    await widget(page).locator('.launcher').click();
    await widget(page).locator('[role=tab]', { hasText: 'Comments' }).click();
    await widget(page).locator('.toggle').waitFor();
    const reply = widget(page).locator('[data-comment]');
    await sleep(2500);
    assert.ok(lists.includes(304), `unchanged lists are 304s (${lists.join(' ')})`);
    const fresh = await comment(writer, 'Appeared while the panel was open');
    await widget(page).locator(`[data-comment="${fresh.id}"]`).waitFor({ timeout: 5000 });
    assert.ok((await reply.count()) >= 1);

    const own = await comment(reader, 'Mine, replied to soon');
    await widget(page).locator('[role=tab]', { hasText: 'Updates' }).click();
    await widget(page).locator('.empty, [data-notification]').first().waitFor();
    await call(stack.api.app, 'POST', `/api/comments/${own.id}/replies`, {
      token: writer.token,
      body: { body: 'A reply' },
    });
    await widget(page).locator('[data-notification]', { hasText: 'A reply' }).waitFor({ timeout: 5000 });
  });

  test('plain words: the element by its name, "Fixed in <sha>" linked, who is signed in, pins numbered like their cards, a confirmation after Verified', async () => {
    const reviewer = await newReviewer(stack, 'Wendy Words');
    await comment(reviewer, 'The button label is unclear');
    const applied = await appliedComment(stack, reviewer, { body: 'The price is hard to read' });
    const page = await openAs(reviewer);
    await widget(page).locator('.launcher').click();
    assert.match((await widget(page).locator('.who').textContent()) ?? '', /Signed in as Wendy Words/);
    await widget(page).locator('[role=tab]', { hasText: 'Comments' }).click();
    const card = widget(page).locator('[data-comment]', { hasText: 'The button label is unclear' });
    await card.waitFor();
    assert.match((await card.textContent()) ?? '', /About the “Choose Team” button/);
    const number = await card.locator('.number').textContent();
    const pins = await widget(page).locator('.pin').allTextContents();
    assert.ok(number && pins.includes(number), 'the card carries its pin number');
    const appliedCard = widget(page).locator(`[data-comment="${applied.id}"]`);
    assert.match((await appliedCard.textContent()) ?? '', /Fixed in a1b2c3d/);
    assert.equal(await appliedCard.locator('a.sha').textContent(), 'a1b2c3d');
    await appliedCard.locator('button', { hasText: 'Verified' }).click();
    await appliedCard.locator('[role=status]', { hasText: 'marked as fixed' }).waitFor();
    await screenshot(page, 'plain-words');
  });
});
