import { type ParseArgsConfig, parseArgs } from 'node:util';
import { usageError } from './errors.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** Parses one command's arguments; a wrong flag is a usage error that shows the command's usage. */
export function parseCommandArgs<T extends Options>(args: string[], options: T, usage: string) {
  const secretFlag = args.find((arg) => /^--(api-?key|key|token)(=|$)/.test(arg));
  if (secretFlag) {
    throw usageError(
      `${secretFlag.split('=')[0]}: secrets are never taken as flags (they end up in shell history and CI logs). Set SVC_API_KEY, or write it to .svc/credentials.env.`,
    );
  }
  try {
    return parseArgs({
      args,
      options: { json: { type: 'boolean' }, ...options },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw usageError(`${(error as Error).message}\n\n${usage}`);
  }
}
