import type { BuildTable, Db } from '../../db/schema.js';

/** Records a build unless the project has it already; true when this call recorded it. */
export async function insertBuildOnce(db: Db, row: BuildTable): Promise<boolean> {
  const inserted = await db
    .insertInto('builds')
    .values(row)
    .onConflict((oc) => oc.columns(['project_id', 'sha']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

export async function recordDeployments(db: Db, workspaceId: string, buildId: string, commentIds: string[]) {
  if (commentIds.length === 0) return;
  await db
    .insertInto('build_deployments')
    .values(commentIds.map((comment_id) => ({ build_id: buildId, comment_id, workspace_id: workspaceId })))
    .execute();
}

/** Pending deploy, oldest first: applied with a commit, not yet in a reported build. */
export const listPendingDeploy = (
  db: Db,
  workspaceId: string,
  projectId: string,
  after: string | undefined,
  limit: number,
) => {
  let query = db
    .selectFrom('comments')
    .select(['id', 'commit_sha'])
    .where('workspace_id', '=', workspaceId)
    .where('project_id', '=', projectId)
    .where('status', '=', 'applied')
    .where('deployed_at', 'is', null)
    .where('commit_sha', 'is not', null);
  if (after) query = query.where('id', '>', after);
  return query.orderBy('id', 'asc').limit(limit).execute();
};

/** A project's builds, newest first, with who reported them. */
export function listBuilds(db: Db, workspaceId: string, projectId: string, before: string | undefined, limit: number) {
  let query = db
    .selectFrom('builds')
    .innerJoin('projects', 'projects.id', 'builds.project_id')
    .leftJoin('users', 'users.id', 'builds.reported_by_id')
    .selectAll('builds')
    .select(['projects.key as project_key', 'users.name as reported_by_name'])
    .where('builds.workspace_id', '=', workspaceId)
    .where('builds.project_id', '=', projectId);
  if (before) query = query.where('builds.id', '<', before);
  return query.orderBy('builds.id', 'desc').limit(limit).execute();
}

export type BuildRow = Awaited<ReturnType<typeof listBuilds>>[number];

export async function deploymentsOf(db: Db, workspaceId: string, buildIds: string[]): Promise<Map<string, string[]>> {
  const byBuild = new Map<string, string[]>();
  if (buildIds.length === 0) return byBuild;
  const rows = await db
    .selectFrom('build_deployments')
    .select(['build_id', 'comment_id'])
    .where('workspace_id', '=', workspaceId)
    .where('build_id', 'in', buildIds)
    .orderBy('comment_id')
    .execute();
  for (const row of rows) byBuild.set(row.build_id, [...(byBuild.get(row.build_id) ?? []), row.comment_id]);
  return byBuild;
}
