import type { ApiKey, User, Workspace } from '@svc/contract';
import type { Static } from 'typebox';
import type { ApiKeyTable, WorkspaceTable } from '../../db/schema.js';
import type { UserRow } from './repo.js';

export const presentUser = (row: UserRow): User => ({
  id: row.id,
  name: row.name,
  email: row.email,
  role: row.role,
  projectKey: row.project_key,
  createdAt: row.created_at,
});

export const presentWorkspace = (row: WorkspaceTable): Workspace => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at,
});

/** A key as listed: never its secret, only its last four characters. */
export const presentApiKey = (
  row: Pick<ApiKeyTable, 'id' | 'name' | 'last_four' | 'created_at' | 'last_used_at'>,
): Static<typeof ApiKey> => ({
  id: row.id,
  name: row.name,
  lastFour: row.last_four,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
});
