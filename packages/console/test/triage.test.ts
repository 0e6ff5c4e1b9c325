// A team lead hears of what clients write: new comments of the projects they follow reach the
// inbox (gathered per project while unread), My work lists what waits for triage, a project is
// followed or left from the projects page or from the inbox item, and an empty inbox says what
// will arrive there. In Chromium, at 1280 px and on a 390 px phone (tapped), by keyboard, with
// axe on every screen.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { addClient, addMember, call, createComment, createProject, type Member } from '../../server/test/helpers.js';
import { type ConsoleStack, consoleAs, launchBrowser, look, startConsoleStack } from './helpers.js';

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

describe('triage in the console: new comments reach those who follow the project', () => {
  let browser: Browser;
  let stack: ConsoleStack;
  let site: { key: string };
  let client: Member;
  const closers: (() => Promise<void>)[] = [];

  before(async () => {
    browser = await launchBrowser();
    stack = await startConsoleStack();
    site = await createProject(stack.api.app, stack.admin);
    client = await addClient(stack.api.app, stack.admin, site.key, 'Cleo Client');
  });
  after(async () => {
    for (const close of closers) await close();
    await browser?.close();
    await stack?.close();
  });

  async function open(member: Member, path: string, viewport = DESKTOP, touch = false) {
    const session = await consoleAs(browser, member, viewport, 'light', touch);
    closers.push(() => session.context.close());
    await session.page.goto(stack.base + path);
    return session;
  }

  const unread = async (member: Member) =>
    (await call(stack.api.app, 'GET', '/api/me/notifications/unread-count', { token: member.token })).body.count;

  /** Tabs forward until the focused element's text matches, as a keyboard user gets there (at most `max` presses). */
  async function tabTo(page: Page, text: RegExp, max = 40) {
    for (let i = 0; i < max; i++) {
      await page.keyboard.press('Tab');
      const focused = await page.evaluate(() => document.activeElement?.textContent ?? '');
      if (text.test(focused)) return;
    }
    assert.fail(`no element matching ${text} within ${max} tabs`);
  }

  test('a client’s three comments are one inbox item for the admin; its control stops them, by keyboard, and keeps the focus', async () => {
    for (const body of ['The logo is cut off', 'The menu hides the title', 'Prices show no currency'])
      await createComment(stack.api.app, client, site.key, body);
    const { page, errors } = await open(stack.admin, '/');
    const badge = page.locator('nav .badge');
    await badge.waitFor();
    assert.match((await badge.textContent()) ?? '', /^1/, 'one unread item, not three');
    const row = page.getByRole('row').filter({ hasText: '3 new comments' });
    await row.getByRole('link', { name: 'Prices show no currency' }).waitFor();
    await row.getByRole('link', { name: `All that wait for triage in ${site.key}` }).waitFor();
    await look(page, 'triage-inbox', errors);

    const stop = new RegExp(`Stop notifying me of new comments in ${site.key}`);
    await tabTo(page, stop);
    await page.keyboard.press('Enter');
    await page
      .getByRole('status')
      .filter({ hasText: `no longer be told of new comments in ${site.key}` })
      .waitFor();
    assert.match(
      await page.evaluate(() => document.activeElement?.textContent ?? ''),
      new RegExp(`Notify me of new comments in ${site.key} again`),
      'the focus stays on the control, which now says what it does next',
    );
    const following = await call(stack.api.app, 'GET', '/api/me/following', { token: stack.admin.token });
    assert.deepEqual(following.body.items, [{ projectKey: site.key, following: false }]);
    await call(stack.api.app, 'POST', '/api/me/notifications/read-all', { token: stack.admin.token });
    await createComment(stack.api.app, client, site.key, 'Told to nobody who left');
    assert.equal(await unread(stack.admin), 0);

    // Pressed again (Space, this time): the admin follows the project again.
    await page.keyboard.press(' ');
    await page
      .getByRole('status')
      .filter({ hasText: `told of new comments in ${site.key} again` })
      .waitFor();
    await createComment(stack.api.app, client, site.key, 'Heard again');
    assert.equal(await unread(stack.admin), 1);
    await look(page, 'triage-inbox-resumed', errors);
    const phone = await open(stack.admin, '/', PHONE, true);
    await phone.page.getByRole('button', { name: stop }).first().waitFor();
    await look(phone.page, 'triage-inbox-phone', phone.errors);

    // The gathered item's list link opens the project's comments nobody is on.
    await row.getByRole('link', { name: `All that wait for triage in ${site.key}` }).click();
    await page.getByRole('heading', { name: 'Comments' }).waitFor();
    const address = new URL(page.url());
    assert.equal(address.pathname, '/comments');
    assert.deepEqual(Object.fromEntries(address.searchParams), { project: site.key, status: 'open', assignee: 'none' });
  });

  test('on a phone, a member follows the project with a tap and My work then lists its new comments nobody is on; the item opens the comment', async () => {
    const dana = await addMember(stack.api.app, stack.admin, 'member', 'Dana Developer');
    for (const body of ['Waited longer', 'Waited less']) await createComment(stack.api.app, client, site.key, body);
    const taken = await createComment(stack.api.app, client, site.key, 'Already taken by someone');
    await call(stack.api.app, 'PUT', `/api/comments/${taken.id}/assignee`, {
      token: stack.admin.token,
      body: { assigneeId: stack.admin.id },
    });
    const { page, errors } = await open(dana, '/mine', PHONE, true);
    await page.getByRole('heading', { name: 'Waiting for triage' }).waitFor();
    await page.getByText('Nothing waits for triage in the projects you follow.').waitFor();
    await look(page, 'triage-my-work-none-phone', errors);

    await page.goto(`${stack.base}/projects`);
    const follow = page.getByRole('button', { name: 'Follow Site' });
    await follow.waitFor();
    await look(page, 'triage-projects-phone', errors);
    await follow.tap();
    await page.getByRole('button', { name: 'Unfollow Site' }).waitFor();

    await page.goto(`${stack.base}/mine`);
    const triage = page.locator('ul.work').filter({ hasText: 'Waited longer' });
    await triage.waitFor();
    const shown = await triage.locator('li > a').allInnerTexts();
    assert.ok(shown.indexOf('Waited longer') < shown.indexOf('Waited less'), 'the longest waiting first');
    assert.equal(shown.includes('Already taken by someone'), false, 'someone is on it: triaged');
    await look(page, 'triage-my-work-phone', errors);
    await triage.getByRole('link', { name: 'Waited longer' }).tap();
    await page.getByRole('heading', { name: /^Comment .*by Cleo Client/ }).waitFor();
  });

  test('My work at 1280 px: an admin finds what waits for triage in every project they follow', async () => {
    const other = await createProject(stack.api.app, stack.admin, { name: 'Shop' });
    await createComment(stack.api.app, client, site.key, 'The site waits');
    await createComment(stack.api.app, stack.admin, other.key, 'The shop waits too');
    const { page, errors } = await open(stack.admin, '/mine');
    const triage = page.locator('ul.work').filter({ hasText: 'The site waits' });
    await triage.getByText('The shop waits too').waitFor();
    await look(page, 'triage-my-work', errors);
  });

  test('an empty inbox says what will arrive there, at 1280 and 390 px', async () => {
    const newcomer = await addMember(stack.api.app, stack.admin, 'member', 'Nell Newcomer');
    for (const [viewport, name] of [
      [DESKTOP, 'triage-inbox-empty'],
      [PHONE, 'triage-inbox-empty-phone'],
    ] as const) {
      const { page, errors } = await open(newcomer, '/', viewport);
      await page.getByText('No notifications yet.').waitFor();
      const arrives = await page.locator('.empty li').allInnerTexts();
      assert.deepEqual(arrives, [
        'new comments in the projects you follow',
        'comments someone assigns to you',
        'comments and replies that mention you',
        'replies to your comments',
        'fixes of your comments to verify, and your fixes sent back',
      ]);
      await look(page, name, errors);
    }
  });
});
