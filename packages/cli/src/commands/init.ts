import fs from 'node:fs';
import path from 'node:path';
import { PROJECT_KEY_PATTERN } from '@svc/contract/project-key';
import { parseCommandArgs } from '../args.js';
import type { CommandContext } from '../command.js';
import { CONFIG_DIR, CONFIG_FILE, CREDENTIALS_FILE } from '../config.js';
import { usageError } from '../errors.js';
import { git } from '../git.js';
import { info, printData, printJson } from '../output.js';

export const usage = `Usage: svc-cli init --server <url> --project <key> [--json]

Writes .svc/config.json at the root of this git repository (commit it), and adds
.svc/credentials.env to .gitignore: put SVC_API_KEY=<key> there on your machine, and
set SVC_API_KEY from a secret in CI.
`;

export async function run(args: string[], context: CommandContext): Promise<void> {
  const { values, positionals } = parseCommandArgs(
    args,
    { server: { type: 'string' }, project: { type: 'string' } },
    usage,
  );
  if (positionals.length > 0) throw usageError(`unexpected argument "${positionals[0]}".\n\n${usage}`);
  if (!values.server || !values.project) throw usageError(`--server and --project are both required.\n\n${usage}`);
  let server: URL;
  try {
    server = new URL(values.server);
  } catch {
    throw usageError(`--server must be the server's http(s) URL, got "${values.server}".`);
  }
  if (server.protocol !== 'http:' && server.protocol !== 'https:') {
    throw usageError(`--server must be an http(s) URL, got "${values.server}".`);
  }
  if (!new RegExp(PROJECT_KEY_PATTERN).test(values.project)) {
    throw usageError(`--project must be a project key (2-40 of a-z, 0-9 and -), got "${values.project}".`);
  }

  let root = context.cwd;
  try {
    root = (await git(context.cwd, ['rev-parse', '--show-toplevel'])).trim();
  } catch {
    info('Not inside a git repository: writing .svc/ in the current directory.');
  }
  const configPath = path.join(root, CONFIG_DIR, CONFIG_FILE);
  fs.mkdirSync(path.dirname(configPath), { recursive: true });
  const config = { server: server.href.replace(/\/+$/, ''), project: values.project };
  fs.writeFileSync(configPath, `${JSON.stringify(config, null, 2)}\n`);

  const ignorePath = path.join(root, '.gitignore');
  const ignoreLine = `${CONFIG_DIR}/${CREDENTIALS_FILE}`;
  const ignore = fs.existsSync(ignorePath) ? fs.readFileSync(ignorePath, 'utf8') : '';
  const ignored = ignore.split(/\r?\n/).some((line) => line.trim() === ignoreLine || line.trim() === `/${ignoreLine}`);
  if (!ignored) fs.writeFileSync(ignorePath, `${ignore}${ignore && !ignore.endsWith('\n') ? '\n' : ''}${ignoreLine}\n`);

  if (values.json) return printJson({ configPath, config, gitignoreUpdated: !ignored });
  printData(`Wrote ${path.relative(context.cwd, configPath) || configPath}.`);
  if (!ignored) printData(`Added ${ignoreLine} to .gitignore.`);
  info(`Next: put SVC_API_KEY=<your key> in ${ignoreLine} (or set SVC_API_KEY), then run svc-cli comments.`);
}
