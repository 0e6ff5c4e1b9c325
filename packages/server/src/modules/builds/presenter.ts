import type { Build, PendingDeploy } from '@svc/contract';
import type { BuildRow } from './repo.js';

/** A build as listed, with the comments it deployed (`deployments`: build id → comment ids). */
export const presentBuild =
  (deployments: Map<string, string[]>) =>
  (row: BuildRow): Build => ({
    id: row.id,
    projectKey: row.project_key,
    sha: row.sha,
    reportedBy:
      row.reported_by_id && row.reported_by_name ? { id: row.reported_by_id, name: row.reported_by_name } : null,
    createdAt: row.created_at,
    deployedCommentIds: deployments.get(row.id) ?? [],
  });

/** A comment awaiting its deploy: listed only with its commit (the query requires one). */
export const presentPendingDeploy = (row: { id: string; commit_sha: string | null }): PendingDeploy => ({
  id: row.id,
  commitSha: row.commit_sha ?? '',
});
