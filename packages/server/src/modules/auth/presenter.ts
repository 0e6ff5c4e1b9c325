import type { User, Workspace } from '@svc/contract';
import type { WorkspaceTable } from '../../db/schema.js';
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
