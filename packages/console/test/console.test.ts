import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { seedDemoIfEmpty } from '../../server/src/modules/demo/seed.js';
import { codeAt } from '../../server/src/modules/two-factor/totp.js';
import {
  addClient,
  addMember,
  call,
  createComment,
  createProject,
  createTestApp,
  type Member,
  signUp,
} from '../../server/test/helpers.js';
import { cleanPng, cleanWebp, jpegWithMetadata, SECRETS } from '../../server/test/images.js';
import { startTestProvider } from '../../server/test/oidc-provider.js';
import { type ConsoleStack, consoleAs, launchBrowser, look, startConsoleStack } from './helpers.js';

const PHONE = { width: 390, height: 844 };

describe('the console in Chromium, served by the server at /', () => {
  let browser: Browser;
  let stack: ConsoleStack;
  const closers: (() => Promise<void>)[] = [];

  before(async () => {
    browser = await launchBrowser();
    stack = await startConsoleStack();
  });
  after(async () => {
    for (const close of closers) await close();
    await browser?.close();
    await stack?.close();
  });

  async function open(
    member: Member | null,
    path = '/',
    viewport?: { width: number; height: number },
    colorScheme: 'light' | 'dark' = 'light',
  ) {
    const session = await consoleAs(browser, member, viewport, colorScheme);
    closers.push(() => session.context.close());
    await session.page.goto(stack.base + path);
    return session;
  }

  test('sign in: a wrong password says so; the right one opens the inbox; sign out returns to sign-in', async () => {
    const { page, errors } = await open(null, '/comments');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await look(page, 'console-sign-in', errors);
    await page.getByLabel('E-mail').fill(stack.admin.email);
    await page.getByLabel('Password').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'incorrect' }).waitFor();
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Comments' }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/comments', 'back where the user was headed');
    assert.equal(await page.evaluate(() => localStorage.getItem('svc:console:token')?.startsWith('svc_sess_')), true);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    assert.equal(await page.evaluate(() => localStorage.getItem('svc:console:token')), null);
  });

  test('a fresh server: whoever installs it creates the first workspace; then sign-up is closed', async () => {
    const fresh = await createTestApp({ publicUrl: null, signup: 'first' });
    closers.push(() => fresh.close());
    const base = (await fresh.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
    const session = await consoleAs(browser, null, PHONE);
    closers.push(() => session.context.close());
    const { page, errors } = session;
    await page.goto(`${base}/sign-in`);
    await page.getByRole('link', { name: 'Create a workspace' }).click();
    await page.getByRole('heading', { name: 'Create a workspace' }).waitFor();
    await look(page, 'console-create-workspace-phone', errors);
    await page.getByLabel('Workspace name').fill('Northwind');
    await page.getByLabel('Your name').fill('Ada Admin');
    await page.getByLabel('E-mail').fill('ada@northwind.test');
    await page.getByLabel('Password').fill('a long passphrase');
    await page.getByRole('button', { name: 'Create workspace' }).click();
    await page.getByRole('heading', { name: 'Inbox' }).waitFor();
    // On a phone, Sign out is in the menu.
    await page.getByRole('button', { name: /^Menu/ }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Create a workspace' }).count(), 0, 'closed once one exists');
    await page.goto(`${base}/sign-up`);
    await page.getByText('Sign-up is closed on this server').waitFor();
  });

  test('a deep link reloads into the same page, and the shell is served with a strict CSP and hashed assets', async () => {
    const project = await createProject(stack.api.app, stack.admin);
    const comment = await createComment(stack.api.app, stack.admin, project.key, 'Deep linked');
    const { page, errors } = await open(stack.admin, `/comments/${comment.id}`);
    await page.getByText('Deep linked').first().waitFor();
    await page.reload();
    await page.getByText('Deep linked').first().waitFor();
    const shell = await fetch(`${stack.base}/comments/${comment.id}`);
    assert.match(String(shell.headers.get('content-security-policy')), /script-src 'self';style-src 'self'/);
    const asset = /src="(\/assets\/[^"]+)"/.exec(await shell.text())?.[1];
    assert.match(String((await fetch(stack.base + asset)).headers.get('cache-control')), /immutable/);
    assert.deepEqual(errors, []);
  });

  test('inbox: the amber badge counts unread notifications; one opens its comment; mark all read clears it', async () => {
    const project = await createProject(stack.api.app, stack.admin);
    const member = await addMember(stack.api.app, stack.admin, 'member', 'Dev Dana');
    const comment = await createComment(
      stack.api.app,
      stack.admin,
      project.key,
      'The logo is blurry on retina screens',
    );
    await call(stack.api.app, 'POST', `/api/comments/${comment.id}/replies`, {
      token: member.token,
      body: { body: 'Looking into it' },
    });
    await call(stack.api.app, 'POST', `/api/comments/${comment.id}/apply`, {
      token: member.token,
      body: { commitSha: 'abcdef1' },
    });
    const { page, errors } = await open(stack.admin, '/');
    const badge = page.locator('nav .badge');
    await badge.waitFor();
    assert.match((await badge.textContent()) ?? '', /^2/);
    const colour = await badge.evaluate((el) => getComputedStyle(el).backgroundColor);
    assert.equal(colour, 'rgb(245, 158, 11)', 'the amber of --pf-notify');
    await page.getByRole('cell', { name: /Fix applied/ }).waitFor();
    await look(page, 'console-inbox', errors);
    await page.getByRole('button', { name: 'Mark all read' }).click();
    await badge.waitFor({ state: 'detached' });
    await page
      .getByRole('link', { name: /logo is blurry/ })
      .first()
      .click();
    await page.getByRole('heading', { name: /Comment (\d+ )?by Ada Admin/ }).waitFor();
  });

  test('comments: filters by status, project and words; arrow keys move between rows; archive several at once', async () => {
    const site = await createProject(stack.api.app, stack.admin);
    const shop = await createProject(stack.api.app, stack.admin);
    const member = await addMember(stack.api.app, stack.admin, 'member', 'Triage Tom');
    const ids = [];
    for (const [key, body] of [
      [site.key, 'Hero image overlaps the headline'],
      [site.key, 'Footer links are broken'],
      [shop.key, 'Checkout total rounds wrong'],
    ] as const) {
      ids.push((await createComment(stack.api.app, stack.admin, key, body)).id);
    }
    await call(stack.api.app, 'POST', `/api/comments/${ids[1]}/apply`, {
      token: member.token,
      body: { commitSha: 'abcdef1' },
    });
    const { page, errors } = await open(member, '/comments');
    await page.getByRole('link', { name: 'Checkout total rounds wrong' }).waitFor();
    await look(page, 'console-comments', errors);

    // Each filter is checked once the list has changed: the row it keeps was already shown before.
    await page.getByRole('button', { name: 'Completed' }).click();
    await page.getByRole('link', { name: 'Checkout total rounds wrong' }).waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Footer links are broken' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Checkout total rounds wrong' }).count(), 0);
    assert.match(page.url(), /status=applied/, 'the filters are in the address');
    await page.getByRole('button', { name: 'All' }).click();
    await page.getByLabel('Project').selectOption(shop.key);
    await page.getByRole('link', { name: 'Footer links are broken' }).waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Checkout total rounds wrong' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Footer links are broken' }).count(), 0);
    await page.getByLabel('Project').selectOption('');
    await page.getByLabel('Words').fill('hero headline');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL(/q=hero/);
    // The address changes before the answer comes: the row it keeps was already shown.
    await page.getByRole('link', { name: 'Footer links are broken' }).waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Hero image overlaps the headline' }).waitFor();
    assert.equal(await page.locator('tbody tr').count(), 1);

    await page.getByLabel('Words').fill('');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.waitForURL((url) => !url.search.includes('q='));
    await page.locator('a[data-row]').nth(2).waitFor();
    await page.locator('a[data-row]').first().focus();
    await page.keyboard.press('ArrowDown');
    assert.equal(
      await page.evaluate(() => document.activeElement === document.querySelectorAll('a[data-row]')[1]),
      true,
    );
    await page.keyboard.press('ArrowUp');
    assert.equal(
      await page.evaluate(() => document.activeElement === document.querySelectorAll('a[data-row]')[0]),
      true,
    );

    await page
      .getByRole('checkbox', { name: /Select the comment/ })
      .nth(0)
      .check();
    await page
      .getByRole('checkbox', { name: /Select the comment/ })
      .nth(1)
      .check();
    await page.getByRole('button', { name: 'Archive selected' }).click();
    // Archived, the two stay listed (every status) and selected, for another action.
    await page
      .locator('tbody tr', { hasText: 'Checkout total rounds wrong' })
      .locator('.pill', { hasText: 'Archived' })
      .waitFor();
    await page.getByText('2 selected').waitFor();
    await page.getByRole('button', { name: 'Clear selection' }).click();
    await page.getByRole('button', { name: 'Archive selected' }).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Archived' }).click();
    await page.waitForURL(/status=archived/);
    // The two newest, archived, are what the filter shows; the third, still open, is not.
    await page.getByRole('link', { name: 'Hero image overlaps the headline' }).waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Checkout total rounds wrong' }).waitFor();
    await page.getByRole('link', { name: 'Footer links are broken' }).waitFor();
  });

  test("a comment's detail: where it is and what happened; apply with a commit, reply, reopen, archive and delete (confirmed); only its author or an admin verifies", async () => {
    const project = await createProject(stack.api.app, stack.admin, { repoUrl: 'https://github.com/acme/site' });
    const author = await addMember(stack.api.app, stack.admin, 'member', 'Rita Reviewer');
    const dev = await addMember(stack.api.app, stack.admin, 'member', 'Dev Dana');
    const comment = await createComment(stack.api.app, author, project.key, 'The price wraps on small screens');
    const { page, errors } = await open(dev, `/comments/${comment.id}`);
    await page.getByText('The price wraps on small screens').waitFor();
    assert.match(
      (await page.getByRole('link', { name: 'Open on page' }).getAttribute('href')) ?? '',
      /svc_comment=cmt_/,
    );
    await page.getByText('heading', { exact: false }).first().waitFor();
    assert.equal(await page.getByRole('button', { name: 'Not fixed' }).count(), 0);

    await page.getByRole('button', { name: 'Apply a fix' }).click();
    const dialog = page.getByRole('dialog', { name: 'Apply a fix' });
    await page.waitForFunction(() => document.activeElement?.closest('dialog') !== null);
    // A malformed SHA is said in words, and nothing is sent.
    await dialog.getByLabel('Commit SHA').fill('fix/header');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.getByRole('alert').getByText('"fix/header" is not a commit SHA', { exact: false }).waitFor();
    await dialog.getByLabel('Commit SHA').fill('3abdb14');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('link', { name: 'commit 3abdb14' }).waitFor();
    assert.equal(
      await page.getByRole('link', { name: 'commit 3abdb14' }).getAttribute('href'),
      'https://github.com/acme/site/commit/3abdb14',
    );
    await page.locator('.pill.completed').waitFor();
    await look(page, 'console-comment', errors);

    await page.getByLabel('Reply').fill('Fixed in the grid');
    await page.getByRole('button', { name: 'Send reply' }).click();
    await page.locator('.history li', { hasText: 'Fixed in the grid' }).waitFor();
    await page.getByRole('button', { name: 'Reopen' }).click();
    await page.locator('.pill', { hasText: 'Open' }).waitFor();

    // The author verifies; an author's "Not fixed" needs a note.
    await call(stack.api.app, 'POST', `/api/comments/${comment.id}/apply`, {
      token: dev.token,
      body: { commitSha: 'abcdef1' },
    });
    const asAuthor = await open(author, `/comments/${comment.id}`);
    await asAuthor.page.getByRole('button', { name: 'Not fixed' }).click();
    await asAuthor.page.getByLabel('What is still wrong?').fill('Still wraps at 390 px');
    await asAuthor.page.getByRole('dialog').getByRole('button', { name: 'Reopen' }).click();
    await asAuthor.page
      .locator('.history li', { hasText: 'Not fixed, said Rita Reviewer: “Still wraps at 390 px”' })
      .waitFor();
    // Reopened: the commit that did not fix it is not said to have fixed it.
    await asAuthor.page.getByText('Earlier fix, not accepted').waitFor();
    assert.equal(await asAuthor.page.getByText('Fixed in', { exact: true }).count(), 0);
    // Its discussion: every change and reply, in order, by whom, each said once.
    const discussion = (await asAuthor.page.locator('.history > li').allInnerTexts()).join('\n');
    assert.match(
      discussion,
      /^Applied by Dev Dana in 3abdb14[\s\S]*\nFixed in the grid[\s\S]*\nReopened by Dev Dana[\s\S]*\nApplied by Dev Dana in abcdef1[\s\S]*\nNot fixed, said Rita Reviewer: “Still wraps at 390 px”/,
    );
    assert.doesNotMatch(discussion, /replied|Not fixed: Still wraps/, 'a reply is not said again by its event');

    await page.reload();
    await page.getByRole('button', { name: 'Archive' }).click();
    await page.locator('.pill', { hasText: 'Archived' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Delete' }).count(), 0, 'only its author or an admin deletes');
    await asAuthor.page.reload();
    await asAuthor.page.getByRole('button', { name: 'Delete' }).click();
    await asAuthor.page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await asAuthor.page.getByRole('heading', { name: 'Comments' }).waitFor();
    assert.equal(
      (await call(stack.api.app, 'GET', `/api/comments/${comment.id}`, { token: author.token })).status,
      404,
    );
  });

  test('who is on it: the team takes a comment or puts someone (an agent too) on it; the list shows and filters by it, in the address; a client only reads it; 1200 and 390 px', async () => {
    const project = await createProject(stack.api.app, stack.admin);
    const lead = await addMember(stack.api.app, stack.admin, 'member', 'Lena Lead');
    const agent = await call(stack.api.app, 'POST', '/api/workspace/agents', {
      token: stack.admin.token,
      body: { name: 'Build agent' },
    });
    const comment = await createComment(stack.api.app, stack.admin, project.key, 'Checkout button is grey');
    const other = await createComment(stack.api.app, stack.admin, project.key, 'Nobody took this yet');
    const { page, errors } = await open(lead, `/comments/${comment.id}`);
    await page.getByText('Checkout button is grey').waitFor();
    const assignTo = page.getByLabel('Assign to');
    assert.equal(await assignTo.inputValue(), '', 'nobody on it yet');
    await page.getByRole('button', { name: 'Take it' }).click();
    await page.getByRole('button', { name: 'Take it' }).waitFor({ state: 'detached' });
    assert.equal(await assignTo.inputValue(), lead.id);
    await page.locator('.history li', { hasText: 'Lena Lead took it on' }).waitFor();
    // Keyboard: the select is reached and changed without a pointer.
    await assignTo.focus();
    await assignTo.selectOption({ label: 'Build agent (agent)' });
    await page.locator('.history li', { hasText: 'Assigned to Build agent by Lena Lead' }).waitFor();
    assert.equal(await assignTo.inputValue(), agent.body.agent.id);
    await look(page, 'console-comment-assignee', errors);

    await page.goto(`${stack.base}/comments?project=${project.key}`);
    await page.getByLabel('On it').selectOption({ label: 'Unassigned' });
    await page.waitForURL(/assignee=none/);
    await page.getByRole('link', { name: 'Checkout button is grey' }).waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Nobody took this yet' }).waitFor();
    await page.getByLabel('On it').selectOption({ label: 'Build agent' });
    await page.getByRole('link', { name: 'Checkout button is grey' }).waitFor();
    assert.match((await page.locator('tbody tr').first().textContent()) ?? '', /Build agent \(agent\)/);
    await look(page, 'console-comments-assignee', errors);

    const phone = await open(lead, `/comments/${other.id}`, { width: 390, height: 844 });
    await phone.page.getByRole('button', { name: 'Take it' }).waitFor();
    await look(phone.page, 'console-comment-assignee-phone', phone.errors);
  });

  test('labels and priority: an admin makes labels, the team sets them on a comment; the list shows and filters by both, in the address; 1200 and 390 px', async () => {
    const project = await createProject(stack.api.app, stack.admin);
    const dev = await addMember(stack.api.app, stack.admin, 'member', 'Pat Priority');
    const comment = await createComment(stack.api.app, stack.admin, project.key, 'Totals are misaligned');
    const quiet = await createComment(stack.api.app, stack.admin, project.key, 'A quiet one');
    const admin = await open(stack.admin, '/labels');
    await admin.page.getByRole('heading', { name: 'Labels' }).waitFor();
    for (const [name, color] of [
      ['Regression', 'Red'],
      ['Layout', 'Teal'],
    ] as const) {
      await admin.page.getByLabel('Name', { exact: true }).first().fill(name);
      await admin.page.locator('#new-label-color').selectOption({ label: color });
      await admin.page.getByRole('button', { name: 'Add label' }).click();
      await admin.page.locator('tbody .pill.label', { hasText: name }).waitFor();
    }
    // A second "regression", whatever its case, is said to be taken.
    await admin.page.getByLabel('Name', { exact: true }).first().fill('REGRESSION');
    await admin.page.getByRole('button', { name: 'Add label' }).click();
    await admin.page.getByRole('alert').getByText('has a label named', { exact: false }).waitFor();
    await look(admin.page, 'console-labels', admin.errors);

    const { page, errors } = await open(dev, `/comments/${comment.id}`);
    await page.getByText('Totals are misaligned').waitFor();
    await page.getByLabel('Priority').selectOption({ label: 'Urgent' });
    await page.locator('.history li', { hasText: 'Priority set to Urgent by Pat Priority' }).waitFor();
    await page.getByRole('checkbox', { name: 'Regression' }).check();
    await page.locator('.history li', { hasText: 'Labels set by Pat Priority: Regression' }).waitFor();
    await page.getByRole('checkbox', { name: 'Layout' }).focus();
    await page.keyboard.press('Space');
    await page.locator('.history li', { hasText: 'Labels set by Pat Priority: Layout, Regression' }).waitFor();
    await look(page, 'console-comment-triage', errors);

    await page.goto(`${stack.base}/comments?project=${project.key}`);
    const row = page.locator('tbody tr', { hasText: 'Totals are misaligned' });
    await row.locator('.pill', { hasText: 'Urgent' }).waitFor();
    assert.match((await row.textContent()) ?? '', /Layout.*Regression/);
    await page.getByLabel('Priority').selectOption({ label: 'Urgent' });
    await page.waitForURL(/priority=urgent/);
    await page.getByRole('link', { name: 'A quiet one' }).waitFor({ state: 'detached' });
    await page.getByLabel('Priority').selectOption({ label: 'Any priority' });
    await page.getByLabel('Label', { exact: true }).selectOption({ label: 'Layout' });
    await page.waitForURL(/label=lbl_/);
    await page.getByRole('link', { name: 'A quiet one' }).waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Totals are misaligned' }).waitFor();
    await look(page, 'console-comments-triage', errors);

    // Several at once: select the rows, choose from a menu.
    await page.goto(`${stack.base}/comments?project=${project.key}`);
    for (const body of ['Totals are misaligned', 'A quiet one']) {
      await page
        .getByRole('checkbox', { name: /^Select the comment by/ })
        .nth(body === 'A quiet one' ? 0 : 1)
        .check();
    }
    await page.getByLabel('Set priority…').selectOption({ label: 'Low' });
    await page.locator('tbody .pill', { hasText: 'Urgent' }).waitFor({ state: 'detached' });
    assert.equal(await page.locator('tbody .pill', { hasText: 'Low' }).count(), 2);
    await page.getByRole('checkbox', { name: 'Select every comment of this page' }).check();
    await page.getByLabel('Assign to…').selectOption({ label: 'Pat Priority' });
    await page.locator('tbody tr', { hasText: 'A quiet one' }).getByText('Pat Priority').waitFor();
    const quietNow = (await call(stack.api.app, 'GET', `/api/comments/${quiet.id}`, { token: dev.token })).body;
    assert.deepEqual([quietNow.priority, quietNow.assignee?.name], ['low', 'Pat Priority']);

    // Most urgent first: the older comment, made high, comes before the newer low one.
    await call(stack.api.app, 'PUT', `/api/comments/${comment.id}/priority`, {
      token: dev.token,
      body: { priority: 'high' },
    });
    await page.getByLabel('Order').selectOption({ label: 'Most urgent first' });
    await page.waitForURL(/sort=priority/);
    await page.locator('tbody tr').first().getByText('Totals are misaligned').waitFor();

    const phone = await open(dev, `/comments/${quiet.id}`, { width: 390, height: 844 });
    await phone.page.getByRole('checkbox', { name: 'Layout' }).waitFor();
    await look(phone.page, 'console-comment-triage-phone', phone.errors);
  });

  test('my work: the open comments I am on, most urgent first, those that mention me, and the fixes of my comments that wait for my verdict; empty states said; 390 px', async () => {
    const project = await createProject(stack.api.app, stack.admin);
    const worker = await addMember(stack.api.app, stack.admin, 'member', 'Wren Worker');
    const empty = await open(worker, '/mine');
    await empty.page.getByText('Nothing open is assigned to you.').waitFor();
    await empty.page.getByText('Nobody has mentioned you yet.').waitFor();
    await empty.page.getByText('No fix waits for your verdict.').waitFor();
    const low = await createComment(stack.api.app, stack.admin, project.key, 'Low on my list');
    const urgent = await createComment(stack.api.app, stack.admin, project.key, 'Urgent on my list');
    for (const [id, priority] of [
      [low.id, 'low'],
      [urgent.id, 'urgent'],
    ] as const) {
      await call(stack.api.app, 'PUT', `/api/comments/${id}/assignee`, {
        token: stack.admin.token,
        body: { assigneeId: worker.id },
      });
      await call(stack.api.app, 'PUT', `/api/comments/${id}/priority`, {
        token: stack.admin.token,
        body: { priority },
      });
    }
    await createComment(stack.api.app, stack.admin, project.key, `<@${worker.id}> could you look at the footer?`);
    const own = await createComment(stack.api.app, worker, project.key, 'My own, fixed by the admin');
    await call(stack.api.app, 'POST', `/api/comments/${own.id}/apply`, { token: stack.admin.token, body: {} });
    const { page, errors } = await open(worker, '/mine');
    const assigned = page.locator('ul.work').first();
    await assigned.getByText('Urgent on my list').waitFor();
    assert.deepEqual((await assigned.locator('li > a').allInnerTexts()).slice(0, 2), [
      'Urgent on my list',
      'Low on my list',
    ]);
    await page.locator('ul.work').nth(2).getByText('@Wren Worker could you look at the footer?').waitFor();
    await page.locator('ul.work').nth(3).getByText('My own, fixed by the admin').waitFor();
    await look(page, 'console-my-work', errors);
    const phone = await open(worker, '/mine', { width: 390, height: 844 });
    await phone.page.getByText('Urgent on my list').waitFor();
    await look(phone.page, 'console-my-work-phone', phone.errors);
  });

  test('mentions in a reply: @ suggests who can read the comment (a combobox by keyboard), never a client of another project; the person is told; 1200 and 390 px', async () => {
    const project = await createProject(stack.api.app, stack.admin);
    const other = await createProject(stack.api.app, stack.admin);
    // Names no other test of this workspace gives, so that the suggestions are these only.
    const quentin = await addMember(stack.api.app, stack.admin, 'member', 'Quentin Quarz');
    await addMember(stack.api.app, stack.admin, 'member', 'Quirina Quast');
    await addClient(stack.api.app, stack.admin, other.key, 'Quinn Otherproject');
    const { id } = await createComment(stack.api.app, stack.admin, project.key, 'The footer wraps');
    for (const viewport of [undefined, { width: 390, height: 844 }]) {
      const { page, errors } = await open(stack.admin, `/comments/${id}`, viewport);
      const field = page.getByRole('textbox', { name: 'Reply' });
      await field.focus();
      await page.keyboard.type('Could @qu');
      const list = page.getByRole('listbox', { name: 'People to mention' });
      await list.getByRole('option').first().waitFor();
      assert.deepEqual(await list.getByRole('option').allInnerTexts(), ['Quentin Quarz', 'Quirina Quast']);
      await page.getByRole('status').filter({ hasText: '2 people' }).waitFor({ state: 'attached' });
      await look(page, viewport ? 'console-mention-phone' : 'console-mention', errors);
      await page.keyboard.press('ArrowDown');
      assert.equal(await list.getByRole('option', { name: 'Quirina Quast' }).getAttribute('aria-selected'), 'true');
      await page.keyboard.press('ArrowUp');
      assert.equal(
        await field.getAttribute('aria-activedescendant'),
        await list.getByRole('option', { name: 'Quentin Quarz' }).getAttribute('id'),
      );
      assert.equal(await list.getByRole('option', { name: 'Quentin Quarz' }).getAttribute('aria-selected'), 'true');
      if (viewport) {
        await page.keyboard.press('Escape');
        await list.waitFor({ state: 'hidden' });
        continue;
      }
      await page.keyboard.press('Enter');
      await list.waitFor({ state: 'hidden' });
      assert.equal(await field.inputValue(), 'Could @Quentin Quarz ');
      await page.keyboard.type('check it?');
      await page.getByRole('button', { name: 'Send reply' }).click();
      await page.locator('.history', { hasText: 'Could @Quentin Quarz check it?' }).waitFor();
      // A name chosen in the middle of a text is in the field, the caret after it, before the next
      // frame: keys typed at once go after the name.
      await field.fill('Ask  today');
      await field.evaluate((el: HTMLTextAreaElement) => el.setSelectionRange(4, 4));
      await page.keyboard.type('@qu');
      await list.getByRole('option').first().waitFor();
      const chosen = await field.evaluate((el: HTMLTextAreaElement) => {
        el.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
        return [el.value, el.selectionStart];
      });
      assert.deepEqual(chosen, ['Ask @Quentin Quarz  today', 19]);
    }
    const told = (await call(stack.api.app, 'GET', '/api/me/notifications', { token: quentin.token })).body.items;
    assert.equal(told[0]?.type, 'CommentMentioned');
  });

  test("images: a comment's images shown on its page; a reply sent with one pasted and one picked (a file that is no image refused in words), re-encoded without metadata; 1200 and 390 px", async () => {
    const project = await createProject(stack.api.app, stack.admin);
    const { id } = await createComment(stack.api.app, stack.admin, project.key, 'Photo of the broken banner');
    const attached = await stack.api.app.inject({
      method: 'POST',
      url: `/api/comments/${id}/images`,
      headers: { authorization: `Bearer ${stack.admin.token}`, 'content-type': 'image/png' },
      payload: cleanPng,
    });
    assert.equal(attached.statusCode, 201, attached.body);
    const { page, errors } = await open(stack.admin, `/comments/${id}`);
    await page.getByRole('region', { name: 'Images' }).waitFor();
    await page.locator('ul.thumbs img[alt="Image 1"]').first().waitFor();
    const form = page.locator('form', { has: page.getByRole('textbox', { name: 'Reply' }) });
    await page.getByRole('textbox', { name: 'Reply' }).fill('This is what I see');
    await page.evaluate(
      (bytes) => {
        const data = new DataTransfer();
        data.items.add(new File([new Uint8Array(bytes)], 'photo.jpg', { type: 'image/jpeg' }));
        const field = document.querySelector('textarea') as HTMLTextAreaElement;
        field.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
      },
      [...jpegWithMetadata()],
    );
    await form.locator('ul.thumbs img').first().waitFor();
    await form
      .locator('input[type=file]')
      .setInputFiles({ name: 'notes.png', mimeType: 'image/png', buffer: Buffer.from('text') });
    await form.getByRole('alert').filter({ hasText: 'not an image this browser can read' }).waitFor();
    await form
      .locator('input[type=file]')
      .setInputFiles({ name: 'shot.webp', mimeType: 'image/webp', buffer: cleanWebp });
    await form.locator('ul.thumbs img').nth(1).waitFor();
    await look(page, 'console-images-to-send', errors);
    await form.getByRole('button', { name: 'Send reply' }).click();
    await page.locator('.history li', { hasText: 'This is what I see' }).locator('ul.thumbs img').nth(1).waitFor();
    const thread = (await call(stack.api.app, 'GET', `/api/comments/${id}`, { token: stack.admin.token })).body;
    assert.equal(thread.images.length, 3);
    assert.equal(thread.images[1].replyId, thread.replies[0].id);
    const photo = await stack.api.app.inject({
      method: 'GET',
      url: thread.images[1].url,
      headers: { authorization: `Bearer ${stack.admin.token}` },
    });
    for (const secret of SECRETS) assert.equal(photo.rawPayload.includes(secret), false, secret);
    const phone = await open(stack.admin, `/comments/${id}`, { width: 390, height: 844 });
    await phone.page.locator('.history ul.thumbs img').nth(1).waitFor();
    await look(phone.page, 'console-images-phone', phone.errors);
  });

  /**
   * A page of an app as Chromium paints it, `width` × 360 CSS px: a header whose "Buy" button is
   * broken (its label spills out) or fixed. The whole window, or the button with 48 px around it
   * (what a widget sends of an element), and where the button is.
   */
  async function paintedApp(fixed: boolean) {
    const page = await browser.newPage({ viewport: { width: 640, height: 360 } });
    try {
      await page.setContent(`<body style="margin:0;font:16px sans-serif;background:#f4f6fb">
        <header style="display:flex;justify-content:space-between;align-items:center;padding:24px 32px;background:#1d3557;color:#fff">
          <strong style="font-size:22px">Shop</strong>
          <button style="width:${fixed ? 'auto' : '64px'};white-space:nowrap;overflow:${fixed ? 'visible' : 'hidden'};padding:10px 18px;font-size:16px;border:0;border-radius:6px;background:${fixed ? '#2a9d8f' : '#e63946'};color:#fff">Buy now for 19 €</button>
        </header>
        <main style="padding:24px 32px"><h1 style="margin:0 0 8px">Spring sale</h1><p>Everything must go.</p></main>
      </body>`);
      const box = (await page.locator('button').boundingBox()) ?? { x: 0, y: 0, width: 1, height: 1 };
      const room = 48;
      const x = Math.max(0, box.x - room);
      const y = Math.max(0, box.y - room);
      const element = await page.screenshot({
        clip: {
          x,
          y,
          width: Math.min(640 - x, box.width + 2 * room),
          height: Math.min(360 - y, box.height + 2 * room),
        },
      });
      return { window: await page.screenshot(), element, box };
    } finally {
      await page.close();
    }
  }

  test('before and after: each verdict beside the reported picture (said plainly when it came without one), and a fix that waits beside the latest picture of now; 1280 and 390 px', async () => {
    const app = stack.api.app;
    const project = await createProject(app, stack.admin);
    const author = await addMember(app, stack.admin, 'member', 'Ben Baker');
    const [broken, fixed] = [await paintedApp(false), await paintedApp(true)];
    const report = async (body: string) => {
      const created = await call(app, 'POST', `/api/projects/${project.key}/comments`, {
        token: author.token,
        body: {
          body,
          pageUrl: 'https://app.example.test/',
          anchor: { selector: 'header button', x: 2, y: 2 },
          context: {
            viewport: { width: 640, height: 360 },
            screen: { width: 640, height: 360 },
            devicePixelRatio: 1,
            language: 'en',
            timeZone: 'UTC',
            colorScheme: 'light',
            title: 'Shop',
            url: 'https://app.example.test/',
            buildSha: null,
            errors: [],
            pinnedBox: broken.box,
          },
        },
      });
      const id = created.body.id as string;
      assert.equal((await image(id, 'screenshot', broken.window)).statusCode, 200);
      return id;
    };
    const image = (id: string, where: string, bytes: Buffer) =>
      app.inject({
        method: where === 'screenshot' ? 'PUT' : 'POST',
        url: `/api/comments/${id}/${where}`,
        headers: { authorization: `Bearer ${author.token}`, 'content-type': 'image/png' },
        payload: bytes,
      });
    const apply = (id: string, commitSha: string) =>
      call(app, 'POST', `/api/comments/${id}/apply`, { token: stack.admin.token, body: { commitSha } });

    // Not fixed without a picture (an older widget), applied again, and now waiting: its author's widget took the picture of now.
    const waiting = await report('The Buy button cuts its label');
    await apply(waiting, 'a1b2c3d');
    await call(app, 'POST', `/api/comments/${waiting}/verify`, {
      token: author.token,
      body: { ok: false, note: 'Still cut' },
    });
    await apply(waiting, 'e4f5a6b');
    assert.equal((await image(waiting, 'images?now=true', fixed.element)).statusCode, 201);
    // Applied, and nobody has opened the page since.
    const unseen = await report('The Buy button is red');
    await apply(unseen, 'c0ffee1');
    // Verified, with the picture of after.
    const verified = await report('The price is hidden');
    await apply(verified, 'bead123');
    await call(app, 'POST', `/api/comments/${verified}/verify`, { token: author.token, body: { ok: true } });
    assert.equal((await image(verified, 'images?verdict=true', fixed.element)).statusCode, 201);

    for (const [viewport, suffix] of [
      [{ width: 1280, height: 900 }, ''],
      [PHONE, '-phone'],
    ] as const) {
      const { page, errors } = await open(stack.admin, `/comments/${waiting}`, viewport);
      await page.getByRole('heading', { name: 'Before and after' }).waitFor();
      const rejected = page.getByRole('region', { name: 'Not fixed, said Ben Baker: “Still cut”' });
      await rejected.getByText('No picture came with this verdict: the element was not on Ben Baker’s page').waitFor();
      await rejected.locator('figure', { hasText: 'Before' }).locator('img[src^="blob:"]').waitFor();
      const now = page.getByRole('region', { name: 'The fix waits for the verdict of Ben Baker' });
      await now.getByText(/^Now, as Ben Baker saw it, /).waitFor();
      const pictures = now.locator('img[src^="blob:"]');
      await pictures.nth(1).waitFor();
      // One scale: the crops have as many pixels a side, and are shown as wide as each other.
      await page.waitForFunction(() =>
        [...document.querySelectorAll<HTMLImageElement>('.before-after img')].every((img) => img.style.width),
      );
      const [beforeShown, nowShown] = await pictures.evaluateAll((imgs) =>
        (imgs as HTMLImageElement[]).map((img) => img.getBoundingClientRect().width / img.naturalWidth),
      );
      assert.ok(beforeShown && nowShown && Math.abs(beforeShown - nowShown) < 0.01, `${beforeShown} vs ${nowShown}`);
      assert.ok(((await pictures.nth(1).boundingBox())?.width ?? 0) > 160, 'large enough to judge');
      // The keyboard reaches each picture (a link to it full size).
      let focusedIn = '';
      for (let tab = 0; tab < 40 && !focusedIn; tab++) {
        await page.keyboard.press('Tab');
        focusedIn = await page.evaluate(
          () => document.activeElement?.closest('.before-after')?.querySelector('h3')?.textContent ?? '',
        );
      }
      assert.ok(focusedIn, 'a picture of the pairs takes the focus');
      await look(page, `console-before-after${suffix}`, errors);

      const second = await open(stack.admin, `/comments/${unseen}`, viewport);
      await second.page
        .getByText(
          'Waiting for Ben Baker to open the page: their widget then takes a picture of the element as it is now.',
        )
        .waitFor();
      await second.page.locator('.before-after img[src^="blob:"]').waitFor();
      await look(second.page, `console-before-after-waiting${suffix}`, second.errors);

      const third = await open(stack.admin, `/comments/${verified}`, viewport);
      const pair = third.page.getByRole('region', { name: 'Verified by Ben Baker' });
      await pair.locator('img[src^="blob:"]').nth(1).waitFor();
      await look(third.page, `console-before-after-verified${suffix}`, third.errors);
    }
  });

  test('projects: create, edit origins, install snippets with this server and the key, builds, delete by typing the key', async () => {
    const { page, errors } = await open(stack.admin, '/projects');
    await page.getByRole('button', { name: 'New project' }).click();
    const dialog = page.getByRole('dialog', { name: 'New project' });
    await dialog.getByLabel('Key').fill('marketing');
    await dialog.getByLabel('Name').fill('Marketing site');
    await dialog.getByLabel('Allowed origins').fill('https://www.acme.test\nnot an origin');
    await dialog.getByRole('button', { name: 'Create project' }).click();
    await dialog.getByRole('alert').waitFor();
    await dialog.getByLabel('Allowed origins').fill('https://www.acme.test\nhttps://staging.acme.test/');
    await dialog.getByRole('button', { name: 'Create project' }).click();
    // A new project opens on its Install page (board.test.ts); its list has it.
    await page.getByRole('heading', { name: 'Install Marketing site' }).waitFor();
    await page.goto(`${stack.base}/projects`);
    await page.locator('td strong', { hasText: 'Marketing site' }).waitFor();
    await look(page, 'console-projects', errors);

    await page.getByRole('button', { name: 'Edit Marketing site' }).click();
    await page.getByRole('dialog').getByLabel('App URL').fill('https://www.acme.test/');
    await page.getByRole('dialog').getByLabel('Page parameters').fill('tab, id');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await page.getByRole('cell', { name: 'https://www.acme.test' }).waitFor();
    const stored = (await call(stack.api.app, 'GET', '/api/projects/marketing', { token: stack.admin.token })).body;
    assert.deepEqual(stored.allowedOrigins, ['https://www.acme.test', 'https://staging.acme.test']);
    assert.deepEqual(stored.pageParams, ['id', 'tab']);

    await page.getByRole('link', { name: 'Install Marketing site' }).click();
    await page.getByRole('heading', { name: 'Install Marketing site' }).waitFor();
    const snippets = await page.locator('pre').allTextContents();
    assert.ok(snippets.some((s) => s.includes(`<script src="${stack.base}/widget.js" data-project-key="marketing"`)));
    assert.ok(
      snippets.some((s) => s.includes(`node .svc/svc-cli.mjs init --server ${stack.base} --project marketing`)),
    );
    // svc-cli comes from this server, checked: no snippet asks a public registry for it.
    assert.ok(snippets.every((s) => !s.includes('npx')));
    assert.ok(snippets.some((s) => s.includes(`${stack.base}/cli/svc-cli.mjs.sha256 | sha256sum -c -`)));
    const published = (await (await fetch(`${stack.base}/cli/svc-cli.mjs.sha256`)).text()).split(' ')[0] ?? '';
    assert.match(published, /^[0-9a-f]{64}$/);
    assert.match((await page.locator('.cli-sha').textContent()) ?? '', new RegExp(published));
    assert.ok(
      snippets.some((s) => s.includes('actions/checkout@v4')) && snippets.some((s) => s.includes('GIT_DEPTH: 0')),
    );
    assert.ok(
      snippets.some(
        (s) => s === `script-src ${stack.base}; connect-src ${stack.base}; img-src ${stack.base} data: blob:`,
      ),
      "the policy's sources name this server",
    );
    assert.equal(await page.getByRole('button', { name: /^Copy / }).count(), 6);
    await look(page, 'console-install', errors);

    await call(stack.api.app, 'POST', '/api/projects/marketing/builds', {
      token: stack.admin.token,
      body: { sha: 'abcdef1234567' },
    });
    await page.goto(`${stack.base}/projects/marketing/builds`);
    await page.getByRole('cell', { name: 'abcdef1' }).waitFor();
    await look(page, 'console-builds', errors);

    await page.goto(`${stack.base}/projects`);
    await page.getByRole('button', { name: 'Delete Marketing site' }).click();
    const confirm = page.getByRole('dialog');
    const remove = confirm.getByRole('button', { name: 'Delete project' });
    assert.equal(await remove.isDisabled(), true);
    await confirm.getByLabel('Type marketing to confirm').fill('marketing');
    await remove.click();
    await page.locator('td strong', { hasText: 'Marketing site' }).waitFor({ state: 'detached' });
  });

  test("a widget's link for an origin not allowed opens the project with it added; origins refused lately are offered", async () => {
    const project = await createProject(stack.api.app, stack.admin, { allowedOrigins: ['https://www.acme.test'] });
    for (const origin of ['https://preview-42.acme.test', 'https://staging.acme.test']) {
      await stack.api.app.inject({
        method: 'GET',
        url: `/api/widget/origin-check?project=${project.key}`,
        headers: { origin },
      });
    }
    const link = `/projects?edit=${project.key}&origin=${encodeURIComponent('https://staging.acme.test')}`;
    const { page, errors } = await open(stack.admin, link, PHONE);
    const dialog = page.getByRole('dialog', { name: /^Edit / });
    await dialog.waitFor();
    assert.equal(
      await dialog.getByLabel('Allowed origins').inputValue(),
      'https://www.acme.test\nhttps://staging.acme.test',
    );
    assert.equal(new URL(page.url()).search, '', 'the link is used once');
    await look(page, 'console-refused-origins-phone', errors);
    await dialog.getByRole('button', { name: 'Allow https://preview-42.acme.test' }).click();
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'hidden', timeout: 10_000 }).catch(async (error) => {
      throw new Error(`${error.message}\nThe dialog says: ${await dialog.textContent()}`);
    });
    // The list reloads after saving: the link does not open the dialog again.
    await page.waitForLoadState('networkidle');
    assert.equal(await dialog.isVisible(), false, 'the dialog stays closed');
    const stored = (await call(stack.api.app, 'GET', `/api/projects/${project.key}`, { token: stack.admin.token }))
      .body;
    assert.deepEqual(stored.allowedOrigins, [
      'https://www.acme.test',
      'https://staging.acme.test',
      'https://preview-42.acme.test',
    ]);
  });

  test('people: invite (link to copy), accept it in another browser, change a role, reset link, client links created, rotated and revoked, remove', async () => {
    const { page, errors } = await open(stack.admin, '/people');
    await page.getByRole('heading', { name: 'Team' }).waitFor();
    await page.getByLabel('E-mail', { exact: true }).fill('newcomer@example.test');
    await page.getByRole('button', { name: 'Invite' }).click();
    const shown = page.getByRole('dialog', { name: /Invitation for newcomer@example.test/ });
    const inviteUrl = (await shown.locator('pre').textContent()) ?? '';
    assert.match(inviteUrl, new RegExp(`^${stack.base}/invite#svc_inv_`));
    await shown.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('cell', { name: 'newcomer@example.test', exact: true }).waitFor();
    await look(page, 'console-people', errors);

    const invited = await open(null, new URL(inviteUrl).pathname + new URL(inviteUrl).hash);
    await invited.page.getByLabel('Your name').fill('Nia Newcomer');
    await invited.page.getByLabel('Password').fill('1234567890');
    await invited.page.getByRole('button', { name: 'Join' }).click();
    const refusal = (await invited.page.getByRole('alert').textContent()) ?? '';
    assert.equal(refusal.match(/commonly used/g)?.length, 1, `said once: ${refusal}`);
    await invited.page.getByLabel('Password').fill('a fine long passphrase');
    await invited.page.getByRole('button', { name: 'Join' }).click();
    await invited.page.getByRole('heading', { name: 'Inbox' }).waitFor();
    assert.match((await invited.page.locator('.who').textContent()) ?? '', /Nia Newcomer · member/);
    assert.equal(new URL(invited.page.url()).hash, '', 'the token is gone from the address bar');

    await page.reload();
    // Read once the server has answered the change (on a busy machine the read came first).
    const changed = page.waitForResponse(
      (r) => r.request().method() === 'PATCH' && /\/api\/workspace\/members\//.test(r.url()),
    );
    await page.getByLabel('Role of Nia Newcomer').selectOption('admin');
    assert.equal((await changed).status(), 200);
    const nia = (
      await call(stack.api.app, 'GET', '/api/workspace/members', { token: stack.admin.token })
    ).body.items.find((m: { name: string }) => m.name === 'Nia Newcomer');
    assert.equal(nia.role, 'admin');

    await page.getByRole('button', { name: 'Reset link for Nia Newcomer' }).click();
    const resetUrl = (await page.getByRole('dialog').locator('pre').textContent()) ?? '';
    await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
    const resetting = await open(null, new URL(resetUrl).pathname + new URL(resetUrl).hash);
    await resetting.page.getByLabel('New password').fill('another fine passphrase');
    await resetting.page.getByRole('button', { name: 'Set password' }).click();
    await resetting.page.getByRole('heading', { name: 'Inbox' }).waitFor();
    await invited.page.reload();
    await invited.page.getByRole('heading', { name: 'Sign in' }).waitFor();

    const project = await createProject(stack.api.app, stack.admin, { appUrl: 'https://app.acme.test' });
    await page.reload();
    await page.getByLabel("Client's name").fill('Cleo Client');
    await page.getByRole('combobox', { name: 'Project' }).selectOption(project.key);
    await page.getByRole('button', { name: 'Create link' }).click();
    const access = (await page.getByRole('dialog').locator('pre').textContent()) ?? '';
    assert.match(access, /^https:\/\/app\.acme\.test\/#svc_access=svc_acc_/);
    await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'New link for Cleo Client' }).click();
    const rotated = (await page.getByRole('dialog').locator('pre').textContent()) ?? '';
    assert.notEqual(rotated, access);
    await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
    const oldToken = new URL(access).hash.replace('#svc_access=', '');
    assert.equal(
      (await call(stack.api.app, 'POST', '/api/auth/quick-access', { body: { accessToken: oldToken } })).status,
      401,
    );
    await page.getByRole('button', { name: 'Revoke Cleo Client' }).click();
    await page.getByRole('cell', { name: 'Cleo Client', exact: true }).waitFor({ state: 'detached' });

    assert.equal(await page.getByRole('button', { name: 'Remove Ada Admin' }).count(), 1, 'two admins: either goes');
    await page.getByRole('button', { name: 'Remove Nia Newcomer' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
    await page.getByLabel('Role of Nia Newcomer').waitFor({ state: 'detached' });
    // The only admin left: no Remove offered, and why.
    assert.equal(await page.getByRole('button', { name: 'Remove Ada Admin' }).count(), 0);
    await page.getByText('Only admin: make another member admin to remove Ada Admin').waitFor();
  });

  test('the audit log (admins): who did what, filtered by action and person, at 1200 and 390 px; members see no entry for it', async () => {
    const mo = await addMember(stack.api.app, stack.admin, 'member', 'Mo Audited');
    await call(stack.api.app, 'POST', '/api/auth/login', { body: { email: mo.email, password: 'not the password' } });
    await call(stack.api.app, 'PATCH', `/api/workspace/members/${mo.id}`, {
      token: stack.admin.token,
      body: { role: 'admin' },
    });
    const { page, errors } = await open(stack.admin, '/audit');
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    await page.locator('tr[data-action="role_changed"]', { hasText: 'member → admin' }).first().waitFor();
    await look(page, 'console-audit', errors);
    await page.getByLabel('Action').selectOption('sign_in_failed');
    await page.waitForURL(/action=sign_in_failed/);
    await page.locator('tr[data-action="sign_in_failed"]', { hasText: 'Mo Audited' }).first().waitFor();
    await page.locator('tbody tr:not([data-action="sign_in_failed"])').first().waitFor({ state: 'detached' });
    assert.match((await page.locator('tbody tr').first().textContent()) ?? '', /wrong password/);
    await page.getByLabel('Who').selectOption({ label: 'Mo Audited' });
    await page.waitForURL(/actor=usr_/);
    await page.locator('tr[data-action="sign_in_failed"]').first().waitFor();
    await page.getByLabel('Action').selectOption('project_deleted');
    await page.getByText('Nothing matches these filters.').waitFor();

    const phone = await open(stack.admin, '/audit', PHONE);
    await phone.page.locator('tbody tr').first().waitFor();
    await look(phone.page, 'console-phone-audit', phone.errors);

    const member = await open(await addMember(stack.api.app, stack.admin, 'member', 'Mia Member'), '/');
    await member.page.getByRole('link', { name: 'Comments' }).waitFor();
    assert.equal(await member.page.getByRole('link', { name: 'Audit log' }).count(), 0);
  });

  test('insights: the backlog chart, waits and whose fixes hold, what is stuck; filters in the address; keyboard, 1200 and 390 px, dark; the chart loads only there', async () => {
    const app = stack.api.app;
    const project = await createProject(app, stack.admin);
    const dana = await addMember(app, stack.admin, 'member', 'Dana Insight');
    const key = (await call(app, 'POST', '/api/me/api-keys', { token: dana.token, body: { name: 'agent' } })).body.key;
    const ids: string[] = [];
    for (const body of [
      'The price wraps on small screens',
      'Logo is blurry',
      'Footer link 404',
      `Waiting ${'very '.repeat(40)}long`,
    ]) {
      ids.push((await createComment(app, stack.admin, project.key, body)).id);
    }
    const [byPerson, byKey, rejected] = ids as [string, string, string];
    const apply = (id: string, token: string, commitSha: string) =>
      call(app, 'POST', `/api/comments/${id}/apply`, { token, body: { commitSha } });
    await apply(byPerson, dana.token, 'abcdef1');
    await apply(byKey, key, 'abcdef1');
    await apply(rejected, key, 'fedcba9');
    await call(app, 'POST', `/api/projects/${project.key}/builds`, { token: dana.token, body: { sha: 'abcdef1' } });
    await call(app, 'POST', `/api/comments/${byPerson}/verify`, { token: stack.admin.token, body: { ok: true } });
    await call(app, 'POST', `/api/comments/${rejected}/verify`, {
      token: stack.admin.token,
      body: { ok: false, note: 'Still 404' },
    });

    // The inbox does not load the chart's code.
    const inbox = await open(stack.admin, '/');
    const chunks: string[] = [];
    inbox.page.on('request', (request) => chunks.push(request.url()));
    await inbox.page.getByRole('link', { name: 'Insights' }).waitFor();
    assert.ok(!chunks.some((url) => /insights-/.test(url)), 'no insights chunk before the page is opened');
    await inbox.page.getByRole('link', { name: 'Insights' }).click();
    await inbox.page.getByRole('heading', { name: 'Insights' }).waitFor();
    assert.ok(
      chunks.some((url) => /\/assets\/insights-[A-Z0-9]+\.js$/.test(url)),
      'the insights chunk loads when opened',
    );

    const { page, errors } = await open(stack.admin, `/insights?project=${project.key}`);
    const tiles = page.getByRole('list', { name: 'In short' });
    await tiles.waitFor();
    assert.match((await tiles.textContent()) ?? '', /2 open now/);
    assert.match((await tiles.textContent()) ?? '', /100% right the first time/);
    const chart = page.getByRole('img', { name: /^Open comments: / });
    await chart.locator('canvas').first().waitFor();
    assert.match((await chart.getAttribute('aria-label')) ?? '', /, 2 on \d{4}-\d\d-\d\d; at most [2-4], on/);
    const hold = page.getByRole('table').filter({ hasText: 'Fixed by' });
    assert.match(
      (await hold.locator('tr[data-who="everyone"]').textContent()) ?? '',
      /Everyone3.*33% 1 sent back1.*100% 1 right/,
    );
    assert.match((await hold.locator('tr[data-who="api_key"]').textContent()) ?? '', /API keys2.*50% 1 sent back/);
    await page.locator('.wait-row[data-who="person"]').first().waitFor();
    await page.getByRole('link', { name: /^Waiting very very/ }).waitFor();
    await page.getByText('Live, not verified (1)').waitFor();
    await page.getByText('The numbers, day by day').click();
    await page.getByRole('rowheader', { name: new Date().toISOString().slice(0, 10) }).waitFor();
    await look(page, 'console-insights', errors);

    // Keyboard: the filters are reachable and change the address.
    await page.getByLabel('Period').focus();
    await page.keyboard.press('ArrowDown');
    await page.waitForURL(/days=90/);
    await tiles.waitFor();
    await page.getByLabel('Project').selectOption('');
    await page.waitForURL(/\/insights\?days=90$/);

    const phone = await open(stack.admin, `/insights?project=${project.key}`, PHONE);
    await phone.page
      .getByRole('img', { name: /^Open comments: / })
      .locator('canvas')
      .first()
      .waitFor();
    await look(phone.page, 'console-phone-insights', phone.errors);
    const dark = await open(stack.admin, `/insights?project=${project.key}`, undefined, 'dark');
    await dark.page
      .getByRole('img', { name: /^Open comments: / })
      .locator('canvas')
      .first()
      .waitFor();
    await look(dark.page, 'console-dark-insights', dark.errors);

    const empty = await createProject(app, stack.admin);
    const quiet = await open(dana, `/insights?project=${empty.key}&days=7`);
    await quiet.page.getByText('Nothing happened in this period.').waitFor();
    await look(quiet.page, 'console-insights-empty', quiet.errors);
  });

  test('people: lists of more than 100 page with "Show more", and a change on a later page keeps it shown', async () => {
    const paula = await signUp(stack.api.app, 'Paula Pager');
    for (let i = 0; i < 105; i++) {
      const invited = await call(stack.api.app, 'POST', '/api/workspace/invites', {
        token: paula.token,
        body: { email: `invitee-${String(i).padStart(3, '0')}@example.test`, role: 'member' },
      });
      assert.equal(invited.status, 201, JSON.stringify(invited.body));
    }
    const { page, errors } = await open(paula, '/people');
    const rows = page.getByRole('table', { name: 'Pending invitations' }).locator('tbody tr');
    await page.getByRole('button', { name: 'Show more invitations' }).waitFor();
    assert.equal(await rows.count(), 100);
    await page.getByRole('button', { name: 'Show more invitations' }).click();
    // The button reads "Loading…" while the next page loads; its rows follow, then it goes.
    await rows.nth(104).waitFor();
    await page.getByRole('button', { name: 'Show more invitations' }).waitFor({ state: 'detached' });
    assert.equal(await page.getByRole('button', { name: 'Loading…' }).count(), 0);
    assert.equal(await rows.count(), 105);
    const last = rows.last();
    const email = (await last.locator('td').first().textContent()) ?? '';
    await last.getByRole('button', { name: /^Withdraw/ }).click();
    await page.getByText(email, { exact: true }).waitFor({ state: 'detached' });
    assert.equal(await rows.count(), 104, 'still every row shown after the change');
    assert.deepEqual(errors, []);
  });

  test('builds: more than 50 page with "Older builds", the older ones added under the newer', async () => {
    const paula = await signUp(stack.api.app, 'Paula Builds');
    const project = await createProject(stack.api.app, paula);
    for (let i = 0; i < 53; i++) {
      const reported = await call(stack.api.app, 'POST', `/api/projects/${project.key}/builds`, {
        token: paula.token,
        body: { sha: `${String(i).padStart(7, '0')}abcdef` },
      });
      assert.equal(reported.status, 201, JSON.stringify(reported.body));
    }
    const { page, errors } = await open(paula, `/projects/${project.key}/builds`);
    const rows = page.locator('tbody tr');
    await page.getByRole('button', { name: 'Older builds' }).waitFor();
    assert.equal(await rows.count(), 50);
    assert.equal(await rows.first().locator('code').textContent(), '0000052');
    await page.getByRole('button', { name: 'Older builds' }).click();
    await page.getByRole('button', { name: 'Older builds' }).waitFor({ state: 'detached' });
    // The button goes while the older page loads; its rows follow.
    await rows.nth(52).waitFor();
    assert.equal(await rows.count(), 53, 'the newest still shown, the oldest under them');
    assert.equal(await rows.first().locator('code').textContent(), '0000052');
    assert.equal(await rows.last().locator('code').textContent(), '0000000');
    assert.deepEqual(errors, []);
  });

  test('API keys: created and shown once with a copy button, listed by its last four, revoked; admins see every key', async () => {
    const member = await addMember(stack.api.app, stack.admin, 'member', 'Key Keeper');
    const { page, errors } = await open(member, '/api-keys');
    await page.getByLabel('Name').fill('GitHub deploy');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByRole('dialog').locator('pre').textContent()) ?? '';
    assert.match(key, /^svc_key_/);
    await page.getByRole('dialog').getByRole('button', { name: 'Done' }).click();
    await page.getByRole('cell', { name: `…${key.slice(-4)}` }).waitFor();
    assert.equal(await page.getByRole('heading', { name: 'Every key of the workspace' }).count(), 0);
    await look(page, 'console-api-keys', errors);

    const asAdmin = await open(stack.admin, '/api-keys');
    await asAdmin.page.getByRole('button', { name: 'Revoke GitHub deploy of Key Keeper' }).click();
    await asAdmin.page
      .getByRole('button', { name: 'Revoke GitHub deploy of Key Keeper' })
      .waitFor({ state: 'detached' });
    assert.equal((await call(stack.api.app, 'GET', '/api/me', { token: key })).status, 401);
  });

  test('account: sessions listed, sign out everywhere else, password change', async () => {
    const member = await addMember(stack.api.app, stack.admin, 'member', 'Acc Owner');
    const other = await call(stack.api.app, 'POST', '/api/auth/login', {
      body: { email: member.email, password: 'another good password' },
    });
    const { page, errors } = await open(member, '/account');
    await page.getByRole('cell', { name: /this one/ }).waitFor();
    await look(page, 'console-account', errors);
    await page.getByRole('button', { name: 'Sign out everywhere else' }).click();
    // Done when the list, read again, holds this session alone (the button is disabled meanwhile too).
    await page.locator('tbody tr').nth(1).waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Sign out everywhere else' }).and(page.locator('[disabled]')).waitFor();
    assert.equal((await call(stack.api.app, 'GET', '/api/me', { token: other.body.token })).status, 401);
    await page.getByLabel('Current password').fill('another good password');
    await page.getByLabel('New password').fill('a newer fine passphrase');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('status').filter({ hasText: 'Password changed' }).waitFor();
  });

  test('two-factor: a member sets up an app (QR code, recovery codes shown once), signs in with a code; an admin requires it and resets it', async () => {
    const member = await addMember(stack.api.app, stack.admin, 'member', 'Tess Factor');
    const { page, errors } = await open(member, '/account');
    await page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    await page.getByText('Off: your password alone signs you in').waitFor();
    await page.getByLabel('Your password, to confirm').fill('another good password');
    await page.getByRole('button', { name: 'Set up an app' }).click();
    await page.getByRole('img', { name: /QR code/ }).waitFor();
    await look(page, 'console-two-factor-enrol', errors);
    const seed = (await page.getByRole('region', { name: 'Or type this setup key' }).textContent())?.trim() ?? '';
    assert.match(seed, /^[A-Z2-7]{32}$/);
    await page.getByLabel('Code from your app').fill('000000');
    await page.getByRole('button', { name: 'Turn on' }).click();
    await page.getByRole('alert').filter({ hasText: 'not the code' }).waitFor();
    await page.getByLabel('Code from your app').fill(codeAt(seed, Date.now()));
    await page.getByRole('button', { name: 'Turn on' }).click();
    const shown = page.getByRole('region', { name: 'Recovery codes' });
    await shown.waitFor();
    const codes = ((await shown.textContent()) ?? '').match(/[a-z2-9]{5}-[a-z2-9]{5}/g) ?? [];
    assert.equal(codes.length, 10);
    await look(page, 'console-two-factor-codes', errors);
    await page.getByRole('button', { name: 'I have kept them' }).click();
    await page.getByText(/On since .*10 recovery codes left/).waitFor();

    // Signing in again: the password, then a code (here a recovery code), by keyboard.
    const fresh = await open(null, '/', PHONE);
    await fresh.page.getByLabel('E-mail').fill(member.email);
    await fresh.page.getByLabel('Password').fill('another good password');
    await fresh.page.keyboard.press('Enter');
    await fresh.page.getByRole('heading', { name: 'Two-factor sign-in' }).waitFor();
    await look(fresh.page, 'console-phone-two-factor-sign-in', fresh.errors);
    await fresh.page.getByLabel('Code from your app, or a recovery code').fill(codes[0] as string);
    await fresh.page.keyboard.press('Enter');
    await fresh.page.getByRole('heading', { name: 'Inbox' }).waitFor();

    // The admin requires it of everyone, sees who has it and resets a lost phone.
    const asAdmin = await open(stack.admin, '/people');
    await asAdmin.page.getByLabel('Two-factor sign-in required of').selectOption('everyone');
    await asAdmin.page.getByLabel('Two-factor sign-in required of').and(asAdmin.page.locator(':enabled')).waitFor();
    assert.equal(
      (await call(stack.api.app, 'GET', '/api/workspace/security', { token: stack.admin.token })).body
        .twoFactorRequired,
      'everyone',
    );
    await look(asAdmin.page, 'console-people-two-factor', asAdmin.errors);
    await asAdmin.page.getByRole('button', { name: 'Reset two-factor of Tess Factor' }).click();
    const dialog = asAdmin.page.getByRole('dialog', { name: /Reset Tess Factor/ });
    await dialog.getByRole('button', { name: 'Reset two-factor' }).click();
    await asAdmin.page.getByRole('button', { name: 'Reset two-factor of Tess Factor' }).waitFor({ state: 'detached' });
    assert.equal(await dialog.isVisible(), false);
    await call(stack.api.app, 'PATCH', '/api/workspace/security', {
      token: stack.admin.token,
      body: { twoFactorRequired: 'none' },
    });
  });

  test('single sign-on: an admin sets up the provider; a member continues with it from the sign-in page; a refusal says why', async () => {
    const idp = await startTestProvider(`${stack.base}/api/auth/sso/callback`);
    closers.push(() => idp.close());
    const member = await addMember(stack.api.app, stack.admin, 'member', 'Sol Single');
    idp.people.set('sol', { email: member.email, email_verified: true, name: 'Sol' });
    idp.people.set('unverified', { email: 'someone@example.test', email_verified: false });
    // The provider's own pages ask for fonts of the internet, which this machine cannot reach.
    const ours = (error: string) => !error.includes('ERR_NAME_NOT_RESOLVED');

    const asAdmin = await open(stack.admin, '/people');
    const settings = asAdmin.page.getByRole('region', { name: 'Single sign-on' });
    await settings.getByLabel('Issuer URL').fill(idp.issuer);
    await settings.getByLabel('Client ID').fill(idp.clientId);
    await settings.getByLabel('Client secret').fill(idp.clientSecret);
    await settings.getByLabel('Button name').fill('Acme Login');
    await settings.getByLabel('E-mail domains').fill('example.test');
    await settings.getByRole('button', { name: 'Save' }).click();
    await asAdmin.page.getByRole('status').filter({ hasText: 'Continue with Acme Login' }).waitFor();
    assert.equal(
      (await settings.getByRole('region', { name: 'Redirect URL to register' }).textContent())?.trim(),
      `${stack.base}/api/auth/sso/callback`,
    );
    // The domain routes nobody until proven: the record to publish, then the server's check.
    const proofs = asAdmin.page.getByRole('heading', { name: 'Proving your e-mail domains' });
    await proofs.waitFor();
    const value = (await settings.getByRole('region', { name: 'TXT record value' }).textContent())?.trim() ?? '';
    assert.equal(
      (await settings.getByRole('region', { name: 'TXT record name' }).textContent())?.trim(),
      '_svc-verification.example.test',
    );
    await look(asAdmin.page, 'console-people-sso-unproven', asAdmin.errors);
    await settings.getByRole('button', { name: 'Check example.test' }).click();
    await settings.getByRole('alert').filter({ hasText: 'is not proven yet' }).waitFor();
    stack.dns.txt.set('_svc-verification.example.test', [value]);
    await settings.getByRole('button', { name: 'Check example.test' }).click();
    await settings.getByRole('status').filter({ hasText: 'example.test is proven' }).waitFor();
    await settings.getByText('Proven', { exact: true }).waitFor();
    await look(asAdmin.page, 'console-people-sso', asAdmin.errors);
    const phone = await open(stack.admin, '/people', PHONE);
    await phone.page.getByText('Proven', { exact: true }).waitFor();
    await look(phone.page, 'console-phone-people-sso', phone.errors);

    try {
      const { page, errors } = await open(null, '/sign-in');
      await page.getByLabel('E-mail').fill(member.email);
      await page.getByRole('button', { name: 'Continue with Acme Login' }).click();
      // The provider's own pages (oidc-provider's development login and consent).
      await page.locator('input[name=login]').fill('sol');
      await page.locator('input[name=password]').fill('any');
      await page.locator('button[type=submit]').click();
      await page.locator('button[type=submit]', { hasText: /continue/i }).click();
      await page.getByRole('heading', { name: 'Inbox' }).waitFor();
      assert.equal(new URL(page.url()).hash, '', 'the one-time code is taken out of the address');
      assert.deepEqual(errors.filter(ours), []);

      const refused = await open(null, '/sign-in', PHONE);
      await refused.page.getByLabel('E-mail').fill('someone@example.test');
      await refused.page.getByRole('button', { name: 'Continue with Acme Login' }).click();
      await refused.page.locator('input[name=login]').fill('unverified');
      await refused.page.locator('input[name=password]').fill('any');
      await refused.page.locator('button[type=submit]').click();
      await refused.page.locator('button[type=submit]', { hasText: /continue/i }).click();
      await refused.page.getByRole('alert').filter({ hasText: 'did not vouch for your e-mail' }).waitFor();
      await look(refused.page, 'console-phone-sso-refused', refused.errors.filter(ours));
    } finally {
      await call(stack.api.app, 'DELETE', '/api/workspace/sso', { token: stack.admin.token });
    }
  });

  test('a client signed in through a link is told to use the widget on the app', async () => {
    const client = await addClient(stack.api.app, stack.admin);
    const { page } = await open(client, '/');
    await page.getByRole('heading', { name: 'Use the feedback button on the app' }).waitFor();
  });

  test('on a 390 px phone every screen fits the width and stays usable', async () => {
    const project = await createProject(stack.api.app, stack.admin, { appUrl: 'https://app.acme.test' });
    const long = 'A very long comment that goes on and on about a layout problem '.repeat(6);
    await createComment(stack.api.app, stack.admin, project.key, long);
    for (const [path, name] of [
      ['/', 'inbox'],
      ['/comments', 'comments'],
      ['/projects', 'projects'],
      [`/projects/${project.key}/install`, 'install'],
      ['/people', 'people'],
      ['/api-keys', 'api-keys'],
      ['/account', 'account'],
    ] as const) {
      const { page, errors } = await open(stack.admin, path, PHONE);
      await page.locator('main h1').waitFor();
      await page.waitForLoadState('networkidle');
      await look(page, `console-phone-${name}`, errors);
    }
    const signIn = await open(null, '/', PHONE);
    await signIn.page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await look(signIn.page, 'console-phone-sign-in', signIn.errors);
  });

  test('in a dark OS theme the console is dark and keeps its contrast', async () => {
    for (const [path, name] of [
      ['/comments', 'comments'],
      ['/people', 'people'],
    ] as const) {
      const { page, errors } = await open(stack.admin, path, undefined, 'dark');
      await page.locator('main h1').waitFor();
      await page.waitForLoadState('networkidle');
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      assert.equal(background, 'rgb(11, 16, 32)');
      await look(page, `console-dark-${name}`, errors);
    }
  });

  test('the demo server: sign-in says where the credentials were printed and links the demo page; the demo admin sees its comments', async () => {
    const demo = await createTestApp({ demo: true });
    closers.push(() => demo.close());
    const base = (await demo.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
    const credentials = await seedDemoIfEmpty(demo.app.ctx, [base], `${base}/demo`);
    assert.ok(credentials);
    const context = await browser.newContext();
    closers.push(() => context.close());
    const page = await context.newPage();
    await page.goto(`${base}/`);
    await page.getByText('This is a demo server').waitFor();
    assert.equal(await page.getByRole('link', { name: 'demo page' }).getAttribute('href'), '/demo');
    await page.getByLabel('E-mail').fill(credentials.email);
    await page.getByLabel('Password').fill(credentials.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('link', { name: 'Comments' }).click();
    await page.getByRole('link', { name: /Team price wraps/ }).waitFor();
    await page.getByRole('link', { name: /include VAT/ }).waitFor();
  });

  test('what a member may not do is not shown: no project editing, no invitations, no role menus, no workspace keys', async () => {
    const member = await addMember(stack.api.app, stack.admin, 'member', 'Mere Member');
    await createProject(stack.api.app, stack.admin);
    const { page, errors } = await open(member, '/projects');
    await page
      .getByRole('link', { name: /^Install/ })
      .first()
      .waitFor();
    assert.equal(await page.getByRole('button', { name: 'New project' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: /^Edit/ }).count(), 0);
    assert.equal(await page.getByRole('button', { name: /^Delete/ }).count(), 0);
    await page.getByRole('link', { name: 'People' }).click();
    await page.getByRole('heading', { name: 'Client links' }).waitFor();
    assert.equal(await page.getByRole('heading', { name: 'Invitations' }).count(), 0);
    assert.equal(await page.getByRole('combobox', { name: /^Role of/ }).count(), 0);
    assert.equal(await page.getByRole('button', { name: /^Remove/ }).count(), 0);
    await look(page, 'console-member-people', errors);
  });

  test("a comment's screenshot, context, page errors and place in the code are shown on its page", async () => {
    const project = await createProject(stack.api.app, stack.admin);
    const created = await stack.api.app.inject({
      method: 'POST',
      url: `/api/projects/${project.key}/comments`,
      headers: {
        authorization: `Bearer ${stack.admin.token}`,
        'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
      },
      payload: {
        body: 'Totals do not load',
        pageUrl: 'https://app.acme.test/cart',
        // Pinned in a development build: where in the code it comes from.
        anchor: {
          selector: 'main > .totals',
          x: 4,
          y: 4,
          source: { component: 'Totals < Cart', file: '/src/cart/Totals.tsx', line: 42, column: 7 },
        },
        context: {
          viewport: { width: 390, height: 844 },
          screen: { width: 390, height: 844 },
          devicePixelRatio: 3,
          language: 'de-DE',
          timeZone: 'Europe/Berlin',
          colorScheme: 'light',
          title: 'Cart',
          url: 'https://app.acme.test/cart?coupon=x',
          buildSha: 'abcdef1234',
          errors: [
            {
              kind: 'network',
              message: 'GET https://app.acme.test/api/totals answered 502',
              at: new Date().toISOString(),
              method: 'GET',
              url: 'https://app.acme.test/api/totals',
              status: 502,
              durationMs: 310,
            },
          ],
        },
      },
    });
    const id = created.json().id;
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
      'base64',
    );
    const uploaded = await stack.api.app.inject({
      method: 'PUT',
      url: `/api/comments/${id}/screenshot`,
      headers: { authorization: `Bearer ${stack.admin.token}`, 'content-type': 'image/png' },
      payload: png,
    });
    assert.equal(uploaded.statusCode, 200, uploaded.body);
    const { page, errors } = await open(stack.admin, `/comments/${id}`);
    const image = page.locator('img.screenshot');
    await image.waitFor();
    await page.waitForFunction(
      () => (document.querySelector('img.screenshot') as HTMLImageElement | null)?.naturalWidth === 1,
    );
    await page.getByText('answered 502').waitFor();
    await page.getByText('Totals < Cart · /src/cart/Totals.tsx:42:7').waitFor();
    assert.match(
      (await page.locator('dl.facts').last().textContent()) ?? '',
      /Firefox 133\.0 on Linux.*390×844 at 3x.*de-DE, Europe\/Berlin/,
    );
    await look(page, 'console-comment-context', errors);
  });
});
