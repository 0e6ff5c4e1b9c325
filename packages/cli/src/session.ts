import { ApiClient } from './api.js';
import type { CommandContext } from './command.js';
import { loadApiKey, loadProjectConfig } from './config.js';

/** The configured project and an API client for it: exit 2 without configuration, 3 without a key. */
export function connect(context: CommandContext): ApiClient {
  const config = loadProjectConfig(context.cwd, context.env);
  return new ApiClient(config, loadApiKey(context.cwd, context.env, config.server));
}
