import fs from 'node:fs';
import path from 'node:path';
import { shortSha } from '@svc/contract/sha';
import { parseCommandArgs } from '../args.js';
import type { CommandContext } from '../command.js';
import { usageError } from '../errors.js';
import { resolveCommit } from '../git.js';
import { printData, printJson } from '../output.js';
import { stampHtml } from '../stamp-html.js';

export const usage = `Usage: svc-cli stamp <html files…> [--json]

Writes data-build-sha="<git rev-parse HEAD>" on the <html> element of each file, so the
widget can report which build a page comes from. Run it on the built files, after the
build. Stamping again replaces the value. Every file is checked before any is written.
`;

export async function run(args: string[], context: CommandContext): Promise<void> {
  const { values, positionals: files } = parseCommandArgs(args, {}, usage);
  if (files.length === 0) throw usageError(`name at least one HTML file.\n\n${usage}`);
  const sha = await resolveCommit(context.cwd, 'HEAD');

  const results: { file: string; target: string; html: string; changed: boolean }[] = [];
  for (const file of files) {
    const target = path.resolve(context.cwd, file);
    let html: string;
    try {
      html = fs.readFileSync(target, 'utf8');
    } catch (error) {
      throw usageError(
        `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}. Nothing was written.`,
      );
    }
    const stamped = stampHtml(html, sha);
    if (stamped === null) throw usageError(`${file} has no <html> element. Nothing was written.`);
    results.push({ file, target, html: stamped, changed: stamped !== html });
  }
  for (const result of results) {
    if (result.changed) fs.writeFileSync(result.target, result.html);
  }
  if (values.json) return printJson({ sha, files: results.map(({ file, changed }) => ({ file, changed })) });
  const changed = results.filter((r) => r.changed).length;
  printData(
    `Stamped ${changed} file(s) with ${shortSha(sha)}${changed < results.length ? ` (${results.length - changed} already were)` : ''}.`,
  );
}
