// What the extension keeps, in its own storage (no page can read it): the server's address, the
// person's token, and which project each origin belongs to (so that a signed-out launcher still
// knows where it is).

import type { Project } from '@svc/contract';
import { browser } from './browser.js';

export interface Settings {
  server: string | null;
  token: string | null;
  /** Origin → project key, from the person's projects when last listed. */
  projects: Record<string, string>;
  /** Origin → project key the person chose to comment under on a site no project lists. */
  filedUnder: Record<string, string>;
}

export async function readSettings(): Promise<Settings> {
  const stored = await browser.storage.local.get(['server', 'token', 'projects', 'filedUnder']);
  return {
    server: typeof stored.server === 'string' ? stored.server : null,
    token: typeof stored.token === 'string' ? stored.token : null,
    projects: (stored.projects as Record<string, string> | undefined) ?? {},
    filedUnder: (stored.filedUnder as Record<string, string> | undefined) ?? {},
  };
}

/**
 * The person's projects, read from the server, and the origins each allows (kept: origin →
 * key, the first project listing an origin wins); an empty list when signed out or refused.
 */
export async function projectOrigins(): Promise<Project[]> {
  const { server, token } = await readSettings();
  if (!server || !token) return [];
  const response = await fetch(`${server}/api/projects`, { headers: { authorization: `Bearer ${token}` } }).catch(
    () => null,
  );
  if (!response?.ok) return [];
  const { items } = (await response.json()) as { items: Project[] };
  const projects: Record<string, string> = {};
  for (const project of items) {
    for (const origin of project.allowedOrigins) projects[origin] ??= project.key;
  }
  await browser.storage.local.set({ projects });
  return items;
}
