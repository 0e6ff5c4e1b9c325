// The comment page as a person works through a list of them: what was said, its status and
// actions and the reply box first; the picture beside them on a wide screen and after them on
// a phone; its number as the widget's pin; each reply once; the list's next and previous;
// before and after large enough to judge and zoomable, kept with each verdict; a fix without a
// commit; and the list's selection, one status, images and mentions on the comments list.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { addMember, call, createProject, type Member } from '../../server/test/helpers.js';
import { cleanPng } from '../../server/test/images.js';
import { consoleSuite, look, PHONE, WIDE } from './helpers.js';

const PAGE = 'https://shop.example.test/pricing';

describe('the comment page in Chromium', () => {
  const { browser, stack, open } = consoleSuite();
  let author: Member;
  let dev: Member;

  before(async () => {
    author = await addMember(stack().api.app, stack().admin, 'member', 'Rita Reviewer');
    dev = await addMember(stack().api.app, stack().admin, 'member', 'Dev Dana');
  });

  /**
   * A page of a shop as Chromium paints it, 800 × 500 CSS px: its terms a strip of 6 px text
   * (or, fixed, of 13 px). The whole window, the terms with 48 px around them (what a widget
   * keeps of an element), and where the terms are.
   */
  async function paintedShop(fixed: boolean) {
    const page = await browser().newPage({ viewport: { width: 800, height: 500 } });
    try {
      await page.setContent(`<body style="margin:0;font:16px sans-serif;background:#fff;color:#111">
        <header style="padding:20px 32px;background:#1d3557;color:#fff;font-size:22px"><strong>Shop</strong></header>
        <main style="padding:24px 32px"><h1 style="margin:0 0 8px">Team plan</h1><p>19 € a month, billed yearly.</p>
        <p id="terms" style="display:inline-block;margin:120px 0 0;font-size:${fixed ? 13 : 6}px;color:#555">Prices exclude VAT; the offer ends on 31 March.</p></main>
      </body>`);
      const box = (await page.locator('#terms').boundingBox()) ?? { x: 0, y: 0, width: 1, height: 1 };
      const room = 48;
      const x = Math.max(0, box.x - room);
      const y = Math.max(0, box.y - room);
      const clip = {
        x,
        y,
        width: Math.min(800 - x, box.width + 2 * room),
        height: Math.min(500 - y, box.height + 2 * room),
      };
      return { window: await page.screenshot(), element: await page.screenshot({ clip }), box };
    } finally {
      await page.close();
    }
  }

  const app = () => stack().api.app;
  const upload = (token: string, method: 'PUT' | 'POST', url: string, bytes: Buffer) =>
    app().inject({
      method,
      url,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'image/png' },
      payload: bytes,
    });

  /** A comment by the author, pinned to the shop's terms with its screenshot (or on the whole page). */
  async function report(projectKey: string, body: string, shop: { window: Buffer; box: object } | null) {
    const created = await call(app(), 'POST', `/api/projects/${projectKey}/comments`, {
      token: author.token,
      body: {
        body,
        pageUrl: PAGE,
        anchor: { selector: 'main > p#terms', x: 2, y: 2 },
        context: {
          viewport: { width: 800, height: 500 },
          screen: { width: 800, height: 500 },
          devicePixelRatio: 1,
          language: 'en',
          timeZone: 'UTC',
          colorScheme: 'light',
          title: 'Team plan',
          url: PAGE,
          buildSha: null,
          errors: [],
          ...(shop ? { pinnedBox: shop.box } : {}),
        },
      },
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const id = created.body.id as string;
    if (shop)
      assert.equal((await upload(author.token, 'PUT', `/api/comments/${id}/screenshot`, shop.window)).statusCode, 200);
    return id;
  }

  const reply = async (id: string, who: Member, body: string) =>
    assert.equal(
      (await call(app(), 'POST', `/api/comments/${id}/replies`, { token: who.token, body: { body } })).status,
      201,
    );

  /** Where an element is, in CSS px of the page (not of the window). */
  const boxOf = async (page: Page, selector: string) =>
    page
      .locator(selector)
      .first()
      .evaluate((el) => {
        const r = el.getBoundingClientRect();
        return { top: r.top + scrollY, left: r.left, right: r.right, bottom: r.bottom + scrollY, width: r.width };
      });

  test('what was said, its status, actions and reply box first; the picture beside them (1280) or after them (390, tapped); its number as its pin; each reply once; J/K and Next/Previous through the list it was opened from', async () => {
    const project = await createProject(app(), stack().admin);
    const shop = await paintedShop(false);
    const long = `The small print under the price cannot be read on any screen. ${'It needs to be at least the size of the text around it, or people miss the VAT. '.repeat(22)}See https://shop.example.test/pricing/${'very-long-path-segment-'.repeat(12)}end`;
    const first = await report(project.key, 'The plan name is cut off', shop);
    const middle = await report(project.key, long, shop);
    const last = await report(project.key, 'The price jumps when the page loads', shop);
    await reply(middle, dev, 'Looking into it: the terms come from the content system.');
    await reply(middle, author, 'Thanks! It is the same on the checkout page.');
    await reply(middle, dev, 'Found it, the style sheet sets 6 px.');
    const pinOf = async (id: string) =>
      (await call(app(), 'GET', `/api/comments/${id}`, { token: stack().admin.token })).body.pin as number;
    assert.deepEqual([await pinOf(first), await pinOf(middle), await pinOf(last)], [1, 2, 3]);

    // From the list (newest first), the middle one.
    const { page, errors } = await open(stack().admin, `/comments?project=${project.key}`);
    await page.getByRole('link', { name: /^The small print under the price/ }).click();
    const title = page.getByRole('heading', { level: 1 });
    await title.filter({ hasText: 'Comment 2 by Rita Reviewer' }).waitFor();
    assert.equal(await page.locator('h1 .pin-number').textContent(), '2', 'numbered as the widget numbers its pin');
    const walk = page.getByRole('navigation', { name: 'Comments of the list' });
    await walk.getByText('2 of 3').waitFor();
    assert.equal(
      await walk.getByRole('link', { name: 'Back to the list' }).getAttribute('href'),
      `/comments?project=${project.key}`,
    );

    // Each reply once: the discussion holds the replies and the changes, in one list.
    await page.locator('img.screenshot').waitFor();
    for (const text of ['Looking into it', 'the same on the checkout page', 'sets 6 px']) {
      assert.equal(await page.getByText(text).count(), 1, `"${text}" shown once`);
    }
    // Side by side: the text and the picture at the top of the page, the reply box in the first screen.
    const body = await boxOf(page, '.comment-body');
    const picture = await boxOf(page, 'img.screenshot');
    assert.ok(picture.left >= body.right, `the picture (${picture.left}) beside the text (${body.right})`);
    // Under the triage: who is on it, its priority, its due date and its labels.
    assert.ok(picture.top < 450, `the picture at the top (${picture.top})`);
    const field = await boxOf(page, 'textarea');
    assert.ok(field.top < WIDE.height, `the reply box begins in the first screen (${field.top})`);
    await look(page, 'comment-page', errors);

    // The keyboard: J to the next of the list, K back; the heading takes the focus.
    await page.locator('body').press('j');
    await title.filter({ hasText: 'Comment 1 by Rita Reviewer' }).waitFor();
    assert.equal(new URL(page.url()).pathname, `/comments/${first}`);
    assert.equal(await page.evaluate(() => document.activeElement?.tagName), 'H1');
    await walk.getByText('3 of 3').waitFor();
    assert.equal(await walk.getByRole('link', { name: 'Next' }).count(), 0, 'the last of the list');
    await page.keyboard.press('k');
    await title.filter({ hasText: 'Comment 2 by Rita Reviewer' }).waitFor();
    await walk.getByRole('link', { name: 'Previous' }).click();
    await title.filter({ hasText: 'Comment 3' }).waitFor();
    assert.equal(new URL(page.url()).pathname, `/comments/${last}`);
    // Typing in the reply box is typing: j and k stay there.
    await page.getByRole('textbox', { name: 'Reply' }).fill('');
    await page.getByRole('textbox', { name: 'Reply' }).press('j');
    assert.equal(await page.getByRole('textbox', { name: 'Reply' }).inputValue(), 'j');
    assert.equal(new URL(page.url()).pathname, `/comments/${last}`);
    // Opened some other way (a link of its own), there is no list to walk.
    const alone = await open(stack().admin, `/comments/${middle}`);
    await alone.page.getByRole('heading', { name: 'Comment 2 by Rita Reviewer' }).waitFor();
    assert.equal(
      await alone.page
        .getByRole('navigation', { name: 'Comments of the list' })
        .getByRole('link', { name: 'Next' })
        .count(),
      0,
    );

    // A phone, tapped: what, status, actions and the reply box before any picture.
    const phone = await open(stack().admin, `/comments?project=${project.key}`, PHONE, true);
    await phone.page.getByRole('link', { name: /^The small print under the price/ }).tap();
    await phone.page.getByRole('heading', { name: 'Comment 2 by Rita Reviewer' }).waitFor();
    await phone.page.locator('img.screenshot').waitFor();
    const shot = await boxOf(phone.page, 'img.screenshot');
    const box = await boxOf(phone.page, 'textarea');
    const actions = await boxOf(phone.page, '.comment-actions');
    assert.ok(
      actions.bottom < box.top && box.bottom < shot.top,
      `reply box (${box.top}) before the picture (${shot.top})`,
    );
    assert.ok(box.top < 2 * PHONE.height, `the reply box within two screens (${box.top})`);
    await phone.page.getByRole('textbox', { name: 'Reply' }).tap();
    await phone.page.keyboard.type('Tapped from a phone');
    await phone.page.getByRole('button', { name: 'Send reply' }).tap();
    await phone.page.locator('.history').getByText('Tapped from a phone').waitFor();
    assert.equal(await phone.page.getByText('Tapped from a phone').count(), 1);
    await look(phone.page, 'comment-page-phone', phone.errors);
    await phone.page
      .getByRole('navigation', { name: 'Comments of the list' })
      .getByRole('link', { name: 'Next' })
      .tap();
    await phone.page.getByRole('heading', { name: 'Comment 1 by Rita Reviewer' }).waitFor();
  });

  test('before and after large enough to read, at one scale, zoomed by keyboard; each verdict keeps its pair in the discussion; 1280 and 390 px', async () => {
    const project = await createProject(app(), stack().admin);
    const [broken, fixed] = [await paintedShop(false), await paintedShop(true)];
    const id = await report(project.key, 'The terms under the price are too small to read', broken);
    const apply = (commitSha: string) =>
      call(app(), 'POST', `/api/comments/${id}/apply`, { token: dev.token, body: { commitSha } });
    const verdict = async (body: object) => {
      assert.equal(
        (await call(app(), 'POST', `/api/comments/${id}/verify`, { token: author.token, body })).status,
        200,
      );
      assert.equal(
        (await upload(author.token, 'POST', `/api/comments/${id}/images?verdict=true`, fixed.element)).statusCode,
        201,
      );
    };
    await apply('a1b2c3d');
    await verdict({ ok: false, note: 'Still tiny on the checkout page' });
    await apply('e4f5a6b');
    await verdict({ ok: true });

    for (const [viewport, suffix] of [
      [WIDE, ''],
      [PHONE, '-phone'],
    ] as const) {
      const { page, errors } = await open(stack().admin, `/comments/${id}`, viewport);
      // Both verdicts keep their pictures, in the discussion where they were given.
      const history = page.locator('.history');
      const rejected = history.getByRole('region', {
        name: 'Not fixed, said Rita Reviewer: “Still tiny on the checkout page”',
      });
      const verified = history.getByRole('region', { name: 'Verified by Rita Reviewer' });
      for (const pair of [rejected, verified]) await pair.locator('img[src^="blob:"]').nth(1).waitFor();
      await page.waitForFunction(() =>
        [...document.querySelectorAll<HTMLImageElement>('.before-after img')].every((img) => img.style.width),
      );
      const scales = await verified
        .locator('img')
        .evaluateAll((imgs) =>
          (imgs as HTMLImageElement[]).map((img) => img.getBoundingClientRect().width / img.naturalWidth),
        );
      const [beforeScale = 0, afterScale = 0] = scales;
      assert.ok(Math.abs(beforeScale - afterScale) < 0.01, `one scale: ${scales}`);
      // 6 px of text shown at 1.4 times or more on a wide screen (the pair one above the other, the
      // wider filling the column); on a phone as wide as its column allows, the zoom going further.
      assert.ok(beforeScale >= (suffix ? 0.85 : 1.4), `shown at ${beforeScale}×`);

      // The zoom, by keyboard: the button, then 4×, then Escape back to the button.
      const zoom = verified.getByRole('button', { name: 'Zoom' });
      await zoom.focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Verified by Rita Reviewer' });
      await dialog.locator('img[src^="blob:"]').nth(1).waitFor();
      await dialog.getByRole('button', { name: '4×' }).focus();
      await page.keyboard.press('Enter');
      assert.equal(await dialog.getByRole('button', { name: '4×' }).getAttribute('aria-pressed'), 'true');
      const zoomed = await dialog
        .locator('img')
        .evaluateAll((imgs) =>
          (imgs as HTMLImageElement[]).map((img) => img.getBoundingClientRect().width / img.naturalWidth),
        );
      assert.deepEqual(
        zoomed.map((scale) => Math.round(scale * 100) / 100),
        [4, 4],
        'both at 4 times their pixels',
      );
      // The zoomed pictures scroll in a region the keyboard can scroll.
      const region = dialog.getByRole('region', { name: /Zoomed/ });
      await region.focus();
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction(() => (document.querySelector('.zoomed')?.scrollLeft ?? 0) > 0);
      await look(page, `comment-page-zoom${suffix}`, errors);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'hidden' });
      assert.equal(await zoom.evaluate((el) => el === document.activeElement), true, 'focus back on Zoom');
      await look(page, `comment-page-before-after${suffix}`, errors);
    }
  });

  test('a fix without a commit: the comment page records it as the board does, Live at once, said so in its discussion', async () => {
    const project = await createProject(app(), stack().admin);
    const id = await report(project.key, 'Typo in the headline: “Tema plan”', null);
    for (let n = 1; n <= 9; n++) await reply(id, n % 2 ? dev : author, `Note ${n} on the headline`);
    const { page, errors } = await open(dev, `/comments/${id}`);
    // A long discussion shows its latest entries, the reply box close; the earlier ones on asking (keyboard).
    await page.getByText('Note 9 on the headline').waitFor();
    assert.equal(await page.getByText('Note 1 on the headline').count(), 0);
    await page.getByRole('button', { name: 'Show 3 earlier entries' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('Note 1 on the headline').waitFor();
    await page.waitForFunction(() => document.activeElement?.classList.contains('history'));
    await page.getByRole('button', { name: 'Apply a fix' }).click();
    const dialog = page.getByRole('dialog', { name: 'Apply a fix' });
    await dialog.getByText('Leave it empty for a change made on the site itself').waitFor();
    await dialog.getByLabel('Link to the change').fill('https://cms.example.test/entries/42/revisions/7');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.waitFor({ state: 'hidden' });
    await page.locator('.pill.live', { hasText: /^Live$/ }).waitFor();
    await page.locator('.history').getByText('Live at once (no commit: nothing to deploy)').waitFor();
    const stored = (await call(app(), 'GET', `/api/comments/${id}`, { token: dev.token })).body;
    assert.deepEqual(
      [stored.commitSha, stored.commitUrl, stored.deployedAt !== null],
      [null, 'https://cms.example.test/entries/42/revisions/7', true],
    );
    // A malformed SHA is still said in words.
    await page.getByRole('button', { name: 'Apply another fix' }).click();
    await dialog.getByLabel('Commit SHA').fill('fix/headline');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await dialog.getByRole('alert').getByText('"fix/headline" is not a commit SHA', { exact: false }).waitFor();
    await look(page, 'comment-page-apply-without-commit', errors);
  });

  test('the comments list: the selection stays through an action; one status each; attached images shown; mentions as names', async () => {
    const project = await createProject(app(), stack().admin);
    const [a, b, c] = [
      await report(project.key, 'First of three', null),
      await report(project.key, 'Second of three', null),
      await report(project.key, 'Third of three', null),
    ];
    for (const image of [cleanPng, cleanPng]) {
      assert.equal((await upload(author.token, 'POST', `/api/comments/${c}/images`, image)).statusCode, 201);
    }
    await call(app(), 'POST', `/api/comments/${a}/apply`, { token: dev.token, body: { commitSha: 'abcdef1' } });
    await call(app(), 'POST', `/api/comments/${a}/verify`, { token: author.token, body: { ok: true } });
    const mention = await call(app(), 'POST', `/api/comments/${b}/replies`, {
      token: dev.token,
      body: { body: `<@${author.id}> can you check it on the phone?` },
    });
    assert.equal(mention.status, 201);

    const { page, errors } = await open(stack().admin, `/comments?project=${project.key}`);
    const row = (text: string) => page.locator('tbody tr', { hasText: text });
    await row('Third of three').waitFor();
    // One status: Verified, not Completed beside it.
    assert.deepEqual(await row('First of three').locator('.pill').allInnerTexts(), ['Verified']);
    // The images attached to a comment show on its row.
    await row('Third of three').getByText('2 images').waitFor();
    assert.equal(
      await row('Second of three')
        .getByText(/images?$/)
        .count(),
      0,
    );

    // The selection stays through an action, for the next one.
    await row('Second of three').getByRole('checkbox').check();
    await row('Third of three').getByRole('checkbox').check();
    await page.getByLabel('Set priority…').selectOption({ label: 'High' });
    await row('Second of three').locator('.pill', { hasText: 'High' }).waitFor();
    await row('Third of three').locator('.pill', { hasText: 'High' }).waitFor();
    await page.getByText('2 selected').waitFor();
    assert.equal(await row('Second of three').getByRole('checkbox').isChecked(), true);
    assert.equal(await row('Third of three').getByRole('checkbox').isChecked(), true);
    await look(page, 'comment-list-selection', errors);

    // A mention reads as the person's name, once spaced, on the comment's page.
    const detail = await open(stack().admin, `/comments/${b}`);
    const said = detail.page.locator('.history .mention', { hasText: '@Rita Reviewer' });
    await said.waitFor();
    const text = await detail.page
      .locator('.history li', { has: detail.page.locator('.mention') })
      .locator('.body-text')
      .textContent();
    assert.equal(text, '@Rita Reviewer can you check it on the phone?');
    // Chosen from the suggestions by keyboard, and a space typed after it as well: one space is sent.
    const field = detail.page.getByRole('textbox', { name: 'Reply' });
    await field.pressSequentially('Thanks @Rit');
    await detail.page
      .getByRole('listbox', { name: 'People to mention' })
      .getByRole('option', { name: 'Rita Reviewer' })
      .waitFor();
    await field.press('Enter');
    await field.pressSequentially(' will do');
    await detail.page.getByRole('button', { name: 'Send reply' }).click();
    const sent = detail.page.locator('.history li', { hasText: 'will do' }).locator('.body-text');
    await sent.waitFor();
    assert.equal(await sent.textContent(), 'Thanks @Rita Reviewer will do');
    await sent.locator('.mention', { hasText: '@Rita Reviewer' }).waitFor();
    await look(detail.page, 'comment-page-mention', detail.errors);
  });
});
