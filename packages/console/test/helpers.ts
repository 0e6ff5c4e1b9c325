import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before } from 'node:test';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startTestDnsServer, type TestDnsServer } from '../../server/test/dns-server.js';
import { createTestApp, type Member, signUp, type TestApp } from '../../server/test/helpers.js';
import { launchBrowser } from '../../widget/test/helpers.js';

export { launchBrowser };

const screenshotDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../test-results');
const axeSource = fs.readFileSync(fileURLToPath(import.meta.resolve('axe-core/axe.min.js')), 'utf8');

/** The real server (console and API on one origin) on 127.0.0.1, with a workspace and its admin. */
export interface ConsoleStack {
  api: TestApp;
  base: string;
  admin: Member;
  /** The DNS server the server checks domains' proofs with. */
  dns: TestDnsServer;
  close: () => Promise<void>;
}

export async function startConsoleStack(): Promise<ConsoleStack> {
  const dns = await startTestDnsServer();
  const api = await createTestApp({
    publicUrl: null,
    limits: { repliesPerMinute: 100_000, commentsPerMinute: 100_000 },
    dnsServers: [dns.address],
  });
  const base = (await api.app.listen({ port: 0, host: '127.0.0.1' })).replace('localhost', '127.0.0.1');
  const admin = await signUp(api.app, 'Ada Admin');
  return {
    api,
    base,
    admin,
    dns,
    close: async () => {
      await api.close();
      await dns.close();
    },
  };
}

/**
 * A page whose console is signed in as `member` (its token put where the console keeps it).
 * `touch`: a phone's screen, tapped rather than clicked.
 */
export async function consoleAs(
  browser: Browser,
  member: Pick<Member, 'token'> | null,
  viewport = { width: 1200, height: 800 },
  colorScheme: 'light' | 'dark' = 'light',
  touch = false,
) {
  const context: BrowserContext = await browser.newContext({ viewport, colorScheme, hasTouch: touch, isMobile: touch });
  if (member) {
    await context.addInitScript(
      ([token]) => {
        if (!sessionStorage.getItem('svc-test-seeded')) {
          localStorage.setItem('svc:console:token', token as string);
          sessionStorage.setItem('svc-test-seeded', '1');
        }
      },
      [member.token],
    );
  }
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && !/status of (4\d\d)/.test(message.text())) errors.push(message.text());
  });
  return { context, page, errors };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${name}.png`), fullPage: true });
}

/** axe-core run inside the page (or on the elements `within` selects): the serious and critical violations, described. */
export async function seriousViolations(page: Page, within = 'document'): Promise<string[]> {
  await page.evaluate(axeSource);
  const context = within === 'document' ? 'document' : JSON.stringify(within);
  const results = (await page.evaluate(`axe.run(${context}, { resultTypes: ['violations'] })`)) as {
    violations: { id: string; impact: string; nodes: { target: string[] }[] }[];
  };
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** Checks a screen: no serious axe violation, no horizontal overflow, no script error; then a screenshot to look at. */
export async function look(page: Page, name: string, errors: string[]): Promise<void> {
  assert.deepEqual(await seriousViolations(page), [], `${name}: axe`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `${name}: ${overflow} px wider than the window`);
  assert.deepEqual(errors, [], `${name}: script errors`);
  await screenshot(page, name);
}

/** A wide screen and a phone, as the console's tests look at each screen. */
export const WIDE = { width: 1280, height: 900 };
export const PHONE = { width: 390, height: 844 };

/**
 * For a `describe`: a browser and a console stack started before its tests and closed after
 * them, and `open`, a page of the console as `member` at `path` (closed with the suite).
 */
export function consoleSuite() {
  const started: { browser?: Browser; stack?: ConsoleStack } = {};
  const closers: (() => Promise<void>)[] = [];
  before(async () => {
    started.browser = await launchBrowser();
    started.stack = await startConsoleStack();
  });
  after(async () => {
    for (const close of closers) await close();
    await started.browser?.close();
    await started.stack?.close();
  });
  const browser = () => started.browser as Browser;
  const stack = () => started.stack as ConsoleStack;
  return {
    browser,
    stack,
    open: async (member: Member, path: string, viewport = WIDE, touch = false) => {
      const session = await consoleAs(browser(), member, viewport, 'light', touch);
      closers.push(() => session.context.close());
      await session.page.goto(stack().base + path);
      return session;
    },
  };
}
