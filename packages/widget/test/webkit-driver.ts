// WebKit for the widget's tests: WebKitGTK's MiniBrowser driven by its WebKitWebDriver (classic
// WebDriver, through selenium-webdriver) under xvfb-run, at the window size the tests use.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { Builder, By, type WebDriver, type WebElement } from 'selenium-webdriver';

const DRIVER = process.env.WEBKIT_DRIVER_PATH ?? '/usr/bin/WebKitWebDriver';
const MINIBROWSER = process.env.WEBKIT_BROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser';

/** What this machine lacks to run WebKit (a file), for a suite to skip by; none when all is there. */
export const WEBKIT_MISSING = [DRIVER, MINIBROWSER, '/usr/bin/xvfb-run'].find((file) => !fs.existsSync(file));

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

/** Reads until `read` gives something, every 100 ms, for 30 s at most. */
export async function until<T>(read: () => Promise<T | undefined | null | false>): Promise<T> {
  for (let i = 0; i < 300; i++) {
    const value = await read();
    if (value) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('waited 30 s');
}

/** A WebKit browser at 1100×760, and how to close it with its driver and virtual display. */
export async function startWebKit(): Promise<{ browser: WebDriver; close: () => Promise<void> }> {
  const port = await freePort();
  // Its own process group: closing it takes the virtual display and the browser along.
  const driverProcess: ChildProcess = spawn('xvfb-run', ['-a', DRIVER, `--port=${port}`], {
    stdio: 'ignore',
    detached: true,
  });
  const browser = await until(() =>
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
  return {
    browser,
    close: async () => {
      await browser.quit().catch(() => undefined);
      if (driverProcess.pid) process.kill(-driverProcess.pid);
    },
  };
}

/** Reaching into a page and its widget (inside its shadow root) through the browser `driver` gives, once started. */
export function widgetIn(driver: () => WebDriver) {
  /** An element of the widget, polled for until it is there. */
  const find = (selector: string): Promise<WebElement> =>
    until(async () => {
      const host = await driver().findElement(By.css('[data-svc-widget]'));
      const found = await (await host.getShadowRoot()).findElements(By.css(selector));
      return found[0] ?? null;
    });
  /** Reads a widget element, found again when the widget redrew it between the two (a stale node). */
  const fresh = async <T>(selector: string, read: (element: WebElement) => Promise<T>): Promise<T> => {
    for (let tries = 1; ; tries++) {
      try {
        return await read(await find(selector));
      } catch (error) {
        if (tries >= 5 || (error as Error).name !== 'StaleElementReferenceError') throw error;
      }
    }
  };
  return {
    find,
    fresh,
    click: (selector: string) => fresh(selector, (element) => element.click()),
    /** A script run in the page, as a string: the test runner's transpiler adds nothing to it. */
    inPage: <T>(script: string, ...args: unknown[]) => driver().executeScript<T>(script, ...args),
    /** An element of the page itself. */
    onPage: (selector: string) => driver().findElement(By.css(selector)),
  };
}
