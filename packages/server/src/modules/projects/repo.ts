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

export async function updateProject(db: Db, projectId: string, changes: Partial<ProjectTable>) {
  if (Object.keys(changes).length === 0) return;
  await db.updateTable('projects').set(changes).where('id', '=', projectId).execute();
}

/** Who has unread notifications about the project's comments (their counts change with it). */
export async function unreadRecipientsOfProject(db: Db, projectId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('notifications')
    .innerJoin('comments', 'comments.id', 'notifications.comment_id')
    .select('notifications.recipient_id')
    .distinct()
    .where('comments.project_id', '=', projectId)
    .where('notifications.read_at', 'is', null)
    .execute();
  return rows.map((row) => row.recipient_id);
}

/** The quick-access accounts limited to the project (they go with it). */
export async function accountsLimitedToProject(db: Db, projectId: string): Promise<string[]> {
  const rows = await db.selectFrom('users').select('id').where('project_id', '=', projectId).execute();
  return rows.map((row) => row.id);
}

/** Deletes the project; the foreign keys take its comments, replies, notifications, builds and limited accounts. */
export async function deleteProject(db: Db, projectId: string) {
  await db.deleteFrom('projects').where('id', '=', projectId).execute();
}
