import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import { ImportError } from './import-error.js';
import { linesOf } from './import-lines.js';

test('a line past the limit is refused as it arrives, naming it, before it is held whole', async () => {
  const read = async (chunks: string[], maxBytes: number) => {
    const seen: string[] = [];
    for await (const line of linesOf(Readable.from(chunks.map((chunk) => Buffer.from(chunk))), maxBytes))
      seen.push(line);
    return seen;
  };
  assert.deepEqual(await read(['ab', 'c\r\nde\n', '\nf'], 4), ['abc', 'de', '', 'f']);
  await assert.rejects(
    read(['abc\n', 'de', 'fg', 'h\n'], 3),
    (error: Error) => error instanceof ImportError && error.message === 'line 2 is longer than 3 bytes',
  );
  await assert.rejects(read(['abcd\nxy\n'], 3), /line 1 is longer than 3 bytes/);
});
