import type { Role } from '@svc/contract';

/** The authenticated caller of a request. */
export interface Actor {
  id: string;
  workspaceId: string;
  name: string;
  role: Role;
  /** A quick-access account limited to one project sees only that project. */
  projectId: string | null;
  /** 'mcp' when the request came through an agent's tools (the `x-svc-via` header they send); a timeline says so. */
  via?: 'mcp';
  /** The client address of the request (as SVC_TRUST_PROXY lets the server see it), for the audit log. */
  address?: string;
  credential: {
    kind: 'session' | 'apiKey';
    id: string;
    /** SHA-256 of the bearer token: how caches and revocations name it. */
    hash: string;
    /** When its use was last recorded (ms since epoch). */
    lastUsedAt: number;
    /** When it ends whatever its use (ms since epoch): a session's lifetime; Infinity for keys. */
    expiresAt: number;
    /** How long it may go unused before it ends: a session's idle timeout; Infinity for keys. */
    idleMs: number;
  };
}

/** What a repository query is limited to: one workspace, and for some clients one project. */
export interface Scope {
  workspaceId: string;
  projectId: string | null;
}

export const scopeOf = (actor: Actor): Scope => ({ workspaceId: actor.workspaceId, projectId: actor.projectId });
