import { CLI_VERSION } from './version.js';

/**
 * The version of the server at `server`, or null when it cannot be asked. The CLI and the
 * server are released together; a deploy job running an older download is worth a warning.
 */
export async function serverVersion(server: string): Promise<string | null> {
  try {
    const response = await fetch(`${server}/api/server`, {
      headers: { accept: 'application/json' },
      signal: AbortSignal.timeout(5_000),
    });
    if (!response.ok) return null;
    const info = (await response.json()) as { version?: unknown };
    return typeof info.version === 'string' ? info.version : null;
  } catch {
    return null; // Unreachable: the command's own request says so.
  }
}

/** The warning to give when this CLI and the server differ, or null when they agree (or cannot be compared). */
export function versionMismatch(server: string, version: string | null): string | null {
  if (version === null || version === CLI_VERSION) return null;
  return `this svc-cli is version ${CLI_VERSION} and the server ${version}: download the server's own from ${server}/cli/svc-cli.mjs (and its .sha256).`;
}
