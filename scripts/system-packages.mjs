// The Debian packages the test suite needs besides Node: PostgreSQL's server binaries,
// Chromium for the browser tests, and Firefox and WebKitGTK (with a virtual display) for the
// widget's main flows in the other engines.
// Installed with apt-get when missing (or, for Firefox, too old: apt-get install upgrades it)
// and this runs as root (a fresh CI machine or container); otherwise the command to run is printed.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { findPostgresBin } from './postgres.mjs';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const FIREFOX_PATH = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr';

/**
 * The oldest Firefox the tests drive: ESR 140 lacks a WebDriver BiDi command puppeteer sends
 * (its setViewport), and the next ESR, 153, has it. An older one is upgraded like a missing one.
 */
const FIREFOX_MIN_MAJOR = 141;

/** Firefox's major version (`firefox-esr --version`: "Mozilla Firefox 153.8.0esr"); null when unknown. */
function firefoxMajor() {
  try {
    const version = execFileSync(FIREFOX_PATH, ['--version'], { encoding: 'utf8', timeout: 30_000 });
    const major = Number(/Firefox (\d+)\./.exec(version)?.[1]);
    return Number.isFinite(major) ? major : null;
  } catch {
    return null;
  }
}

export function missingSystemPackages() {
  const missing = [];
  if (!process.env.TEST_DATABASE_URL && !findPostgresBin()) missing.push('postgresql');
  if (!fs.existsSync(CHROMIUM_PATH)) missing.push('chromium');
  if (!fs.existsSync(FIREFOX_PATH) || (firefoxMajor() ?? FIREFOX_MIN_MAJOR) < FIREFOX_MIN_MAJOR) {
    missing.push('firefox-esr');
  }
  if (!fs.existsSync('/usr/bin/WebKitWebDriver')) missing.push('webkit2gtk-driver');
  if (!fs.existsSync('/usr/bin/xvfb-run')) missing.push('xvfb');
  // xvfb-run's companion, only recommended by the xvfb package.
  if (!fs.existsSync('/usr/bin/xauth')) missing.push('xauth');
  return missing;
}

/** Installs what is missing when it can; returns what is still missing. */
export function ensureSystemPackages() {
  const missing = missingSystemPackages();
  if (missing.length === 0) return [];
  const canInstall = process.getuid?.() === 0 && commandExists('apt-get');
  if (!canInstall) {
    process.stdout.write(
      `Missing Debian packages: ${missing.join(' ')}. Install them with:\n  sudo apt-get install -y ${missing.join(' ')}\n`,
    );
    return missing;
  }
  process.stdout.write(`Installing ${missing.join(' ')} from Debian packages (apt-get)…\n`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', '--no-install-recommends', ...missing],
  ]) {
    const result = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
    if (result.status !== 0) {
      process.stdout.write(`apt-get ${args[0]} failed (exit ${result.status}).\n`);
      break;
    }
  }
  return missingSystemPackages();
}

/** Whether `name` is a command on PATH. */
export function commandExists(name) {
  try {
    execFileSync('sh', ['-c', `command -v ${name}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
