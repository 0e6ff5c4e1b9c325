// Steps to reproduce in WebKit (WebKitGTK's MiniBrowser over WebDriver, as webkit.test.ts
// drives it): the key check of steps-check.ts, and no recorder for a visitor not signed in.
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Builder, By, type WebDriver, type WebElement } from 'selenium-webdriver';
import { newReviewer, type Stack, startStack, TYPED_SECRET } from './helpers.js';
import { assertStepsKept, FAILED_REQUEST_KEPT, RECORDER_REQUESTED } from './steps-check.js';

const DRIVER = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
const MINIBROWSER = process.env.WEBKIT_BROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';
const missing = [DRIVER, MINIBROWSER, '/usr/bin/xvfb-run'].find((file) => !fs.existsSync(file));

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

describe('steps to reproduce in WebKit', { skip: missing && `no ${missing}` }, () => {
  let stack: Stack;
  let driverProcess: ChildProcess;
  let browser: WebDriver;
  before(async () => {
    stack = await startStack();
    const port = await freePort();
    // Its own process group: closing it takes the virtual display and the browser along.
    driverProcess = spawn('xvfb-run', ['-a', DRIVER, `--port=${port}`], { stdio: 'ignore', detached: true });
    browser = await until(() =>
      new Builder()
        .usingServer(`http://127.0.0.1:${port}`)
        .withCapabilities({
          browserName: 'MiniBrowser',
          'webkitgtk:browserOptions': { binary: MINIBROWSER, args: ['--automation'] },
        })
        .build()
        .catch(() => null),
    );
    await browser.manage().window().setRect({ width: 1100, height: 760 });
  });
  after(async () => {
    await browser?.quit().catch(() => undefined);
    if (driverProcess?.pid) process.kill(-driverProcess.pid);
    await stack?.close();
  });

  async function until<T>(read: () => Promise<T | undefined | null | false>): Promise<T> {
    for (let i = 0; i < 300; i++) {
      const value = await read();
      if (value) return value;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error('waited 30 s');
  }
  /** A script run in the page, as a string: the test runner's transpiler adds nothing to it. */
  const inPage = <T>(script: string, ...args: unknown[]) => browser.executeScript<T>(script, ...args);
  /** An element of the widget (inside its shadow root), polled for until it is there. */
  const find = (selector: string): Promise<WebElement> =>
    until(async () => {
      const host = await browser.findElement(By.css('[data-svc-widget]'));
      const found = await (await host.getShadowRoot()).findElements(By.css(selector));
      return found[0] ?? null;
    });
  /** Clicks a widget element, found again when the widget redrew it meanwhile (a stale node). */
  const click = async (selector: string) => {
    for (let tries = 1; ; tries++) {
      try {
        return await (await find(selector)).click();
      } catch (error) {
        if (tries >= 5 || (error as Error).name !== 'StaleElementReferenceError') throw error;
      }
    }
  };
  const onPage = (selector: string) => browser.findElement(By.css(selector));

  test('the click, route and field are kept as steps, and the secret typed is nowhere', async () => {
    const reviewer = await newReviewer(stack, 'Wren WebKit');
    // Signed in as the widget keeps a session: its token in the page's storage.
    await browser.get(stack.pageUrl({ query: 'steps=1' }));
    await inPage('localStorage.setItem(arguments[0], arguments[1])', `svc:token:${stack.apiBase}`, reviewer.token);
    await browser.navigate().refresh();
    await find('.launcher');
    await until(() => inPage<boolean>("return '__svcSteps' in window"));

    await (await onPage('.plan button')).click();
    await until(() => inPage<boolean>(FAILED_REQUEST_KEPT));
    await (await onPage('#email')).sendKeys(TYPED_SECRET);
    await (await onPage('#refund')).click();
    await (await onPage('#to-team')).click();
    await until(() => inPage<boolean>("return location.pathname === '/pricing/team'"));

    await click('.launcher');
    await click('[role=tab]:last-of-type');
    await click('[data-new]');
    await find('.hint');
    await (await onPage('.plan button')).click();
    await (await find('#svc-new-body')).sendKeys('Choosing Team fails in WebKit');
    await click('form button[type=submit].primary');
    const id = await until(() =>
      inPage<string | null>(
        `const cards = document.querySelector('[data-svc-widget]').shadowRoot.querySelectorAll('[data-comment]');
         const card = [...cards].find((el) => el.textContent.includes('Choosing Team fails in WebKit'));
         return card ? card.getAttribute('data-comment') : null;`,
      ),
    );
    await assertStepsKept(stack, reviewer, id);
  });

  test('a visitor who is not signed in never asks for the recorder', async () => {
    await browser.get(stack.pageUrl({ query: 'steps=1' }));
    await inPage('localStorage.clear()');
    await browser.navigate().refresh();
    await click('.launcher');
    await find('input[type=email]');
    await (await onPage('.plan button')).click();
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.equal(await inPage<boolean>(RECORDER_REQUESTED), false);
    assert.equal(await inPage<boolean>("return '__svcSteps' in window"), false);
  });
});
