// A lead's day and a client's first visit, the whole path through the console and the widget
// alone (no API call): the lead creates the workspace and a project (landing on its Install
// page), the client's staging site carries the snippet that page shows, the lead invites two
// developers and makes a client's access link and an agent; the client, on a phone, pins three
// comments (one with a marked-up screenshot, one with an image file); the lead sees them arrive
// and divides them between the developers and the agent; one developer applies a fix with its
// commit, the other (on a phone) one without; the client checks before and now and verifies,
// on the phone and on a laptop. Every screen at 1280 px or on a 390 px phone (tapped), with axe,
// and a screenshot in test-results/ (agency-*.png).
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { createTestApp, type TestApp } from '../../server/test/helpers.js';
import { cleanPng } from '../../server/test/images.js';
import { consoleAs, launchBrowser, look, PHONE, screenshot, seriousViolations, WIDE } from './helpers.js';

/** The client's staging site: a page of theirs, where the lead's snippet goes. */
function stagingSite(snippet: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Northwind Bakery</title>
<style>body { margin: 0; padding: 16px 20px; font: 17px/1.5 system-ui, sans-serif; color: #222; }
  .prices { border: 1px solid #ccc; padding: 8px 16px; max-width: 320px; }
  footer { margin-top: 32px; }</style>
</head><body>
<h1 id="headline">Fresh bread every morning</h1>
<p class="intro">Sourdough, rye and seeded loaves, baked before seven.</p>
<section class="prices"><h2>Prices</h2><p id="rye">Rye loaf €3.20</p><p>Sourdough €4.10</p></section>
<footer><button type="button" id="order">Order for pick-up</button></footer>
${snippet}
</body></html>`;
}

describe("an agency's day: project, install, client link, three comments, triage, fixes, verdicts", () => {
  let browser: Browser;
  let api: TestApp;
  let base: string;
  let site: http.Server;
  let siteOrigin: string;
  let snippet = '';
  const contexts: BrowserContext[] = [];

  before(async () => {
    browser = await launchBrowser();
    // A fresh server, as `npm start` leaves one without its demo: whoever comes first creates the workspace.
    api = await createTestApp({ publicUrl: null, signup: 'first' });
    base = (await api.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
    site = http.createServer((request, response) => {
      if (request.url === '/favicon.ico') return response.writeHead(404).end();
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.end(stagingSite(snippet));
    });
    await new Promise<void>((resolve) => site.listen(0, 'localhost', resolve));
    siteOrigin = `http://localhost:${(site.address() as AddressInfo).port}`;
  });
  after(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
    await new Promise((resolve) => site?.close(resolve));
    await api?.close();
  });

  /** A person's browser: at 1280 px, or a phone (390 px, touch). Its page, and the script errors it saw. */
  async function device(phone: boolean, token?: string) {
    const session = await consoleAs(browser, token ? { token } : null, phone ? PHONE : WIDE, 'light', phone);
    contexts.push(session.context);
    return session;
  }

  /** A click, or a tap on a phone. */
  const press = (target: Locator, phone: boolean) => (phone ? target.tap() : target.click());

  /** The widget's host, through whose open shadow root locators reach in. */
  const widget = (page: Page) => page.locator('[data-svc-widget]');

  /** The widget on a page: no serious axe violation in it, no script error; a screenshot. */
  async function lookAtWidget(page: Page, name: string, errors: string[]) {
    assert.deepEqual(await seriousViolations(page, '[data-svc-widget]'), [], `${name}: axe`);
    assert.deepEqual(errors, [], `${name}: script errors`);
    await screenshot(page, name);
  }

  /** The pixels of `clip` on the screen, as drawn (RGBA, row by row). */
  async function pixels(page: Page, clip: { x: number; y: number; width: number; height: number }) {
    const png = await page.screenshot({ clip });
    return page.evaluate(
      async (bytes) => {
        const bitmap = await createImageBitmap(new Blob([new Uint8Array(bytes)]));
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const drawing = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D;
        drawing.drawImage(bitmap, 0, 0);
        return { width: bitmap.width, data: [...drawing.getImageData(0, 0, bitmap.width, bitmap.height).data] };
      },
      [...png],
    );
  }

  /**
   * Where the white digit of a pin number is drawn, against the middle of its badge (in pixels,
   * down is positive): read in the badge's middle columns, inside its edge, where only the digit is white.
   */
  async function digitOffset(page: Page, badge: Locator) {
    const box = (await badge.boundingBox()) ?? { x: 0, y: 0, width: 0, height: 0 };
    const { width, data } = await pixels(page, box);
    const height = data.length / 4 / width;
    const rows: number[] = [];
    for (let y = 3; y < height - 3; y++)
      for (let x = Math.ceil(width * 0.3); x < width * 0.7; x++) {
        const at = (y * width + x) * 4;
        if ((data[at] ?? 0) > 200 && (data[at + 1] ?? 0) > 200 && (data[at + 2] ?? 0) > 200) rows.push(y);
      }
    assert.ok(rows.length > 0, 'a digit is drawn');
    return (Math.min(...rows) + Math.max(...rows) + 1) / 2 - height / 2;
  }

  /** Someone invited joins from the link, in a browser of their own. */
  async function join(link: string, name: string, phone: boolean) {
    const session = await device(phone);
    await session.page.goto(link);
    await session.page.getByLabel('Your name').fill(name);
    await session.page.getByLabel('Password').fill(`${name} bakes good bread`);
    await press(session.page.getByRole('button', { name: 'Join' }), phone);
    await session.page.getByRole('heading', { name: 'Inbox' }).waitFor();
    return session;
  }

  /** The dialog's link (an invitation, an access link, a key), once; then Done. */
  async function shownOnce(page: Page, name: RegExp) {
    const dialog = page.getByRole('dialog', { name });
    const shown = ((await dialog.locator('pre').textContent()) ?? '').trim();
    await dialog.getByRole('button', { name: 'Done' }).click();
    return shown;
  }

  test('the whole loop, in the console and the widget alone', async () => {
    // The lead creates the workspace on the fresh server.
    const lead = await device(false);
    await lead.page.goto(`${base}/sign-in`);
    await lead.page.getByRole('link', { name: 'Create a workspace' }).click();
    await lead.page.getByLabel('Workspace name').fill('Pixel & Crumb');
    await lead.page.getByLabel('Your name').fill('Lena Lead');
    await lead.page.getByLabel('E-mail').fill('lena@pixelcrumb.test');
    await lead.page.getByLabel('Password').fill('a long agency passphrase');
    await lead.page.getByRole('button', { name: 'Create workspace' }).click();
    await lead.page.getByRole('heading', { name: 'Inbox' }).waitFor();
    const leadToken = (await lead.page.evaluate(() => localStorage.getItem('svc:console:token'))) ?? '';

    // A project for the client's staging site: it opens on its Install page, whose snippet goes on the site.
    await lead.page.getByRole('link', { name: 'Projects' }).click();
    await lead.page.getByRole('button', { name: 'New project' }).click();
    const created = lead.page.getByRole('dialog', { name: 'New project' });
    await created.getByLabel('Key').fill('bakery');
    await created.getByLabel('Name').fill('Northwind Bakery');
    await created.getByLabel('App URL').fill(`${siteOrigin}/`);
    await created.getByLabel('Allowed origins').fill(siteOrigin);
    await created.getByRole('button', { name: 'Create project' }).click();
    await lead.page.getByRole('heading', { name: 'Install Northwind Bakery' }).waitFor();
    snippet = (await lead.page.locator('pre', { hasText: 'widget.js' }).first().textContent()) ?? '';
    assert.match(snippet, new RegExp(`<script src="${base}/widget.js" data-project-key="bakery"`));
    await look(lead.page, 'agency-install', lead.errors);

    // Two developers invited (People), the client's access link, and an agent (Agents).
    await lead.page.getByRole('link', { name: 'People' }).click();
    const invitations: string[] = [];
    for (const email of ['dee@pixelcrumb.test', 'max@pixelcrumb.test']) {
      await lead.page.getByLabel('E-mail', { exact: true }).fill(email);
      await lead.page.getByRole('button', { name: 'Invite' }).click();
      invitations.push(await shownOnce(lead.page, new RegExp(`Invitation for ${email}`)));
    }
    await lead.page.getByLabel("Client's name").fill('Cleo Client');
    await lead.page.getByRole('combobox', { name: 'Project' }).selectOption('bakery');
    await lead.page.getByRole('button', { name: 'Create link' }).click();
    const accessLink = await shownOnce(lead.page, /Cleo Client/);
    assert.match(accessLink, new RegExp(`^${siteOrigin}/#svc_access=svc_acc_`));
    await look(lead.page, 'agency-people', lead.errors);
    await lead.page.getByRole('link', { name: 'Agents' }).click();
    await lead.page.getByLabel('Name').fill('Copy agent');
    await lead.page.getByRole('button', { name: 'Add agent' }).click();
    assert.match(await shownOnce(lead.page, /Copy agent/), /^svc_key_/);
    await lead.page.locator('tr', { hasText: 'Copy agent' }).waitFor();
    await look(lead.page, 'agency-agents', lead.errors);

    const [deeLink = '', maxLink = ''] = invitations;
    const dee = await join(deeLink, 'Dee Developer', false);
    const max = await join(maxLink, 'Max Developer', true);

    // The client opens the link on a phone: welcomed, they pin three comments by tapping.
    const client = await device(true);
    await client.page.goto(accessLink);
    const welcome = widget(client.page).locator('.welcome');
    await welcome.waitFor({ timeout: 15_000 });
    await lookAtWidget(client.page, 'agency-client-welcome-phone', client.errors);
    await welcome.getByRole('button', { name: 'Pin a comment' }).tap();
    const form = widget(client.page).locator('form', { has: client.page.locator('#svc-new-body') });

    // 1. The headline, its screenshot marked up with a box drawn by a finger.
    await client.page.locator('#headline').tap();
    await form.locator('#svc-new-body').fill('Say “before eight”: we open at eight now');
    await form.locator('#svc-markup').tap();
    const markup = widget(client.page).getByRole('dialog', { name: 'Mark up the screenshot' });
    await markup.getByRole('button', { name: 'Box', exact: true }).tap();
    const canvas = (await markup.locator('canvas').boundingBox()) ?? { x: 0, y: 0, width: 0, height: 0 };
    const cdp = await client.context.newCDPSession(client.page);
    const finger = (type: 'touchStart' | 'touchMove' | 'touchEnd', x = 0, y = 0) =>
      cdp.send('Input.dispatchTouchEvent', {
        type,
        touchPoints: type === 'touchEnd' ? [] : [{ x: canvas.x + x * canvas.width, y: canvas.y + y * canvas.height }],
      });
    // At a finger's pace, held still before it lifts: a quick flick would be a fling, whose
    // next tap only stops it (so would a person's).
    await finger('touchStart', 0.05, 0.02);
    for (let i = 1; i <= 5; i++) {
      await finger('touchMove', 0.05 + i * 0.15, 0.02 + i * 0.02);
      await client.page.waitForTimeout(30);
    }
    await client.page.waitForTimeout(150);
    await finger('touchEnd');
    await markup.getByRole('status').filter({ hasText: 'Box added.' }).waitFor();
    await lookAtWidget(client.page, 'agency-client-markup-phone', client.errors);
    await markup.getByRole('button', { name: 'Done' }).tap();
    await form.locator('img.marked').waitFor();
    // Its preview shows the whole picture, the marks drawn at its top too (a phone's is tall).
    const cropped = await form.locator('img.marked').evaluate(async (img: HTMLImageElement) => {
      await img.decode();
      const box = img.getBoundingClientRect();
      const ratio = img.naturalWidth / img.naturalHeight;
      return getComputedStyle(img).objectFit === 'cover' && Math.abs(ratio - box.width / box.height) > 0.05 * ratio;
    });
    assert.equal(cropped, false, 'the marked-up screenshot is not cropped in its preview');
    await lookAtWidget(client.page, 'agency-client-new-comment-phone', client.errors);
    await form.locator('button[type=submit]', { hasText: 'Send' }).tap();
    const cards = widget(client.page).locator('[data-comment]');
    await cards.filter({ hasText: 'before eight' }).waitFor();

    // 2. The rye's price, with the new price list attached as an image.
    await widget(client.page).locator('button', { hasText: 'New' }).tap();
    await client.page.locator('#rye').tap();
    await form.locator('#svc-new-body').fill('Rye is €3.40 from Monday, see the new price list');
    await form
      .locator('input[type=file]')
      .setInputFiles({ name: 'price-list.png', mimeType: 'image/png', buffer: cleanPng });
    await form.locator('.thumbs img').first().waitFor();
    await form.locator('button[type=submit]', { hasText: 'Send' }).tap();
    await cards.filter({ hasText: 'Rye is €3.40' }).waitFor();

    // 3. The order button, in words alone.
    await widget(client.page).locator('button', { hasText: 'New' }).tap();
    await client.page.locator('#order').tap();
    await form.locator('#svc-new-body').fill('Can people order for delivery too?');
    await form.locator('#svc-new-shot').setChecked(false);
    await form.locator('button[type=submit]', { hasText: 'Send' }).tap();
    await cards.filter({ hasText: 'order for delivery' }).waitFor();
    await lookAtWidget(client.page, 'agency-client-comments-phone', client.errors);
    /** The number the client's widget draws for a comment, by its words. */
    const widgetNumber = async (words: string) =>
      (await cards.filter({ hasText: words }).locator('.number').textContent()) ?? '';

    // The lead hears of them: one inbox item, and My work lists what waits for triage.
    await lead.page.getByRole('link', { name: 'Inbox' }).click();
    await lead.page.getByRole('row').filter({ hasText: '3 new comments' }).waitFor();
    await look(lead.page, 'agency-lead-inbox', lead.errors);
    await lead.page.getByRole('link', { name: 'My work' }).click();
    const waiting = lead.page.locator('ul.work').filter({ hasText: 'before eight' });
    await waiting.getByRole('link', { name: /order for delivery/ }).waitFor();
    await look(lead.page, 'agency-lead-my-work', lead.errors);
    const leadPhone = await device(true, leadToken);
    await leadPhone.page.goto(`${base}/mine`);
    await leadPhone.page.locator('ul.work').filter({ hasText: 'before eight' }).waitFor();
    await look(leadPhone.page, 'agency-lead-my-work-phone', leadPhone.errors);
    // The lead's other screens of the day, on the phone too.
    for (const [path, shown, name] of [
      ['/', '3 new comments', 'agency-lead-inbox-phone'],
      ['/projects/bakery/install', 'Script tag', 'agency-install-phone'],
      ['/people', 'Cleo Client', 'agency-people-phone'],
      ['/agents', 'Copy agent', 'agency-agents-phone'],
    ] as const) {
      await leadPhone.page.goto(base + path);
      await leadPhone.page.getByText(shown).first().waitFor();
      await look(leadPhone.page, name, leadPhone.errors);
    }

    // Triage: each comment to whoever does it, from its page; its number is the widget's.
    const triage = [
      [/before eight/, 'Dee Developer'],
      [/Rye is €3.40/, 'Max Developer'],
      [/order for delivery/, 'Copy agent (agent)'],
    ] as const;
    for (const [words, person] of triage) {
      await lead.page.getByRole('link', { name: 'My work' }).click();
      await lead.page.locator('ul.work').getByRole('link', { name: words }).click();
      const title = lead.page.getByRole('heading', { name: /^Comment \d+ by Cleo Client/ });
      await title.waitFor();
      assert.equal(
        await title.locator('.pin-number').textContent(),
        await widgetNumber(words.source.replace(/\\/g, '')),
        'the number the widget draws',
      );
      await lead.page.getByLabel('Assign to').selectOption({ label: person });
      await lead.page
        .locator('.history li', { hasText: `Assigned to ${person.replace(' (agent)', '')} by Lena Lead` })
        .waitFor();
      if (person === 'Dee Developer') await look(lead.page, 'agency-lead-comment', lead.errors);
    }
    await lead.page.goto(`${base}/comments?project=bakery&view=board`);
    await lead.page.locator('.card-title', { hasText: 'order for delivery' }).waitFor();
    await look(lead.page, 'agency-lead-board', lead.errors);
    const offset = await digitOffset(lead.page, lead.page.locator('.card-title .pin-number').first());
    assert.ok(Math.abs(offset) <= 0.5, `the badge's digit is in its middle (${offset} px off)`);
    await leadPhone.page.goto(`${base}/comments?project=bakery&view=board`);
    await leadPhone.page.locator('.card-title', { hasText: 'order for delivery' }).waitFor();
    await look(leadPhone.page, 'agency-lead-board-phone', leadPhone.errors);

    // Dee applies the headline's fix with its commit; Max, on a phone, the price's without one.
    await dee.page.getByRole('link', { name: 'My work' }).click();
    await dee.page
      .getByRole('link', { name: /before eight/ })
      .first()
      .click();
    await dee.page.getByRole('button', { name: 'Apply a fix' }).click();
    const deeDialog = dee.page.getByRole('dialog', { name: 'Apply a fix' });
    await deeDialog.getByLabel('Commit SHA').fill('3f9c2a1b7e');
    await look(dee.page, 'agency-dev-apply', dee.errors);
    await deeDialog.getByRole('button', { name: 'Apply' }).click();
    await deeDialog.waitFor({ state: 'hidden' });
    await dee.page
      .locator('.history')
      .getByText(/3f9c2a1/)
      .first()
      .waitFor();

    await max.page.getByRole('button', { name: /^Menu/ }).tap();
    await max.page.getByRole('link', { name: 'My work' }).tap();
    await max.page
      .getByRole('link', { name: /Rye is €3.40/ })
      .first()
      .tap();
    await max.page.getByRole('button', { name: 'Apply a fix' }).tap();
    const maxDialog = max.page.getByRole('dialog', { name: 'Apply a fix' });
    await maxDialog.getByLabel('Link to the change').fill('https://cms.northwind.test/pages/prices/revisions/12');
    await look(max.page, 'agency-dev-apply-without-commit-phone', max.errors);
    await maxDialog.getByRole('button', { name: 'Apply' }).tap();
    await maxDialog.waitFor({ state: 'hidden' });
    await max.page.locator('.history').getByText('Live at once (no commit: nothing to deploy)').waitFor();
    await look(max.page, 'agency-dev-applied-phone', max.errors);

    // The client checks on the phone: the headline's fix, before and now, verified with a tap.
    await client.page.reload();
    const launcher = widget(client.page).locator('.launcher');
    await widget(client.page).locator('.badge').waitFor({ state: 'visible', timeout: 15_000 });
    assert.match((await widget(client.page).locator('.badge').textContent()) ?? '', /^2/, 'two fixes to check');
    await launcher.tap();
    const updates = widget(client.page).locator('[data-notification]');
    await updates.nth(1).waitFor();
    const headlineUpdate = updates.filter({ hasText: 'before eight' });
    assert.match((await headlineUpdate.textContent()) ?? '', /Fixed — please check/);
    assert.doesNotMatch((await headlineUpdate.textContent()) ?? '', /3f9c2a1/, 'no commit for a client');
    await lookAtWidget(client.page, 'agency-client-updates-phone', client.errors);
    await verify(client.page, headlineUpdate, 'before eight', true, 'agency-client-before-now-phone', client.errors);

    // And on a laptop (the same link, welcomed there too): the price's fix.
    const laptop = await device(false);
    await laptop.page.goto(accessLink);
    await widget(laptop.page).locator('.welcome').getByRole('button', { name: 'Got it' }).click();
    await widget(laptop.page).locator('.launcher').click();
    const priceUpdate = widget(laptop.page).locator('[data-notification]').filter({ hasText: 'Rye is €3.40' });
    await verify(laptop.page, priceUpdate, 'Rye is €3.40', false, 'agency-client-before-now', laptop.errors);

    // The lead's board: both verified, the agent's still open.
    await lead.page.reload();
    await lead.page.locator('.card-title', { hasText: 'order for delivery' }).waitFor();
    const verified = lead.page.getByRole('region', { name: /^Verified/ });
    await verified.getByText(/before eight/).waitFor();
    await verified.getByText(/Rye is €3.40/).waitFor();
    await look(lead.page, 'agency-lead-board-verified', lead.errors);
  });

  /** From the update of a fix: its card's before and now, shown; then Verified. */
  async function verify(page: Page, update: Locator, words: string, phone: boolean, name: string, errors: string[]) {
    await press(update.getByRole('button', { name: /Compare before and now/ }), phone);
    if (phone) {
      // The element is outlined for a moment on the page: under the panel, which covers a phone's screen.
      const flash = (await widget(page).locator('[data-flash]').boundingBox()) ?? { x: 0, y: 0, width: 0, height: 0 };
      const edge = { x: flash.x + flash.width / 4, y: Math.max(0, flash.y), width: flash.width / 2, height: 3 };
      const { data } = await pixels(page, edge);
      let amber = 0;
      for (let i = 0; i < data.length; i += 4)
        if ((data[i] ?? 0) > 220 && (data[i + 1] ?? 0) > 120 && (data[i + 1] ?? 0) < 190 && (data[i + 2] ?? 0) < 80)
          amber++;
      assert.equal(amber, 0, 'no outline of the page drawn over the panel');
    }
    const card = widget(page).locator('[data-comment].highlight', { hasText: words });
    const compare = card.getByRole('group', { name: 'Before and now' });
    await compare.locator('figure', { hasText: 'Before' }).locator('img[src^="blob:"]').waitFor({ timeout: 20_000 });
    await compare.locator('figure', { hasText: 'Now' }).locator('img[src^="blob:"]').waitFor({ timeout: 20_000 });
    await lookAtWidget(page, name, errors);
    await press(card.locator('button', { hasText: 'Verified' }), phone);
    await card.locator('.pill', { hasText: 'Verified' }).waitFor();
  }
});
