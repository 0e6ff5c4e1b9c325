import type { Db, ProjectTable } from '../../db/schema.js';
import type { Scope } from '../auth/actor.js';

/** Projects visible in a scope: a project-limited client sees only its own. */
const inScope = (db: Db, scope: Scope) => {
  let query = db.selectFrom('projects').selectAll().where('workspace_id', '=', scope.workspaceId);
  if (scope.projectId) query = query.where('id', '=', scope.projectId);
  return query;
};

export const findProjectByKey = (db: Db, scope: Scope, key: string) =>
  inScope(db, scope).where('key', '=', key).executeTakeFirst();

export const listProjects = (db: Db, scope: Scope) => inScope(db, scope).orderBy('key').execute();

export async function insertProject(db: Db, row: ProjectTable) {
  await db.insertInto('projects').values(row).execute();
}

/** Every origin any project allows, for CORS. */
export async function listAllowedOrigins(db: Db): Promise<string[]> {
  const rows = await db.selectFrom('projects').select('allowed_origins').execute();
  return rows.flatMap((row) => JSON.parse(row.allowed_origins) as string[]);
}
