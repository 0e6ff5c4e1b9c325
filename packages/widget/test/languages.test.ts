// The widget in the reader's language: every state in the pseudo-language (every visible word
// from a catalogue, nothing overflowing), Arabic right to left and Japanese on a desktop, a
// phone and a hostile page, and the order that chooses the language.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seriousViolations } from '../../console/test/helpers.js';
import { call } from '../../server/test/helpers.js';
import {
  appliedComment,
  launchBrowser,
  newReviewer,
  openWidget,
  type Stack,
  screenshot,
  startStack,
  widget,
} from './helpers.js';

/**
 * What the widget shows that no catalogue gave, and what overflows its box. In the pseudo-
 * language every message is bracketed (⟦…⟧): the visible text (and the labels read aloud) of
 * the widget's root, its brackets removed with what they hold, must hold no letter but those of
 * `people` (what people wrote, their names) — times are the browser's `Intl` in the reader's
 * language, the language menu names each language in its own. An element whose text is wider
 * than its box, or reaches out of the panel, is reported too.
 */
const AUDIT = `(() => {
  const root = document.querySelector('[data-svc-widget]').shadowRoot;
  const texts = [];
  const overflows = [];
  const panel = root.querySelector('.panel');
  const bounds = panel && !panel.hidden ? panel.getBoundingClientRect() : null;
  for (const el of root.querySelectorAll('*')) {
    if (!el.checkVisibility() || el.closest('time, [lang], textarea, style')) continue;
    for (const node of el.childNodes) if (node.nodeType === 3) texts.push(node.textContent);
    for (const name of ['aria-label', 'title', 'alt']) if (el.hasAttribute(name)) texts.push(' ' + el.getAttribute(name) + ' ');
    const style = getComputedStyle(el);
    const scrolls = /auto|scroll/.test(style.overflowX) || style.textOverflow === 'ellipsis';
    const text = el.textContent.trim().slice(0, 50);
    // The launcher's unread badge sits over its corner by design (the badge's own box is checked).
    const overhang = el.matches('.launcher');
    if (!scrolls && !overhang && el.scrollWidth > el.clientWidth + 1 && el.clientWidth > 0) overflows.push('wider than its box: ' + el.className + ' ' + text);
    const r = el.getBoundingClientRect();
    if (bounds && panel.contains(el) && r.width > 0 && (r.right > bounds.right + 1 || r.left < bounds.left - 1)) {
      overflows.push('out of the panel: ' + el.className + ' ' + text);
    }
  }
  return { text: texts.join(' '), overflows };
})()`;

async function untranslated(page: Page, people: string[]): Promise<{ left: string; overflows: string[] }> {
  const { text, overflows } = (await page.evaluate(AUDIT)) as { text: string; overflows: string[] };
  let left = text;
  // Innermost brackets first: a message may hold another (an element's words in "About …").
  for (let before = ''; before !== left; ) {
    before = left;
    left = left.replace(/⟦[^⟦⟧]*⟧/g, ' ');
  }
  for (const words of people) left = left.split(words).join(' ');
  // Commit and build SHAs are data too.
  left = left.replace(/\b[0-9a-f]{7,40}\b/g, ' ');
  return { left: left.replace(/[^\p{L}]+/gu, ' ').trim(), overflows };
}

describe('the widget in the reader’s language', () => {
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

  test('the pseudo-language: every state shows only words from the catalogues, and nothing overflows', async () => {
    const reviewer = await newReviewer(stack, 'Pia Pseudo');
    const applied = await appliedComment(stack, reviewer, { body: 'The Team price is hard to read' });
    await call(stack.api.app, 'POST', `/api/comments/${applied.id}/replies`, {
      token: stack.admin.token,
      body: { body: 'Bolder now' },
    });
    await call(stack.api.app, 'POST', `/api/projects/${stack.projectKey}/comments`, {
      token: reviewer.token,
      body: {
        body: 'Gone button',
        pageUrl: `${stack.pageOrigin}/pricing`,
        anchor: { selector: '#nowhere', x: 1, y: 1 },
      },
    });
    const url = stack.pageUrl({ query: 'locale=en-XA' });
    const people = [
      'Pia Pseudo',
      'Ada Admin',
      'The Team price is hard to read',
      'Bolder now',
      'Gone button',
      'Choose Team',
      'Wrong password here',
      stack.pageOrigin,
      '/pricing',
    ];
    const checked: string[] = [];
    const check = async (page: Page, state: string) => {
      const { left, overflows } = await untranslated(page, people);
      assert.equal(left, '', `${state}: text that no catalogue gave`);
      assert.deepEqual(overflows, [], `${state}: text that overflows`);
      checked.push(state);
    };

    // Signed out: the sign-in, and a refusal.
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    contexts.push(context);
    const guest = await context.newPage();
    await guest.goto(url);
    await widget(guest).locator('.launcher').click();
    await widget(guest).locator('#svc-email').fill(reviewer.email);
    await widget(guest).locator('#svc-password').fill('Wrong password here');
    await check(guest, 'sign-in');
    await widget(guest).locator('button[type=submit]').click();
    await widget(guest).locator('.error').waitFor();
    await check(guest, 'sign-in refused');

    const page = await openWidget(browser, stack, reviewer, contexts, { url, viewport: { width: 1200, height: 800 } });
    await widget(page).locator('.launcher .badge').waitFor();
    await check(page, 'the launcher with unread updates');
    await widget(page).locator('.launcher').click();
    await widget(page).locator('[data-notification]').first().waitFor();
    await check(page, 'updates');
    await widget(page).locator('[role=tab]').nth(1).click();
    const card = widget(page).locator(`[data-comment="${applied.id}"]`);
    await card.waitFor();
    await widget(page).locator('section.missing').waitFor();
    await check(page, 'comments, one not found on the page');
    await widget(page).locator(`#svc-replies-${applied.id}`).click();
    await card.locator('.replies li').first().waitFor();
    await card.locator('.story').waitFor();
    await check(page, 'replies and the fix’s story');
    await widget(page).locator(`#svc-not-fixed-${applied.id}`).click();
    await check(page, 'the note that reopens');
    await widget(page).locator('#svc-filter-live').click();
    await widget(page).locator('.empty').waitFor();
    await check(page, 'an empty filter');
    await widget(page).locator('#svc-filter-all').click();
    await widget(page).locator('[data-new]').click();
    await widget(page).locator('.hint').waitFor();
    await check(page, 'picking');
    await widget(page).locator('.hint button').click();
    await widget(page).locator('#svc-new-body').fill('A comment on the whole page');
    people.push('A comment on the whole page');
    await check(page, 'the new comment');
    await widget(page).locator('#svc-new-shot').uncheck();
    await widget(page).locator('form button[type=submit]').click();
    const mine = widget(page).locator('[data-comment]', { hasText: 'A comment on the whole page' });
    await mine.waitFor();
    await mine.locator('button[id^=svc-details-]').click();
    await mine.locator('.details').waitFor();
    // The page's address is the page's.
    people.unshift(url);
    await check(page, 'the captured details');
    await mine.locator('button[id^=svc-delete-]').click();
    await check(page, 'a deletion to confirm');
    await screenshot(page, 'languages-pseudo');
    assert.equal(checked.length, 12);
  });

  for (const [locale, tab, viewport] of [
    ['ar', 'التعليقات', { width: 1200, height: 800 }],
    ['ar', 'التعليقات', { width: 390, height: 844 }],
    ['ja', 'コメント', { width: 1200, height: 800 }],
    ['ja', 'コメント', { width: 390, height: 844 }],
  ] as const) {
    test(`${locale} at ${viewport.width} px, on the hostile page too: its words, its direction, nothing serious for axe`, async () => {
      for (const query of [`locale=${locale}`, `locale=${locale}&hostile=1`]) {
        // Two fixes applied for a new reviewer: two unread updates (opening the panel reads them).
        const reviewer = await newReviewer(stack, locale === 'ar' ? 'ليلى' : '佐藤');
        await appliedComment(stack, reviewer, { body: locale === 'ar' ? 'السعر غير واضح' : '価格が読みにくい' });
        await appliedComment(stack, reviewer, { body: locale === 'ar' ? 'الزر صغير' : 'ボタンが小さい' });
        const page = await openWidget(browser, stack, reviewer, contexts, { url: stack.pageUrl({ query }), viewport });
        const host = widget(page);
        await host.locator('.badge:not([hidden])').waitFor();
        assert.equal(await host.getAttribute('lang'), locale);
        assert.equal(await host.getAttribute('dir'), locale === 'ar' ? 'rtl' : 'ltr');
        // Two unread updates: Arabic's dual, Japanese's one form.
        assert.equal(
          await host.locator('.launcher').getAttribute('aria-label'),
          locale === 'ar' ? 'الملاحظات، تحديثان غير مقروءين' : 'フィードバック、未読の更新 2 件',
        );
        // The launcher sits in the corner where the reading ends: the left in Arabic.
        const launcher = await host.locator('.launcher').boundingBox();
        assert.ok(launcher);
        assert.equal(launcher.x < viewport.width / 2, locale === 'ar', `launcher at ${launcher.x}`);
        await host.locator('.launcher').click();
        await host.locator('[role=tab]', { hasText: tab }).click();
        await host.locator('[data-comment]').first().waitFor();
        await host.locator('.pill').first().waitFor();
        const panel = await host.locator('.panel').boundingBox();
        assert.ok(panel);
        if (viewport.width > 500) assert.equal(panel.x < viewport.width / 2, locale === 'ar', `panel at ${panel.x}`);
        assert.equal(
          await host.locator('.panel').evaluate((el) => getComputedStyle(el).direction),
          locale === 'ar' ? 'rtl' : 'ltr',
        );
        const { overflows } = (await page.evaluate(AUDIT)) as { overflows: string[] };
        assert.deepEqual(overflows, [], 'nothing overflows');
        assert.deepEqual(await seriousViolations(page, '[data-svc-widget]'), []);
        await screenshot(page, `languages-${locale}-${viewport.width}${query.includes('hostile') ? '-hostile' : ''}`);
        await page.close();
      }
    });
  }

  test('which language: the person’s choice, then the site’s, the browser’s, the workspace’s; a change needs no reload', async () => {
    const reviewer = await newReviewer(stack, 'Lou Langue');
    const tabs = async (page: Page) => {
      await widget(page).locator('.launcher').click();
      const text = await widget(page).locator('[role=tab]').nth(1).textContent();
      await widget(page).locator('.launcher').click();
      return text;
    };
    // The browser's language.
    const german = await openWidget(browser, stack, reviewer, contexts, { locale: 'de-AT' });
    assert.equal(await tabs(german), 'Kommentare');
    // The site's beats the browser's.
    const french = await openWidget(browser, stack, reviewer, contexts, {
      locale: 'de-AT',
      url: stack.pageUrl({ query: 'locale=fr' }),
    });
    assert.equal(await tabs(french), 'Commentaires');
    // A browser that speaks none of them: the workspace's default, once an admin sets one.
    const admin = await call(stack.api.app, 'PATCH', '/api/workspace', {
      token: stack.admin.token,
      body: { defaultLocale: 'nl' },
    });
    assert.equal(admin.status, 200);
    const dutch = await openWidget(browser, stack, reviewer, contexts, { locale: 'ko-KR' });
    assert.equal(await tabs(dutch), 'Opmerkingen');
    // The person's own choice beats them all, from the panel, at once and for every page after.
    await widget(french).locator('.launcher').click();
    await widget(french).locator('#svc-language').selectOption('ja');
    await widget(french).locator('[role=tab]', { hasText: 'コメント' }).waitFor();
    assert.equal(await widget(french).getAttribute('lang'), 'ja');
    const me = await call(stack.api.app, 'GET', '/api/me', { token: reviewer.token });
    assert.equal((me.body as { user: { locale: string } }).user.locale, 'ja');
    await french.reload();
    await widget(french).locator('.launcher').waitFor();
    // The person's choice is known once their session is (a read of the server after the
    // page's load): until then the widget speaks as the page says.
    await widget(french).locator('.launcher').click();
    await widget(french).locator('[role=tab]', { hasText: 'コメント' }).waitFor();
    await widget(french).locator('.launcher').click();
    // Back to "as this page or browser says": the site's French again.
    await widget(french).locator('.launcher').click();
    await widget(french).locator('#svc-language').selectOption('');
    await widget(french).locator('[role=tab]', { hasText: 'Commentaires' }).waitFor();
    await call(stack.api.app, 'PATCH', '/api/workspace', { token: stack.admin.token, body: { defaultLocale: null } });
  });
});
