import fs from 'node:fs';
import path from 'node:path';
import { ExitError, exitCodes, usageError } from './errors.js';

export const CONFIG_DIR = '.svc';
export const CONFIG_FILE = 'config.json';
export const CREDENTIALS_FILE = 'credentials.env';

export interface ProjectConfig {
  server: string;
  project: string;
}

/** The nearest directory at or above `from` holding `.svc/`, or null. */
export function findConfigRoot(from: string): string | null {
  let dir = path.resolve(from);
  for (;;) {
    if (
      fs.existsSync(path.join(dir, CONFIG_DIR, CONFIG_FILE)) ||
      fs.existsSync(path.join(dir, CONFIG_DIR, CREDENTIALS_FILE))
    )
      return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/**
 * Server and project: `SVC_SERVER` / `SVC_PROJECT` override `.svc/config.json`, found by
 * walking up from the working directory.
 */
export function loadProjectConfig(cwd: string, env: NodeJS.ProcessEnv): ProjectConfig {
  const root = findConfigRoot(cwd);
  let file: Partial<ProjectConfig> = {};
  const configPath = root ? path.join(root, CONFIG_DIR, CONFIG_FILE) : null;
  if (configPath && fs.existsSync(configPath)) {
    try {
      file = JSON.parse(fs.readFileSync(configPath, 'utf8')) as Partial<ProjectConfig>;
    } catch (error) {
      throw usageError(
        `${configPath} is not valid JSON (${(error as Error).message}). Fix it or run svc-cli init again.`,
      );
    }
  }
  const server = env.SVC_SERVER || file.server;
  const project = env.SVC_PROJECT || file.project;
  if (!server || !project) {
    const missing = [!server && 'server (SVC_SERVER)', !project && 'project (SVC_PROJECT)']
      .filter(Boolean)
      .join(' and ');
    throw usageError(
      `no ${missing} configured. Run "svc-cli init --server <url> --project <key>" in the repository, or set the environment variables.`,
    );
  }
  return { server: server.replace(/\/+$/, ''), project };
}

/**
 * The API key: `SVC_API_KEY`, else `SVC_API_KEY=` in the gitignored `.svc/credentials.env`.
 * Without one, says where keys are made: the console's API keys page on `server`.
 */
export function loadApiKey(cwd: string, env: NodeJS.ProcessEnv, server: string): string {
  if (env.SVC_API_KEY?.trim()) return env.SVC_API_KEY.trim();
  const root = findConfigRoot(cwd);
  const credentials = root ? path.join(root, CONFIG_DIR, CREDENTIALS_FILE) : null;
  const fromFile =
    credentials && fs.existsSync(credentials)
      ? readEnvValue(fs.readFileSync(credentials, 'utf8'), 'SVC_API_KEY')
      : null;
  if (fromFile) return fromFile;
  throw new ExitError(
    exitCodes.noApiKey,
    `no API key found. Set SVC_API_KEY (in CI, from a secret), or put SVC_API_KEY=<key> in ${path.join(CONFIG_DIR, CREDENTIALS_FILE)} (gitignored). Create a key in the console: ${server}/api-keys (API keys, then "Create key").`,
  );
}

/** One `NAME=value` from a dotenv-style file (comments, `export`, and quotes allowed). */
function readEnvValue(text: string, name: string): string | null {
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim().replace(/^export\s+/, '');
    if (!line.startsWith(`${name}=`)) continue;
    const value = line
      .slice(name.length + 1)
      .trim()
      .replace(/^(['"])(.*)\1$/, '$2');
    return value || null;
  }
  return null;
}
