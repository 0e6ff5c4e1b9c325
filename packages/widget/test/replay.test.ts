// The replay of the last moments, in Chromium: only for a signed-in reviewer where the project
// keeps replays (a visitor's page loads no recorder, checked by the requests it makes; a project
// keeps none by default), and private: what the reviewer typed, a password and what the page
// masks are in none of the stored bytes, compressed or not, while the clicks, the route and the
// pin are.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { consoleAs, look } from '../../console/test/helpers.js';
import { call, createProject } from '../../server/test/helpers.js';
import { launchBrowser, newReviewer, openWidget, recordRequests, type Stack, startStack, widget } from './helpers.js';
import { assertReplayKept, REVIEWER_ACTS } from './replay-check.js';

describe('replay of the last moments: a reviewer only, where the project keeps it, private', () => {
  /** The comment whose replay the console plays. */
  let recorded = '';
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

  const setReplay = (replay: Record<string, unknown>) =>
    call(stack.api.app, 'PATCH', `/api/projects/${stack.projectKey}`, { token: stack.admin.token, body: { replay } });
  const url = () => stack.pageUrl({ query: 'steps=1&broken=1' });

  test('replay off by default: a signed-in reviewer loads no recorder, and the form offers none', async () => {
    const reviewer = await newReviewer(stack, 'Otto Off');
    const page = await openWidget(browser, stack, reviewer, contexts, { url: url() });
    const chunks = recordRequests(page, 'widget-replay');
    await page.reload();
    await widget(page).locator('.launcher').click();
    await page.waitForLoadState('networkidle');
    await widget(page).locator('button', { hasText: 'New' }).click();
    await widget(page).locator('.hint').waitFor();
    await page.locator('#headline').click();
    await widget(page).locator('#svc-new-body').waitFor();
    assert.equal(await widget(page).locator('#svc-new-replay').count(), 0);
    assert.deepEqual(chunks, [], 'no recorder requested');
  });

  test('a visitor who is not signed in loads no recorder where the project keeps replays, even opening the panel', async () => {
    assert.equal((await setReplay({ on: true })).status, 200);
    const context = await browser.newContext();
    contexts.push(context);
    const page = await context.newPage();
    const chunks = recordRequests(page, 'widget-replay');
    const reads = recordRequests(page, '/api/projects/');
    await page.goto(url());
    await widget(page).locator('.launcher').click();
    await widget(page).locator('input[type=email]').waitFor();
    await page.waitForLoadState('networkidle');
    assert.deepEqual(chunks, [], 'no recorder requested');
    assert.deepEqual(reads, [], 'nor the project read');
  });

  test('the recorder waits for the page to load: none requested while the page still loads, then it keeps the page', async () => {
    assert.equal((await setReplay({ on: true, seconds: 60 })).status, 200);
    const reviewer = await newReviewer(stack, 'Lena Load');
    const page = await openWidget(browser, stack, reviewer, contexts, { url: url() });
    // An image the page waits for, held: the page's load event waits with it.
    let release = () => {};
    const held = new Promise<void>((done) => {
      release = done;
    });
    await page.route('**/held-image.png', async (route) => {
      await held;
      await route.fulfill({ status: 404, body: '' });
    });
    await page.addInitScript(() =>
      document.addEventListener('DOMContentLoaded', () => {
        const image = document.createElement('img');
        image.src = '/held-image.png';
        image.alt = '';
        document.body.append(image);
      }),
    );
    const chunks = recordRequests(page, 'widget-replay');
    const projectRead = page.waitForResponse((r) => r.url().includes(`/api/projects/${stack.projectKey}`));
    await page.goto(url(), { waitUntil: 'domcontentloaded' });
    // The project says it keeps replays; a second on, the page still loading, nothing is recorded.
    await projectRead;
    await page.waitForTimeout(1000);
    assert.equal(await page.evaluate(() => document.readyState), 'interactive');
    assert.deepEqual(chunks, [], 'no recorder requested while the page loads');
    release();
    await page.waitForFunction(
      () => (window as { __svcReplay?: { running(): boolean } }).__svcReplay?.running() === true,
    );
    assert.equal(chunks.length, 1, 'the recorder, once loaded');
  });

  test('a reviewer clicks, types a secret, a password, changes route and pins: the stored replay holds the clicks, the route and the pin, never what was typed or masked', async () => {
    assert.equal((await setReplay({ on: true, seconds: 60 })).status, 200);
    const reviewer = await newReviewer(stack, 'Rita Replay');
    const page = await openWidget(browser, stack, reviewer, contexts, { url: url() });
    // The recorder's chunk loads once the project says so, and keeps the page from then on.
    await page.waitForFunction(
      () => (window as { __svcReplay?: { running(): boolean } }).__svcReplay?.running() === true,
    );
    await page.locator('.plan button').click();
    await page.locator('#email').fill(REVIEWER_ACTS.secret);
    await page.locator('#secret').fill(REVIEWER_ACTS.password);
    await page.locator('#to-team').click();
    await page.waitForURL(/\/pricing\/team/);
    const uploaded = page.waitForResponse((r) => r.url().includes('/replay') && r.request().method() === 'PUT');
    await widget(page).locator('.launcher').click();
    await widget(page).locator('button', { hasText: 'New' }).click();
    await widget(page).locator('.hint').waitFor();
    await page.locator('#headline').click();
    const choice = widget(page).locator('#svc-new-replay');
    assert.equal(await choice.isChecked(), true, 'sent unless unticked');
    assert.match((await widget(page).locator('.replay').textContent()) ?? '', /last 60 s on this page are kept/);
    await widget(page).locator('#svc-new-body').fill('The headline after the plan failed');
    await widget(page).locator('button[type=submit]', { hasText: 'Send' }).click();
    const card = widget(page).locator('[data-comment]', { hasText: 'The headline after the plan failed' });
    await card.waitFor();
    const id = (await card.getAttribute('data-comment')) ?? '';
    assert.equal((await uploaded).status(), 200);
    await assertReplayKept(stack, id);
    recorded = id;
  });

  test('the console plays it on the comment page to the pin: a timeline of the clicks, the route, the error and the failed request, each mark a named button, ending on the pinned element; the steps to reproduce play from their moment (1200 and 390 px, axe)', async () => {
    assert.ok(recorded, 'the recording of the test before');
    for (const [viewport, name] of [
      [{ width: 1200, height: 900 }, 'replay-console'],
      [{ width: 390, height: 844 }, 'replay-console-phone'],
    ] as const) {
      const { context, page, errors } = await consoleAs(browser, stack.admin, viewport);
      contexts.push(context);
      await page.goto(`${stack.apiBase}/comments/${recorded}`);
      // The timeline's marks, each a button named by when and what happened (marks too close to
      // tell apart under a finger are one button, named by all): the one text is the steps'.
      const timeline = page.getByRole('toolbar', { name: 'What happened' });
      const marks = timeline.getByRole('button');
      await marks.first().waitFor({ timeout: 60_000 });
      assert.equal(await page.getByRole('list', { name: 'What happened' }).count(), 0, 'no second list of the steps');
      const names = await marks.evaluateAll((buttons) => buttons.map((b) => b.getAttribute('aria-label') ?? ''));
      const said = names.flatMap((name) => name.replace(/^\d+:\d\d /, '').split('; '));
      assert.ok(said.filter((text) => text === 'Click').length >= 3, said.join(' | '));
      assert.ok(said.includes('Went to /pricing/team'), said.join(' | '));
      assert.ok(
        said.some((text) => text.startsWith('Error: ')),
        said.join(' | '),
      );
      assert.ok(
        said.some((text) => text.startsWith('Failed request: POST') && text.includes('/missing')),
        said.join(' | '),
      );
      assert.equal(said.at(-1), 'Pinned the comment', 'the pin last');
      // Played to its end: the pinned element outlined in the replayed page.
      await page.getByText('The replay ends on the pinned element, outlined.').waitFor({ timeout: 120_000 });
      const outlined = await page.evaluate(() => {
        const frame = document.querySelector('.replay-stage iframe') as HTMLIFrameElement | null;
        const headline = frame?.contentDocument?.querySelector('#headline') as HTMLElement | null;
        return headline?.style.outline ?? null;
      });
      assert.match(String(outlined), /\bsolid\b.*\b3px\b|\b3px\b.*\bsolid\b/, 'outlined');
      // What the console's policy refuses in the replayed page, as meant: its scripts (an inline
      // handler of its form; the frame is sandboxed), and its inline styles as the replayer writes
      // them (the player applies them through the CSSOM instead).
      const refusedByPolicy = /frame is sandboxed|^Applying inline style violates/;
      await look(
        page,
        name,
        errors.filter((error) => !refusedByPolicy.test(error)),
      );
      // By keyboard: the marks are one tab stop, the arrow keys, Home and End go along them, and
      // Enter plays from the one chosen.
      const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null);
      await marks.first().focus();
      await page.keyboard.press('End');
      assert.match(String(await focused()), /^\d+:\d\d .*Pinned the comment$/, 'End: the pin');
      assert.deepEqual(
        await marks.evaluateAll((buttons) => buttons.map((b) => (b as HTMLElement).tabIndex).filter((i) => i === 0)),
        [0],
        'one tab stop',
      );
      await page.keyboard.press('Home');
      await page.keyboard.press('ArrowRight');
      assert.equal(await focused(), names[1] ?? names[0], 'ArrowRight: the next mark');
      await page.keyboard.press('Enter');
      await page.getByText('The replay ends on the pinned element, outlined.').waitFor({ state: 'detached' });
      // A step the replay holds plays from there: the pin's, from just before it.
      const steps = page.getByRole('list', { name: 'Steps to reproduce' }).getByRole('listitem');
      const playPin = steps.last().getByRole('button', { name: /^Play from \d+:\d\d$/ });
      assert.ok((await steps.getByRole('button', { name: /^Play from / }).count()) >= 2, 'the steps the replay holds');
      await playPin.click();
      assert.equal(
        await page.evaluate(() => document.activeElement?.textContent),
        'Pause',
        'the focus on the player, playing',
      );
      await page.getByText('The replay ends on the pinned element, outlined.').waitFor({ timeout: 60_000 });
    }
  });

  test('unticked, the replay stays in the browser; stopped by the reviewer, the recorder stops and the form says how to keep it again', async () => {
    assert.equal((await setReplay({ on: true })).status, 200);
    const reviewer = await newReviewer(stack, 'Una Unticked');
    const page = await openWidget(browser, stack, reviewer, contexts, { url: url() });
    await page.waitForFunction(
      () => (window as { __svcReplay?: { running(): boolean } }).__svcReplay?.running() === true,
    );
    const uploads = recordRequests(page, '/replay');
    await widget(page).locator('.launcher').click();
    await widget(page).locator('button', { hasText: 'New' }).click();
    await widget(page).locator('.hint').waitFor();
    await page.locator('#headline').click();
    await widget(page).locator('#svc-new-replay').uncheck();
    await widget(page).locator('#svc-new-body').fill('Sent without its replay');
    await widget(page).locator('button[type=submit]', { hasText: 'Send' }).click();
    await widget(page).locator('[data-comment]', { hasText: 'Sent without its replay' }).waitFor();
    await page.waitForLoadState('networkidle');
    assert.deepEqual(uploads, [], 'nothing sent');
    await widget(page).locator('button', { hasText: 'New' }).click();
    await widget(page).locator('.hint').waitFor();
    await page.locator('#headline').click();
    await widget(page).locator('#svc-replay-stop').click();
    await widget(page).locator('#svc-replay-again').waitFor();
    assert.equal(
      await page.evaluate(() => (window as unknown as { __svcReplay: { running(): boolean } }).__svcReplay.running()),
      false,
    );
    assert.equal(await widget(page).locator('#svc-new-replay').count(), 0);
    // Off on this browser: a new page keeps none either.
    await page.reload();
    await widget(page).locator('.launcher').waitFor();
    await page.waitForLoadState('networkidle');
    assert.equal(
      await page.evaluate(() => (window as { __svcReplay?: { running(): boolean } }).__svcReplay?.running() ?? false),
      false,
    );
  });
  test("the project's settings screen turns replays on, with their length and the masking of all text (1200 and 390 px, axe)", async () => {
    for (const [viewport, name, seconds] of [
      [{ width: 1200, height: 900 }, 'replay-settings', '90'],
      [{ width: 390, height: 844 }, 'replay-settings-phone', '45'],
    ] as const) {
      const project = await createProject(stack.api.app, stack.admin);
      const { context, page, errors } = await consoleAs(browser, stack.admin, viewport);
      contexts.push(context);
      await page.goto(`${stack.apiBase}/projects?edit=${project.key}`);
      const settings = page.getByRole('group', { name: 'Replays' });
      await settings.waitFor();
      const seconds60 = settings.getByLabel('Seconds kept (30 to 120)');
      assert.equal(await seconds60.isDisabled(), true, 'off: nothing to choose');
      await settings.getByLabel('Keep a replay of the moments before each comment').check();
      await seconds60.fill(seconds);
      await settings.getByLabel('Mask all text in replays, not only what people type').check();
      await look(page, name, errors);
      await page.getByRole('button', { name: 'Save' }).click();
      await settings.waitFor({ state: 'detached' });
      const saved = await call(stack.api.app, 'GET', `/api/projects/${project.key}`, { token: stack.admin.token });
      assert.deepEqual(saved.body.replay, { on: true, seconds: Number(seconds), maskAllText: true });
    }
  });
});
