// Firefox for the widget's tests: Debian's firefox-esr, driven over WebDriver BiDi by puppeteer-core.
import fs from 'node:fs';
import puppeteer, { type Browser } from 'puppeteer-core';

const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/** Why a suite is skipped on this machine (no Firefox), or false. */
export const FIREFOX_MISSING = !fs.existsSync(FIREFOX_PATH) && `no Firefox at ${FIREFOX_PATH}`;

/** Firefox, headless. */
export const launchFirefox = (): Promise<Browser> =>
  puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX_PATH, headless: true });
