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
  replay: { on: row.replay_on === 1, seconds: Number(row.replay_seconds), maskAllText: row.replay_mask_text === 1 },
  createdAt: row.created_at,
});
