import fs from 'node:fs';
import path from 'node:path';
import { parseCommandArgs } from '../args.js';
import type { CommandContext } from '../command.js';
import { usageError } from '../errors.js';
import { info } from '../output.js';
import { connect } from '../session.js';

export const usage = `Usage: svc-cli screenshot <id> [-o <file>]

Saves the screenshot taken with the comment, as the page looked to its author with the
element outlined. Without -o, to <id>.webp (or .jpg, .png, by its type) in this directory;
-o - writes the image to standard output.
`;

const EXTENSIONS: Record<string, string> = { 'image/webp': '.webp', 'image/jpeg': '.jpg', 'image/png': '.png' };

export async function run(args: string[], context: CommandContext): Promise<void> {
  const { values, positionals } = parseCommandArgs(args, { o: { type: 'string', short: 'o' } }, usage);
  const [id, ...extra] = positionals;
  if (!id || extra.length > 0) throw usageError(`expected one comment id.\n\n${usage}`);
  const api = connect(context);
  const { bytes, contentType } = await api.download(`/api/comments/${encodeURIComponent(id)}/screenshot`);
  if (values.o === '-') {
    process.stdout.write(bytes);
    return;
  }
  const file = path.resolve(context.cwd, values.o ?? `${id}${EXTENSIONS[contentType] ?? ''}`);
  fs.writeFileSync(file, bytes);
  info(`Saved ${Math.round(bytes.length / 1024)} KB to ${file}`);
}
