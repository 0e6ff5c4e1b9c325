// A build made for one server: its address written in (the settings page starts with it), and
// its origin the one host permission asked at install, so that the person grants it once, with
// the extension. The code is the generic build's, byte for byte: one build serves any server.
import fs from 'node:fs';
import path from 'node:path';

/** The files of a personalised build: `files` (name → bytes) with the manifest and `server.json` for `server`. */
export function personalise(files, server) {
  const manifest = JSON.parse(String(files.get('manifest.json')));
  // Without the port: Firefox's match patterns have none (see originPattern).
  const { protocol, hostname } = new URL(server);
  manifest.host_permissions = [`${protocol}//${hostname}/*`];
  return new Map([
    ...files,
    ['manifest.json', Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`)],
    ['server.json', Buffer.from(`${JSON.stringify({ server })}\n`)],
  ]);
}

/** An unpacked build's files, name → bytes. */
export function readUnpacked(dir) {
  return new Map(fs.readdirSync(dir).map((name) => [name, fs.readFileSync(path.join(dir, name))]));
}
