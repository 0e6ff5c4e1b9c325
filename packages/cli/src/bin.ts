#!/usr/bin/env node
import type { Command } from './command.js';
import { loadProjectConfig } from './config.js';
import { ExitError, exitCodes, usageError } from './errors.js';
import { info, warn } from './output.js';
import { serverVersion, versionMismatch } from './server-version.js';
import { CLI_VERSION } from './version.js';

const commands: Record<string, { summary: string; load: () => Promise<Command> }> = {
  status: {
    summary: 'report the deployed build (--deployed) to the server',
    load: () => import('./commands/status.js'),
  },
  apply: { summary: 'record a comment as fixed by a commit (--mark)', load: () => import('./commands/apply.js') },
  comments: { summary: "list the project's comments, or show one whole", load: () => import('./commands/comments.js') },
  screenshot: { summary: "save a comment's screenshot", load: () => import('./commands/screenshot.js') },
  export: {
    summary: "download the project's (or every project's) comments, as JSON Lines or CSV",
    load: () => import('./commands/export.js'),
  },
  mcp: { summary: 'serve the feedback to a coding agent over MCP (stdio)', load: () => import('./commands/mcp.js') },
  init: { summary: 'write .svc/config.json for this repository', load: () => import('./commands/init.js') },
  stamp: { summary: 'write data-build-sha into built HTML files', load: () => import('./commands/stamp.js') },
};

const usage = `Usage: svc-cli <command> [options]

Commands:
${Object.entries(commands)
  .map(([name, { summary }]) => `  ${name.padEnd(10)} ${summary}`)
  .join('\n')}

Every command takes --json (machine-readable output on stdout) and --help.

Configuration: .svc/config.json ({"server", "project"}), found by walking up from the
working directory; SVC_SERVER and SVC_PROJECT override it. The API key comes from
SVC_API_KEY, else from .svc/credentials.env (keep that file out of git).

Exit codes: 0 done; 1 the server could not be reached or refused the request;
2 usage error, or the revision is not a commit of this repository; 3 no API key.
`;

/** With a configured server, its version beside this one (on stderr), and a warning when they differ. */
async function compareWithServer(): Promise<void> {
  let server: string;
  try {
    server = loadProjectConfig(process.cwd(), process.env).server;
  } catch {
    return; // Not in a configured repository: nothing to compare with.
  }
  const version = await serverVersion(server);
  const mismatch = versionMismatch(server, version);
  if (mismatch) warn(mismatch);
  else if (version) info(`server ${server}: ${version}`);
}

async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (name === '--version' || name === '-v') {
    process.stdout.write(`${CLI_VERSION}\n`);
    await compareWithServer();
    return;
  }
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') {
    process.stdout.write(usage);
    return;
  }
  const entry = Object.hasOwn(commands, name) ? commands[name] : undefined;
  if (!entry) throw usageError(`unknown command "${name}".\n\n${usage}`);
  const command = await entry.load();
  if (rest.includes('--help') || rest.includes('-h')) {
    process.stdout.write(command.usage);
    return;
  }
  await command.run(rest, { cwd: process.cwd(), env: process.env });
}

main(process.argv.slice(2)).then(
  () => {
    process.exitCode = exitCodes.ok;
  },
  (error: unknown) => {
    if (error instanceof ExitError) {
      process.stderr.write(`svc-cli: ${error.message}\n`);
      process.exitCode = error.exitCode;
      return;
    }
    process.stderr.write(`svc-cli: unexpected error: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = exitCodes.server;
  },
);
