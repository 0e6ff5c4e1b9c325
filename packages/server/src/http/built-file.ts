import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';

/** A file another package builds (the widget, the CLI), read once, with its SHA-256. */
export interface BuiltFile {
  body: Buffer;
  sha256: Buffer;
}

/** The file a package exports as `specifier`, or null when that package is not built. */
export function readBuiltFile(specifier: string): BuiltFile | null {
  try {
    const body = fs.readFileSync(fileURLToPath(import.meta.resolve(specifier)));
    return { body, sha256: createHash('sha256').update(body).digest() };
  } catch {
    return null;
  }
}
