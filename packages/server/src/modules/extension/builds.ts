// The browser extension this server hands out: the build beside it (packages/extension/dist,
// one unpacked folder per browser), zipped for the person who downloads it with this server's
// address written in. The code is the build's, byte for byte: only `manifest.json` (the server's
// origin its one host permission asked at install) and `server.json` (the address the settings
// page starts with) are this server's.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yazl from 'yazl';

export const BROWSERS = ['chromium', 'firefox'] as const;
export type Browser = (typeof BROWSERS)[number];

/** The name each browser's zip is downloaded as (the build's own). */
export const zipName = (browser: Browser) => `feedback-extension-${browser}.zip`;

/** One browser's unpacked build: file name → bytes. */
export type Unpacked = Map<string, Buffer>;

/** Where the extension's build is: its package's dist folder. */
const builtDist = () =>
  path.join(path.dirname(fileURLToPath(import.meta.resolve('@svc/extension/package.json'))), 'dist');

/** The builds in `dist` (the one beside this server), read once at start; null when the extension is not built. */
export function readExtensionBuilds(dist?: string): Record<Browser, Unpacked> | null {
  try {
    const folder = dist ?? builtDist();
    const read = (browser: Browser): Unpacked => {
      const dir = path.join(folder, browser);
      return new Map(fs.readdirSync(dir).map((name) => [name, fs.readFileSync(path.join(dir, name))]));
    };
    const builds = { chromium: read('chromium'), firefox: read('firefox') };
    return builds.chromium.has('manifest.json') && builds.firefox.has('manifest.json') ? builds : null;
  } catch {
    return null;
  }
}

/** The files of a build for `server` (its API base): the manifest asking for its origin, and `server.json`. */
export function personalise(files: Unpacked, server: string): Unpacked {
  const manifest = JSON.parse(String(files.get('manifest.json'))) as { host_permissions?: string[] };
  // Without the port: Firefox's match patterns have none (the extension's originPattern alike).
  const { protocol, hostname } = new URL(server);
  manifest.host_permissions = [`${protocol}//${hostname}/*`];
  return new Map([
    ...files,
    ['manifest.json', Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`)],
    ['server.json', Buffer.from(`${JSON.stringify({ server })}\n`)],
  ]);
}

/** A fixed date for every entry, so that the same build for the same server is the same zip. */
const ENTRY_DATE = new Date(Date.UTC(2026, 0, 1));

/** `files` as a zip archive. */
export function zipOf(files: Unpacked): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, data] of files) zip.addBuffer(data, name, { mtime: ENTRY_DATE, mode: 0o100644 });
  zip.end();
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    zip.outputStream.on('data', (chunk: Buffer) => chunks.push(chunk));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}
