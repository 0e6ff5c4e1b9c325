#!/usr/bin/env node
import { readFileSync } from 'node:fs';

/** Thrown by a command to end the process with a given exit code and message. */
export class ExitError extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
  }
}

const usage = `Usage: svc-cli <command> [options]

Options:
  --help       Show this help
  --version    Print the version
`;

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

async function main(argv: string[]): Promise<void> {
  const [first] = argv;
  if (first === '--version' || first === '-v') {
    process.stdout.write(`${version()}\n`);
    return;
  }
  if (first === undefined || first === '--help' || first === '-h') {
    process.stdout.write(usage);
    return;
  }
  throw new ExitError(2, `Unknown command "${first}".\n\n${usage}`);
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ExitError) {
    process.stderr.write(`svc-cli: ${error.message}\n`);
    process.exit(error.exitCode);
  }
  process.stderr.write(`svc-cli: unexpected error: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
