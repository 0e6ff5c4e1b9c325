import { constants } from 'node:buffer';
import { ImportError } from './import-error.js';

// An export file's lines as the import reads them: split from the stream as bytes, each held
// only up to a limit, so that a line too long is refused before it is held whole.

/**
 * The longest line read, in bytes: as long as a string may be here, so the longest line an
 * export can write (a comment's, its thread made one string by JSON.stringify). A thread has no
 * bound of its own (any number of replies, each up to 10,000 characters: some 1,600 of them
 * pass 16 MiB), so no shorter limit would take every export. A longer line is refused as it
 * arrives, before it is held whole.
 */
export const MAX_LINE_BYTES = constants.MAX_STRING_LENGTH;

/**
 * The lines of `input` (UTF-8; LF or CRLF), each at most `maxBytes`: a longer one is an
 * ImportError naming it as soon as it passes the limit, before it is held whole.
 */
export async function* linesOf(input: NodeJS.ReadableStream, maxBytes = MAX_LINE_BYTES): AsyncGenerator<string> {
  let parts: Buffer[] = [];
  let held = 0;
  let line = 1;
  const text = (last: Buffer) => {
    const bytes = parts.length ? Buffer.concat([...parts, last]) : last;
    parts = [];
    held = 0;
    line += 1;
    const end = bytes.length && bytes[bytes.length - 1] === 0x0d ? bytes.length - 1 : bytes.length;
    return bytes.toString('utf8', 0, end);
  };
  for await (const chunk of input) {
    let bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    for (let end = bytes.indexOf(0x0a); end !== -1; end = bytes.indexOf(0x0a)) {
      if (held + end > maxBytes) break;
      yield text(bytes.subarray(0, end));
      bytes = bytes.subarray(end + 1);
    }
    held += bytes.length;
    if (held > maxBytes) throw new ImportError(`line ${line} is longer than ${maxBytes.toLocaleString('en')} bytes`);
    if (bytes.length) parts.push(bytes);
  }
  if (held) yield text(Buffer.alloc(0));
}
