// The board a lead reads at a glance and moves cards on (pointer, touch, keyboard), the console
// on a phone (its navigation, the list's filters), the agents of the team, and a new project's
// Install page.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { addMember, call, createProject, type Member } from '../../server/test/helpers.js';
import { cleanPng } from '../../server/test/images.js';
import { consoleSuite, look, PHONE, WIDE } from './helpers.js';

const PRICING = 'https://app.acme.test/pricing';

describe('the board, the console on a phone, agents', () => {
  const suite = consoleSuite();
  const { open } = suite;

  /** A comment written as `who`, pinned to an element of `pageUrl` unless `pinned` is false. */
  async function write(who: Member, projectKey: string, body: string, pageUrl = PRICING, pinned = true) {
    const answer = await call(suite.stack().api.app, 'POST', `/api/projects/${projectKey}/comments`, {
      token: who.token,
      body: {
        body,
        pageUrl,
        ...(pinned ? { anchor: { selector: 'main > h1', x: 4, y: 4 } } : {}),
        context: {
          viewport: { width: 24, height: 16 },
          screen: { width: 24, height: 16 },
          devicePixelRatio: 1,
          language: 'en-GB',
          timeZone: 'Europe/London',
          colorScheme: 'light',
          title: 'Pricing',
          url: pageUrl,
          buildSha: null,
          errors: [],
          pinnedBox: { x: 4, y: 4, width: 8, height: 4 },
        },
      },
    });
    assert.equal(answer.status, 201, JSON.stringify(answer.body));
    return answer.body as { id: string };
  }

  const columnOf = (page: Page, name: string) => page.getByRole('region', { name: new RegExp(`^${name}`) });
  const cardOf = (page: Page, text: string) => page.locator('article.board-card', { hasText: text });
  const moveButton = (card: Locator) => card.getByRole('button', { name: /^Move “/ });

  /**
   * Drags `from` by its middle with a finger (Chromium's own touch events, through the DevTools
   * protocol) to `to`; when `to` is below the window, the finger rests at its bottom edge until
   * the page has scrolled it under the finger.
   */
  async function dragByTouch(page: Page, from: Locator, to: Locator) {
    const cdp = await page.context().newCDPSession(page);
    const touch = (type: 'touchStart' | 'touchMove', x: number, y: number) =>
      cdp.send('Input.dispatchTouchEvent', { type, touchPoints: [{ x: Math.round(x), y: Math.round(y) }] });
    const lifted = () => from.evaluate((handle) => !!handle.closest('.board-card')?.classList.contains('lifted'));
    // The finger down on the handle, moved until the card is lifted. A board drawn again just
    // then (its lists read again after the last move) may have moved the handle from under the
    // finger: that touch pans the page instead, and the finger goes down again where it is now.
    let [x0, y0] = [0, 0];
    for (let tries = 1; ; tries++) {
      const start = await from.boundingBox();
      assert.ok(start);
      [x0, y0] = [start.x + start.width / 2, start.y + start.height / 2];
      await touch('touchStart', x0, y0);
      for (let step = 1; step <= 3; step++) await touch('touchMove', x0, y0 + step * 6);
      if (await lifted()) break;
      await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
      assert.ok(tries < 3, 'the card is lifted by its handle');
    }
    // At the bottom edge the page scrolls under the finger; above `clear` it is still.
    const bottom = PHONE.height - 12;
    const clear = PHONE.height - 80;
    const aim = async () => {
      const end = await to.boundingBox();
      assert.ok(end);
      return { x: end.x + end.width / 2, y: Math.min(end.y + Math.min(end.height / 2, 40), clear) };
    };
    const first = await aim();
    for (let step = 1; step <= 12; step++)
      await touch('touchMove', x0 + ((first.x - x0) * step) / 12, y0 + ((first.y - y0) * step) / 12);
    // Held at the edge until the column is in view: the page scrolls a step a frame, and a busy
    // machine draws few frames, so a time bounds the wait rather than a count of moves.
    for (let rest = 0, until = Date.now() + 30_000; Date.now() < until; rest++) {
      const end = await to.boundingBox();
      if (end && end.y + 20 < clear) break;
      await touch('touchMove', first.x, bottom - (rest % 2));
    }
    const last = await aim();
    await touch('touchMove', last.x, last.y);
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
    await cdp.detach();
  }

  /**
   * Drags card `text` by finger into column `to` until it is there: a board drawn again just as the
   * finger lifts (its lists read again after the last move) may drop it short, on a busy machine.
   */
  async function dragByTouchInto(page: Page, text: string, to: Locator) {
    for (let tries = 1; ; tries++) {
      await dragByTouch(page, moveButton(cardOf(page, text)), to);
      try {
        await to.getByText(text).waitFor({ timeout: 10_000 });
        return;
      } catch (error) {
        if (tries === 3) throw error;
      }
    }
  }

  test("the board's cards: a thumbnail, the widget's pin number, author and age, new apart from taken; moved by keyboard (announced), by their menu and by dragging, only where the comment's abilities let; long texts; 1280 px", async () => {
    const project = await createProject(suite.stack().api.app, suite.stack().admin);
    const bo = await addMember(suite.stack().api.app, suite.stack().admin, 'member', 'Bo Board');
    const lena = await addMember(suite.stack().api.app, suite.stack().admin, 'member', 'Lena Lead');
    const taken = await write(bo, project.key, 'Header overlaps the menu');
    const archived = await write(bo, project.key, 'Archived before the others');
    const shot = await write(bo, project.key, 'Price of the Team plan is wrong');
    await write(bo, project.key, 'About the whole page', PRICING, false);
    await write(bo, project.key, 'Logo on the home page is blurry', 'https://app.acme.test/');
    const long = `${'The footer says something different on every breakpoint and nobody knows why. '.repeat(12)}${'x'.repeat(160)}`;
    await write(bo, project.key, long);
    await call(suite.stack().api.app, 'POST', `/api/comments/${archived.id}/archive`, { token: bo.token });
    await call(suite.stack().api.app, 'POST', `/api/comments/${taken.id}/claim`, { token: lena.token });
    const uploaded = await suite.stack().api.app.inject({
      method: 'PUT',
      url: `/api/comments/${shot.id}/screenshot`,
      headers: { authorization: `Bearer ${bo.token}`, 'content-type': 'image/png' },
      payload: cleanPng,
    });
    assert.equal(uploaded.statusCode, 200, uploaded.body);

    const { page, errors } = await open(lena, `/comments?project=${project.key}&view=board`);
    const open_ = columnOf(page, 'Open');
    await cardOf(page, 'Price of the Team plan').waitFor();

    // At a glance: the pin's number as the widget draws it, who wrote it and when, a thumbnail.
    const priced = cardOf(page, 'Price of the Team plan');
    assert.equal(
      await priced.locator('.pin-number [aria-hidden]').textContent(),
      '2',
      'the second pinned comment of the page',
    );
    assert.match((await priced.textContent()) ?? '', /Bo Board/);
    await priced.locator('time').waitFor();
    await page.waitForFunction(
      () => ((document.querySelector('article.board-card img') as HTMLImageElement | null)?.naturalWidth ?? 0) > 0,
    );
    assert.equal(await cardOf(page, 'Header overlaps').locator('.pin-number [aria-hidden]').textContent(), '1');
    assert.equal(await cardOf(page, 'Logo on the home page').locator('.pin-number [aria-hidden]').textContent(), '1');
    assert.equal(await cardOf(page, 'About the whole page').locator('.pin-number').count(), 0, 'pinned to nothing');
    assert.equal(await cardOf(page, 'Logo on the home page').locator('img').count(), 0, 'no screenshot, no thumbnail');
    assert.equal(await page.locator('.board select').count(), 0, 'no menu the width of every card');

    // What is new apart from what someone is on.
    const group = (name: string) =>
      open_.locator('.card-group', { has: page.getByRole('heading', { name: new RegExp(`^${name}`) }) });
    await group('On it').getByText('Header overlaps the menu').waitFor();
    assert.match((await group('On it').textContent()) ?? '', /Lena Lead/);
    assert.equal(await group('New').locator('article').count(), 4);
    assert.equal(await group('New').getByText('Header overlaps').count(), 0);

    // By keyboard: Tab from the card's link reaches its move button; → moves it to the next
    // column it may go to, said by the live region; focus stays on it in its new column. (Fixed
    // from the board, with no commit, it is Live at once: Completed is for fixes that wait for
    // their build.)
    const page2 = cardOf(page, 'About the whole page');
    await page2.getByRole('link').focus();
    await page.keyboard.press('Tab');
    assert.equal(
      await page.evaluate(() => document.activeElement?.getAttribute('aria-label')),
      'Move “About the whole page”',
    );
    await page.keyboard.press('ArrowRight');
    await columnOf(page, 'Live').getByText('About the whole page').waitFor();
    await page.getByRole('status').filter({ hasText: '“About the whole page” moved to Live' }).waitFor();
    assert.equal(
      await page.evaluate(() => document.activeElement?.closest('section')?.querySelector('h2')?.id),
      'board-live',
      'focus followed the card',
    );
    // Lena is not its author: verifying is not hers to do, so → goes nowhere, and says so.
    await page.keyboard.press('ArrowRight');
    await page.getByRole('status').filter({ hasText: 'cannot go further' }).waitFor();
    assert.equal(await columnOf(page, 'Verified').getByText('About the whole page').count(), 0);
    await page.keyboard.press('ArrowLeft');
    await page.getByRole('status').filter({ hasText: '“About the whole page” moved to Open' }).waitFor();
    await open_.getByText('About the whole page').waitFor();
    const stored = await call(suite.stack().api.app, 'GET', `/api/comments?project=${project.key}&status=open`, {
      token: lena.token,
    });
    assert.ok(
      stored.body.items.some((c: { body: string }) => c.body === 'About the whole page'),
      'reopened',
    );

    // Its menu (Enter on the move button) lists only where it may go: a fix, archiving.
    const logo = cardOf(page, 'Logo on the home page');
    await moveButton(logo).focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu');
    await menu.waitFor();
    assert.deepEqual(await menu.getByRole('menuitem').allInnerTexts(), ['Live', 'Archived']);
    await page.keyboard.press('Escape');
    await menu.waitFor({ state: 'detached' });
    assert.equal(
      await page.evaluate(() => document.activeElement?.getAttribute('aria-label')),
      'Move “Logo on the home page is blurry”',
    );
    await moveButton(logo).click();
    await page.getByRole('menuitem', { name: 'Archived' }).click();
    await logo.waitFor({ state: 'detached' });
    await page.getByRole('status').filter({ hasText: 'moved to Archived' }).waitFor();

    // By pointer: a card dragged to a column it may go to moves; to Completed (where only a fix
    // with a commit waits) it stays where it was.
    const mouseDrag = async (card: Locator, to: Locator) => {
      const from = await card.boundingBox();
      const target = await to.boundingBox();
      assert.ok(from && target);
      await page.mouse.move(from.x + from.width / 2, from.y + 20);
      await page.mouse.down();
      for (let step = 1; step <= 10; step++)
        await page.mouse.move(
          from.x + from.width / 2 + ((target.x + target.width / 2 - from.x - from.width / 2) * step) / 10,
          from.y + 20 + ((target.y + 40 - from.y - 20) * step) / 10,
        );
      await page.mouse.up();
    };
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(new URL(request.url()).pathname);
    });
    await mouseDrag(cardOf(page, 'Price of the Team plan'), columnOf(page, 'Completed'));
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50)));
    assert.deepEqual(posts, [], 'nothing asked of the server');
    assert.equal(await open_.getByText('Price of the Team plan').count(), 1, 'not moved to Completed');
    assert.equal(await page.getByRole('menu').count(), 0, 'a drag opens no menu');
    await mouseDrag(cardOf(page, 'Price of the Team plan'), columnOf(page, 'Live'));
    await columnOf(page, 'Live').getByText('Price of the Team plan').waitFor();
    await page.getByRole('status').filter({ hasText: '“Price of the Team plan is wrong” moved to Live' }).waitFor();
    const moved = await call(suite.stack().api.app, 'GET', `/api/comments/${shot.id}`, { token: lena.token });
    assert.equal(moved.body.status, 'applied');

    // A long text stays inside its card.
    const footer = cardOf(page, 'The footer says');
    const [cardBox, columnBox] = [await footer.boundingBox(), await open_.boundingBox()];
    assert.ok(cardBox && columnBox && cardBox.x + cardBox.width <= columnBox.x + columnBox.width + 1);
    assert.ok(cardBox.height < 260, `a long text is cut short (${cardBox.height} px)`);
    await look(page, 'console-board', errors);
  });

  test('the board on a 390 px phone: tapped, a card moved by its menu and dragged by a finger; empty columns say what lands there', async () => {
    const project = await createProject(suite.stack().api.app, suite.stack().admin);
    const { page, errors } = await open(
      suite.stack().admin,
      `/comments?project=${project.key}&view=board`,
      PHONE,
      true,
    );
    await columnOf(page, 'Live').getByText(/build/).waitFor();
    assert.match((await columnOf(page, 'Open').textContent()) ?? '', /Nothing open/);
    await look(page, 'console-board-phone-empty', errors);

    await write(suite.stack().admin, project.key, 'Tapped to Live');
    await write(suite.stack().admin, project.key, 'Dragged by a finger');
    await page.reload();
    const tapped = cardOf(page, 'Tapped to Live');
    await tapped.waitFor();
    await moveButton(tapped).tap();
    await page.getByRole('menuitem', { name: 'Live' }).tap();
    await columnOf(page, 'Live').getByText('Tapped to Live').waitFor();
    await page.getByRole('status').filter({ hasText: '“Tapped to Live” moved to Live' }).waitFor();

    // The move button is the handle a finger drags by (the rest of the card scrolls the page).
    await dragByTouchInto(page, 'Dragged by a finger', columnOf(page, 'Live'));
    await page.getByRole('status').filter({ hasText: '“Dragged by a finger” moved to Live' }).waitFor();
    // Its author (an admin) verifies by finger too.
    await dragByTouchInto(page, 'Dragged by a finger', columnOf(page, 'Verified'));
    assert.equal(await page.getByRole('menu').count(), 0, 'a drag opens no menu');
    await look(page, 'console-board-phone', errors);
  });

  test('on a 390 px phone the navigation is one row and a menu, and the list of comments starts high: its filters behind a Filters button that counts those in use', async () => {
    const project = await createProject(suite.stack().api.app, suite.stack().admin, {
      name: 'The customer portal with a rather long name',
    });
    await write(suite.stack().admin, project.key, 'Home page hero is cut', 'https://app.acme.test/');
    await call(
      suite.stack().api.app,
      'PUT',
      `/api/comments/${(await write(suite.stack().admin, project.key, 'Urgent one')).id}/priority`,
      {
        token: suite.stack().admin.token,
        body: { priority: 'high' },
      },
    );
    const { page, errors } = await open(suite.stack().admin, `/comments?project=${project.key}`, PHONE, true);
    await page.getByRole('link', { name: 'Home page hero is cut' }).waitFor();

    const bar = await page.locator('header.topbar').boundingBox();
    assert.ok(bar && bar.height <= 64, `the top bar is one row (${bar?.height} px)`);
    const menuButton = page.getByRole('button', { name: /^Menu/ });
    assert.equal(await menuButton.getAttribute('aria-expanded'), 'false');
    assert.equal(await page.getByRole('link', { name: 'Projects' }).isVisible(), false);

    // The first comment within the first screen; the filters behind one button, with their count.
    const first = await page.locator('tbody tr').first().boundingBox();
    assert.ok(first && first.y < 420, `the first comment starts at ${first?.y} px`);
    const filters = page.getByRole('button', { name: /^Filters/ });
    assert.equal(await filters.textContent(), 'Filters (1)', 'the project');
    assert.equal(await page.getByLabel('Words').isVisible(), false);
    // The page of a comment on the home page is said as its site, not "/".
    const row = page.locator('tbody tr', { hasText: 'Home page hero is cut' });
    assert.equal(await row.locator('td.wrap .muted.small').first().textContent(), 'app.acme.test');
    await look(page, 'console-phone-comments-filters-closed', errors);

    await filters.tap();
    assert.equal(await filters.getAttribute('aria-expanded'), 'true');
    await page.getByLabel('Priority').selectOption({ label: 'High' });
    await page.waitForURL(/priority=high/);
    await page.getByRole('link', { name: 'Home page hero is cut' }).waitFor({ state: 'detached' });
    assert.equal(await page.getByRole('button', { name: /^Filters/ }).textContent(), 'Filters (2)');
    const project_ = await page.getByLabel('Project').boundingBox();
    assert.ok(project_ && project_.width > 300, `the project's menu is as wide as the screen (${project_?.width} px)`);
    await look(page, 'console-phone-comments-filters-open', errors);

    // The menu: tapped open, a section tapped, closed again.
    await menuButton.tap();
    assert.equal(await menuButton.getAttribute('aria-expanded'), 'true');
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await look(page, 'console-phone-menu', errors);
    await page.getByRole('link', { name: 'Projects' }).tap();
    await page.getByRole('heading', { name: 'Projects' }).waitFor();
    assert.equal(await menuButton.getAttribute('aria-expanded'), 'false');
    assert.equal(await page.getByRole('link', { name: 'Agents' }).isVisible(), false);
    // By keyboard: Enter opens it, Escape closes it and gives focus back to its button.
    await menuButton.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('link', { name: 'Agents' }).waitFor();
    await page.keyboard.press('Escape');
    assert.equal(await menuButton.getAttribute('aria-expanded'), 'false');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-controls')), 'console-menu');

    // At 1280 px the sections stand in one row, with no menu button.
    const wide = await open(suite.stack().admin, '/comments');
    await wide.page.getByRole('link', { name: 'Agents' }).waitFor();
    assert.equal(await wide.page.getByRole('button', { name: /^Menu/ }).isVisible(), false);
    assert.equal(await wide.page.getByRole('button', { name: /^Filters/ }).isVisible(), false);
    const wideBar = await wide.page.locator('header.topbar').boundingBox();
    assert.ok(wideBar && wideBar.height <= 56, `one row at 1280 px (${wideBar?.height} px)`);
    // At 720 px (a tablet) they would not fit in the row: a menu too, rather than a row cut short.
    const tablet = await open(suite.stack().admin, '/comments', { width: 720, height: 900 });
    await tablet.page.getByRole('button', { name: /^Menu/ }).waitFor();
    assert.equal(await tablet.page.getByRole('link', { name: 'Agents' }).isVisible(), false);
    await tablet.page.setViewportSize(WIDE);
    await tablet.page.getByRole('link', { name: 'Agents' }).waitFor();
    assert.equal(await tablet.page.getByRole('button', { name: /^Menu/ }).isVisible(), false);
  });

  test('right to left (Arabic): on the board, ← moves a card on to the next column it may go to and → back', async () => {
    const reader = await addMember(suite.stack().api.app, suite.stack().admin, 'member', 'Rana Reader');
    await call(suite.stack().api.app, 'PATCH', '/api/me', { token: reader.token, body: { locale: 'ar' } });
    const project = await createProject(suite.stack().api.app, suite.stack().admin);
    await write(reader, project.key, 'الزر صغير جدًا');
    const { page, errors } = await open(reader, `/comments?project=${project.key}&view=board`);
    const column = (name: string) => page.locator(`section[data-column="${name}"]`);
    await column('open').getByText('الزر صغير جدًا').waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.dir), 'rtl');
    await column('open').locator('button.handle').focus();
    const said = (column: string) => page.getByRole('status').filter({ hasText: `«الزر صغير جدًا» إلى ${column}` });
    await page.keyboard.press('ArrowLeft');
    await column('live').getByText('الزر صغير جدًا').waitFor();
    await said('منشور').waitFor();
    await page.keyboard.press('ArrowRight');
    await column('open').getByText('الزر صغير جدًا').waitFor();
    await said('مفتوح').waitFor();
    await look(page, 'console-board-ar', errors);
  });

  test('agents: an admin adds one by name and sees its key once, gives it another, sees what it is on, removes it; People shows it without a role menu or reset link; API keys say what a key is', async () => {
    const project = await createProject(suite.stack().api.app, suite.stack().admin);
    const { page, errors } = await open(suite.stack().admin, '/agents');
    await page.getByRole('heading', { name: 'Agents' }).waitFor();
    await page.getByLabel('Name').fill('Night agent');
    await page.getByRole('button', { name: 'Add agent' }).click();
    const dialog = page.getByRole('dialog', { name: /Night agent/ });
    const key = (await dialog.locator('pre').textContent()) ?? '';
    assert.match(key, /^svc_key_/);
    assert.equal((await call(suite.stack().api.app, 'GET', '/api/me', { token: key })).body.user.name, 'Night agent');
    await dialog.getByRole('button', { name: 'Done' }).click();
    const row = page.locator('tr', { hasText: 'Night agent' });
    await row.getByText(`…${key.slice(-4)}`).waitFor();
    assert.match((await row.textContent()) ?? '', /Nothing/);

    // What it is on: the open comments assigned to it, linked to the list filtered by it.
    const agentId = (await call(suite.stack().api.app, 'GET', '/api/me', { token: key })).body.user.id as string;
    const comment = await write(suite.stack().admin, project.key, 'Give me to the night agent');
    await call(suite.stack().api.app, 'PUT', `/api/comments/${comment.id}/assignee`, {
      token: suite.stack().admin.token,
      body: { assigneeId: agentId },
    });
    await page.reload();
    const onIt = page.getByRole('link', { name: /1 open comment/ });
    await onIt.waitFor();
    await look(page, 'console-agents', errors);
    await onIt.click();
    await page.waitForURL(new RegExp(`assignee=${agentId}`));
    await page.getByRole('link', { name: 'Give me to the night agent' }).waitFor();

    // Another key, shown once.
    await page.goto(`${suite.stack().base}/agents`);
    await page.getByRole('button', { name: 'New key for Night agent' }).click();
    const second = (await page.getByRole('dialog').locator('pre').textContent()) ?? '';
    assert.match(second, /^svc_key_/);
    assert.notEqual(second, key);
    await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();

    // People: an agent has no role to change and no password to reset.
    const people = await open(suite.stack().admin, '/people');
    const agentRow = people.page.locator('tr', { hasText: 'Night agent' });
    await agentRow.waitFor();
    assert.equal(await people.page.getByLabel('Role of Night agent').count(), 0);
    assert.equal(await people.page.getByRole('button', { name: 'Reset link for Night agent' }).count(), 0);
    assert.match((await agentRow.textContent()) ?? '', /Agent/);

    // API keys: a key acts as its owner; an agent is an account of its own.
    const keys = await open(suite.stack().admin, '/api-keys');
    const lead = keys.page.locator('main p').first();
    assert.match(
      (await lead.textContent()) ?? '',
      /A key acts as you: what it does is shown as your doing\. A coding agent/,
    );
    await keys.page.getByRole('link', { name: 'Agents' }).last().click();
    await keys.page.getByRole('heading', { name: 'Agents' }).waitFor();

    // Removed (confirmed): its keys stop at once.
    await page.getByRole('button', { name: 'Remove Night agent' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await row.waitFor({ state: 'detached' });
    assert.equal((await call(suite.stack().api.app, 'GET', '/api/me', { token: key })).status, 401);
    assert.equal((await call(suite.stack().api.app, 'GET', '/api/me', { token: second })).status, 401);
    await page.getByText('No agents yet').waitFor();

    // A member sees the agents and what they are on, and adds none.
    const member = await addMember(suite.stack().api.app, suite.stack().admin, 'member', 'Mia Member');
    await call(suite.stack().api.app, 'POST', '/api/workspace/agents', {
      token: suite.stack().admin.token,
      body: { name: 'CI agent' },
    });
    const asMember = await open(member, '/agents');
    await asMember.page.locator('tr', { hasText: 'CI agent' }).waitFor();
    assert.equal(await asMember.page.getByRole('button', { name: 'Add agent' }).count(), 0);
    assert.equal(await asMember.page.getByRole('button', { name: /^Remove/ }).count(), 0);

    const phone = await open(suite.stack().admin, '/agents', PHONE, true);
    await phone.page.locator('tr', { hasText: 'CI agent' }).waitFor();
    await look(phone.page, 'console-agents-phone', phone.errors);
  });

  test('a project created in the console opens on its Install page', async () => {
    const { page } = await open(suite.stack().admin, '/projects');
    await page.getByRole('button', { name: 'New project' }).click();
    const dialog = page.getByRole('dialog', { name: 'New project' });
    await dialog.getByLabel('Key').fill('landing');
    await dialog.getByLabel('Name').fill('Landing page');
    await dialog.getByRole('button', { name: 'Create project' }).click();
    await page.getByRole('heading', { name: 'Install Landing page' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/projects/landing/install');
    // The server's page of the extension, asked in the console's language.
    const extension = page.getByRole('link', { name: /extension/i });
    assert.equal(await extension.getAttribute('href'), '/extension?locale=en');
  });
});
