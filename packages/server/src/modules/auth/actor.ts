import type { Role } from '@svc/contract';

/** The authenticated caller of a request. */
export interface Actor {
  id: string;
  workspaceId: string;
  name: string;
  role: Role;
  /** A quick-access account limited to one project sees only that project. */
  projectId: string | null;
  credential: { kind: 'session' | 'apiKey'; id: string };
}

/** What a repository query is limited to: one workspace, and for some clients one project. */
export interface Scope {
  workspaceId: string;
  projectId: string | null;
}

export const scopeOf = (actor: Actor): Scope => ({ workspaceId: actor.workspaceId, projectId: actor.projectId });
