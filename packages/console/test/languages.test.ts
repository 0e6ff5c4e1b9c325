// The console in the reader's language: every screen in the pseudo-language (every visible
// word from a catalogue, nothing overflowing its box), Arabic right to left and Japanese at
// 1200 and 390 px, and a change of language from Account that needs no reload.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { call, createComment, createProject, type Member } from '../../server/test/helpers.js';
import {
  type ConsoleStack,
  consoleAs,
  launchBrowser,
  screenshot,
  seriousViolations,
  startConsoleStack,
} from './helpers.js';

/**
 * The visible text of the page (and the labels read aloud) that no catalogue gave, and the
 * elements whose text is wider than their box. In the pseudo-language every message is
 * bracketed (⟦…⟧); code and snippets, times (the browser's `Intl`), the language menus (each
 * language in its own words) and what people wrote are left out.
 */
const AUDIT = `(() => {
  const texts = [];
  const overflows = [];
  for (const el of document.body.querySelectorAll('*')) {
    if (!el.checkVisibility() || el.closest('code, pre, time, [lang], textarea, script, style, .uplot')) continue;
    for (const node of el.childNodes) if (node.nodeType === 3) texts.push(node.textContent);
    for (const name of ['aria-label', 'title', 'alt', 'placeholder']) {
      if (el.hasAttribute(name) && !el.closest('[role=img]')) texts.push(' ' + el.getAttribute(name) + ' ');
    }
    const style = getComputedStyle(el);
    const scrolls = /auto|scroll/.test(style.overflowX) || style.textOverflow === 'ellipsis';
    if (!scrolls && el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1 && !el.matches('select, input, table, tr, tbody, thead')) {
      overflows.push(el.tagName.toLowerCase() + '.' + el.className + ': ' + el.textContent.trim().slice(0, 60));
    }
  }
  return { text: texts.join(' '), overflows, title: document.title };
})()`;

async function untranslated(page: Page, people: readonly string[]) {
  const { text, overflows, title } = (await page.evaluate(AUDIT)) as {
    text: string;
    overflows: string[];
    title: string;
  };
  let left = `${text} ${title}`;
  // Innermost brackets first: a message may hold another.
  for (let before = ''; before !== left; ) {
    before = left;
    left = left.replace(/⟦[^⟦⟧]*⟧/g, ' ');
  }
  for (const words of [...people].sort((a, b) => b.length - a.length)) left = left.split(words).join(' ');
  left = left.replace(/\b[0-9a-f]{7,40}\b/g, ' ');
  return { left: left.replace(/[^\p{L}]+/gu, ' ').trim(), overflows };
}

describe('the console in the reader’s language', () => {
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

  async function open(member: Member | null, path: string, viewport = { width: 1200, height: 800 }) {
    const session = await consoleAs(browser, member, viewport);
    closers.push(() => session.context.close());
    await session.page.goto(stack.base + path);
    return session;
  }

  test('the pseudo-language: every screen shows only words from the catalogues, and nothing overflows', async () => {
    const project = await createProject(stack.api.app, stack.admin, { name: 'Shop', appUrl: 'https://app.acme.test' });
    const comment = await createComment(stack.api.app, stack.admin, project.key, 'Totals overlap the menu');
    await call(stack.api.app, 'POST', `/api/comments/${comment.id}/replies`, {
      token: stack.admin.token,
      body: { body: 'Looking at it' },
    });
    await call(stack.api.app, 'POST', `/api/comments/${comment.id}/apply`, {
      token: stack.admin.token,
      body: { commitSha: 'abc1234' },
    });
    await call(stack.api.app, 'POST', '/api/me/api-keys', { token: stack.admin.token, body: { name: 'CI deploy' } });
    await call(stack.api.app, 'POST', '/api/workspace/agents', {
      token: stack.admin.token,
      body: { name: 'Night agent' },
    });
    const people = [
      'Night agent',
      'Ada Admin',
      'Shop',
      project.key,
      'Totals overlap the menu',
      'Looking at it',
      'CI deploy',
      'https://app.acme.test',
      'https://app.example.test/pricing',
      '/pricing',
      stack.admin.email,
      'svc-cli',
      'svc-cli.mjs',
      'Feedback',
    ];
    // The audit log's detail column is the server's own record of what changed.
    const screens = [
      ['/', 'inbox'],
      ['/comments', 'comments'],
      ['/comments?view=board', 'board'],
      [`/comments/${comment.id}`, 'a comment'],
      ['/projects', 'projects'],
      [`/projects/${project.key}/install`, 'install'],
      [`/projects/${project.key}/builds`, 'builds'],
      ['/people', 'people'],
      ['/agents', 'agents'],
      ['/api-keys', 'API keys'],
      ['/audit', 'audit log'],
      ['/insights', 'insights'],
      ['/account', 'account'],
    ] as const;
    // One browser tab for every screen, each opened by its address as a reader would.
    const { page, errors } = await open(stack.admin, '/?locale=en-XA');
    for (const [path, name] of screens) {
      await page.goto(`${stack.base}${path}${path.includes('?') ? '&' : '?'}locale=en-XA`);
      await page.locator('main h1').waitFor();
      await page.waitForLoadState('networkidle');
      // Every list loaded: no “Loading…” left.
      await page.waitForFunction(() => !document.querySelector('main p.muted[role=status]'));
      const { left, overflows } = await untranslated(page, people);
      assert.equal(left, '', `${name}: text that no catalogue gave`);
      assert.deepEqual(overflows, [], `${name}: text wider than its box`);
      assert.deepEqual(errors, [], `${name}: script errors`);
      if (name === 'a comment') await screenshot(page, 'console-pseudo-comment');
    }
    // Signed out: the sign-in, and a refusal in the reader's language.
    const guest = (await open(null, '/sign-in?locale=en-XA')).page;
    await guest.locator('input[type=email]').fill(stack.admin.email);
    await guest.locator('input[type=password]').fill('not the password');
    await guest.locator('button[type=submit]').click();
    await guest.locator('.error').waitFor();
    const { left } = await untranslated(guest, people);
    assert.equal(left, '', 'sign-in refused: text that no catalogue gave');
    await screenshot(guest, 'console-pseudo-sign-in');
  });

  for (const [locale, viewport] of [
    ['ar', { width: 1200, height: 800 }],
    ['ar', { width: 390, height: 844 }],
    ['ja', { width: 1200, height: 800 }],
    ['ja', { width: 390, height: 844 }],
  ] as const) {
    test(`${locale} at ${viewport.width} px: comments and a comment in its words and direction; they fit; nothing serious for axe`, async () => {
      await call(stack.api.app, 'PATCH', '/api/me', { token: stack.admin.token, body: { locale } });
      const project = await createProject(stack.api.app, stack.admin);
      const comment = await createComment(
        stack.api.app,
        stack.admin,
        project.key,
        locale === 'ar' ? 'الزر صغير' : 'ボタンが小さい',
      );
      try {
        for (const [path, heading] of [
          ['/comments', locale === 'ar' ? 'التعليقات' : 'コメント'],
          // Numbered as its pin is (in the language's digits).
          [`/comments/${comment.id}`, locale === 'ar' ? /^تعليق \S+ من Ada Admin$/ : /^Ada Admin のコメント \S+$/],
        ] as const) {
          const { page, errors } = await open(stack.admin, path, viewport);
          await page.getByRole('heading', { level: 1, name: heading }).waitFor();
          await page.waitForLoadState('networkidle');
          assert.equal(await page.evaluate(() => document.documentElement.lang), locale);
          assert.equal(await page.evaluate(() => document.documentElement.dir), locale === 'ar' ? 'rtl' : 'ltr');
          const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
          assert.ok(overflow <= 0, `${path}: ${overflow} px wider than the window`);
          assert.deepEqual(await seriousViolations(page), [], `${path}: axe`);
          assert.deepEqual(errors, [], `${path}: script errors`);
          await screenshot(
            page,
            `console-${locale}-${viewport.width}-${path.split('/')[1]}${path.split('/')[2] ? '-detail' : ''}`,
          );
        }
        // The brand sits at the start of the line: the right in Arabic.
        const { page } = await open(stack.admin, '/account', viewport);
        await page.getByRole('heading', { level: 1, name: locale === 'ar' ? 'الحساب' : 'アカウント' }).waitFor();
        const brand = await page.locator('.brand').boundingBox();
        assert.ok(brand);
        assert.equal(brand.x > viewport.width / 2, locale === 'ar', `brand at ${brand.x}`);
      } finally {
        await call(stack.api.app, 'PATCH', '/api/me', { token: stack.admin.token, body: { locale: null } });
      }
    });
  }

  test('Account: choosing a language redraws the console in it at once, and it stays; an admin sets the workspace’s', async () => {
    const { page } = await open(stack.admin, '/account');
    await page.getByRole('heading', { level: 1, name: 'Account' }).waitFor();
    await page.locator('#language').selectOption('de');
    await page.getByRole('heading', { level: 1, name: 'Konto' }).waitFor();
    // (In German the sections may not fit in the bar's row: then they are in its menu, folded.)
    assert.equal(await page.locator('nav a', { hasText: 'Kommentare' }).count(), 1);
    await page.reload();
    await page.getByRole('heading', { level: 1, name: 'Konto' }).waitFor();
    // Read once the server has answered the change (the page does not wait for it to redraw).
    const saved = page.waitForResponse((r) => r.request().method() === 'PATCH' && r.url().endsWith('/api/workspace'));
    await page.locator('#workspace-language').selectOption('fr');
    assert.equal((await saved).status(), 200);
    const me = await call(stack.api.app, 'GET', '/api/me', { token: stack.admin.token });
    assert.equal(me.body.user.locale, 'de');
    assert.equal(me.body.workspace.defaultLocale, 'fr');
    await page.locator('#language').selectOption('');
    // Back to the browser's English (the workspace's French is only for browsers that speak none).
    await page.getByRole('heading', { level: 1, name: 'Account' }).waitFor();
    await call(stack.api.app, 'PATCH', '/api/workspace', { token: stack.admin.token, body: { defaultLocale: null } });
  });
});
