/** Exit codes of every command (SPEC §7). */
export const exitCodes = {
  ok: 0,
  /** The server could not be reached, or answered with an error. */
  server: 1,
  /** A usage error, or the revision is not a commit of this repository. */
  usage: 2,
  /** No API key was found. */
  noApiKey: 3,
} as const;

/** Thrown by a command to end the process with an exit code and a message for stderr. */
export class ExitError extends Error {
  constructor(
    readonly exitCode: number,
    message: string,
  ) {
    super(message);
  }
}

export const usageError = (message: string) => new ExitError(exitCodes.usage, message);
export const serverError = (message: string) => new ExitError(exitCodes.server, message);
