import fs from 'node:fs';
import path from 'node:path';
import { parseCommandArgs } from '../args.js';
import type { CommandContext } from '../command.js';
import { usageError } from '../errors.js';
import { info } from '../output.js';
import { connect } from '../session.js';

export const usage = `Usage: svc-cli export [--csv | --screenshots] [--all] [-o <file>]

Downloads this project's comments whole (replies, timelines, context) as JSON Lines, or with
--csv one row per comment for a spreadsheet, or with --screenshots their screenshots as a zip
(<project>/<comment id>.png); --all for every project of the workspace. Needs an admin's API
key; each export is in the workspace's audit log. Without -o, to
<project>-comments-<date>.jsonl (.csv; <project>-screenshots-<date>.zip) in this directory;
-o - writes to standard output.
`;

export async function run(args: string[], context: CommandContext): Promise<void> {
  const { values, positionals } = parseCommandArgs(
    args,
    {
      csv: { type: 'boolean' },
      screenshots: { type: 'boolean' },
      all: { type: 'boolean' },
      o: { type: 'string', short: 'o' },
    },
    usage,
  );
  if (positionals.length > 0) throw usageError(`unexpected argument "${positionals[0]}".\n\n${usage}`);
  if (values.csv && values.screenshots)
    throw usageError(`--csv and --screenshots are two exports: choose one.\n\n${usage}`);
  const api = connect(context);
  const query = new URLSearchParams();
  if (!values.all) query.set('project', api.project.key);
  const format = values.screenshots ? 'zip' : values.csv ? 'csv' : 'jsonl';
  if (!values.screenshots) query.set('format', format);
  const exportPath = `/api/workspace/export${values.screenshots ? '/screenshots' : ''}?${query}`;
  if (values.o === '-') {
    await api.stream(exportPath, process.stdout);
    return;
  }
  const day = new Date().toISOString().slice(0, 10);
  const file = path.resolve(
    context.cwd,
    values.o ??
      `${values.all ? 'workspace' : api.project.key}-${values.screenshots ? 'screenshots' : 'comments'}-${day}.${format}`,
  );
  const partial = `${file}.part`;
  info(`Exporting ${values.all ? 'every project' : `project ${api.project.key}`} to ${file} …`);
  try {
    const bytes = await api.stream(exportPath, fs.createWriteStream(partial));
    // Renamed once complete: an interrupted export leaves no file that looks whole.
    fs.renameSync(partial, file);
    info(`Saved ${Math.max(1, Math.round(bytes / 1024))} KB to ${file}`);
  } catch (error) {
    fs.rmSync(partial, { force: true });
    throw error;
  }
}
