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
.svc/credentials.env (and .svc/svc-cli.mjs, where the CLI may be downloaded) to .gitignore:
put SVC_API_KEY=<key> in the first on your machine, and
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

  // The key, and the CLI itself when it was downloaded beside the configuration.
  const ignorePath = path.join(root, '.gitignore');
  const ignore = fs.existsSync(ignorePath) ? fs.readFileSync(ignorePath, 'utf8') : '';
  const present = new Set(ignore.split(/\r?\n/).map((line) => line.trim().replace(/^\//, '')));
  const missing = [`${CONFIG_DIR}/${CREDENTIALS_FILE}`, `${CONFIG_DIR}/svc-cli.mjs`].filter(
    (line) => !present.has(line),
  );
  if (missing.length > 0) {
    fs.writeFileSync(ignorePath, `${ignore}${ignore && !ignore.endsWith('\n') ? '\n' : ''}${missing.join('\n')}\n`);
  }

  if (values.json) return printJson({ configPath, config, gitignoreUpdated: missing.length > 0 });
  printData(`Wrote ${path.relative(context.cwd, configPath) || configPath}.`);
  if (missing.length > 0) printData(`Added ${missing.join(' and ')} to .gitignore.`);
  info(
    `Next: put SVC_API_KEY=<your key> in ${CONFIG_DIR}/${CREDENTIALS_FILE} (or set SVC_API_KEY), then run svc-cli comments.`,
  );
}
