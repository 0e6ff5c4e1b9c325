// Steps to reproduce, in Chromium: a signed-in reviewer's clicks (in words), routes and fields
// typed in (never what) and the page's failed requests and errors become the steps kept with
// their comment; a visitor who is not signed in never loads the recorder.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext } from 'playwright-core';
import { call } from '../../server/test/helpers.js';
import {
  launchBrowser,
  newReviewer,
  recordRequests,
  type Stack,
  signedInPage,
  startStack,
  TYPED_SECRET,
  widget,
} from './helpers.js';

/** What must never leave the page: what was typed, a masked button's words. */
const NEVER_KEPT = [TYPED_SECRET, 'Jane Quinn'];

describe('steps to reproduce, recorded for a signed-in reviewer', () => {
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

  test('the reviewer’s click, route, field, error and failed request become steps, and what they typed is nowhere', async () => {
    const reviewer = await newReviewer(stack, 'Stella Steps');
    const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
    contexts.push(context);
    const page = await signedInPage(context, stack, reviewer);
    const recorder = recordRequests(page, 'widget-steps.js');
    await page.goto(stack.pageUrl({ query: 'steps=1' }));
    await widget(page).locator('.launcher').waitFor();
    await page.waitForFunction(() => 'svcWidget' in window && '__svcSteps' in window);
    assert.equal(recorder.length, 1, 'the recorder is loaded once');

    await page.locator('.plan button', { hasText: 'Choose Team' }).click();
    // The failed request is kept once answered.
    await page.waitForFunction(() =>
      (window as unknown as { __svcSteps: { recentRequests(): { status: number | null }[] } }).__svcSteps
        .recentRequests()
        .some((request) => request.status === 404),
    );
    await page.locator('#email').fill(TYPED_SECRET);
    await page.locator('#refund').click();
    await page.locator('#to-team').click();
    await page.waitForURL(/\/pricing\/team/);

    await widget(page).locator('.launcher').click();
    await widget(page).locator('button', { hasText: 'New' }).click();
    await page.locator('.plan button', { hasText: 'Choose Team' }).click();
    await widget(page).locator('#svc-new-body').fill('Choosing Team fails');
    await widget(page).locator('button[type=submit]', { hasText: 'Send' }).click();
    await widget(page).locator('.comment.highlight').waitFor();

    const list = await call(stack.api.app, 'GET', '/api/comments?q=Choosing', { token: reviewer.token });
    const id = list.body.items[0].id as string;
    const read = await call(stack.api.app, 'GET', `/api/comments/${id}`, { token: reviewer.token });
    assert.deepEqual(read.body.context.steps, [
      { kind: 'opened', path: '/pricing' },
      { kind: 'pressed', name: 'Choose Team' },
      { kind: 'error', message: 'TypeError: plan is undefined' },
      { kind: 'requestFailed', method: 'POST', path: '/missing', status: 404 },
      { kind: 'typed', field: 'E-mail' },
      { kind: 'pressed', name: 'Team plan' },
      { kind: 'opened', path: '/pricing/team' },
      { kind: 'pinned', name: 'Choose Team' },
    ]);
    // Nor the widget's own clicks (the launcher, New, Send), nor its requests to its server.
    const actions = read.body.context.actions as { kind: string; name?: string }[];
    assert.ok(!actions.some((action) => /New|Send|Feedback/.test(action.name ?? '')), JSON.stringify(actions));
    assert.ok(!JSON.stringify(read.body.context.requests).includes(stack.apiBase));

    const row = await stack.api.app.database.db
      .selectFrom('comments')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    // The queries of routes and requests (the comment's own address keeps its query, as before).
    const { actions: kept, requests, errors, steps } = read.body.context;
    assert.ok(!JSON.stringify({ kept, requests, errors, steps }).includes('never-kept'));
    for (const secret of NEVER_KEPT) {
      assert.ok(!JSON.stringify(row).includes(secret), `the stored row holds no “${secret}”`);
      assert.ok(!JSON.stringify(read.body).includes(secret), `the API's answer holds no “${secret}”`);
    }
  });

  test('a visitor who is not signed in never loads the recorder, even reaching for the panel', async () => {
    const context = await browser.newContext({ viewport: { width: 1100, height: 760 } });
    contexts.push(context);
    const page = await context.newPage();
    const recorder = recordRequests(page, 'widget-steps.js');
    const panel = recordRequests(page, 'widget-panel.js');
    await page.goto(stack.pageUrl({ query: 'steps=1' }));
    await widget(page).locator('.launcher').click();
    await widget(page).locator('input[type=email]').waitFor();
    await page.locator('.plan button', { hasText: 'Choose Team' }).click();
    await page.locator('#to-team').click();
    await page.waitForTimeout(500);
    assert.equal(panel.length, 1, 'the panel is loaded (the sign-in), so the page asked for chunks');
    assert.equal(recorder.length, 0, 'no recorder for a visitor');
    assert.equal(await page.evaluate(() => '__svcSteps' in window), false);
  });
});
