import type { Project } from '@svc/contract';
import type { ProjectTable } from '../../db/schema.js';
import { pageParamsOfProject } from './service.js';

export const presentProject = (row: ProjectTable): Project => ({
  id: row.id,
  key: row.key,
  name: row.name,
  repoUrl: row.repo_url,
  appUrl: row.app_url,
  allowedOrigins: JSON.parse(row.allowed_origins) as string[],
  pageParams: pageParamsOfProject(row),
  createdAt: row.created_at,
});
