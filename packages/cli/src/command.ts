/** Where a command runs: its working directory and environment (tests pass their own). */
export interface CommandContext {
  cwd: string;
  env: NodeJS.ProcessEnv;
}

/** What every command module exports; loaded only when its command runs. */
export interface Command {
  usage: string;
  run: (args: string[], context: CommandContext) => Promise<void>;
}
