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

/** Session and API key hashes of the quick-access accounts limited to the project. */
export async function credentialsLimitedToProject(db: Db, projectId: string): Promise<string[]> {
  const users = db.selectFrom('users').select('id').where('project_id', '=', projectId);
  const sessions = await db.selectFrom('sessions').select('token_hash').where('user_id', 'in', users).execute();
  const keys = await db.selectFrom('api_keys').select('key_hash').where('user_id', 'in', users).execute();
  return [...sessions.map((row) => row.token_hash), ...keys.map((row) => row.key_hash)];
}

/** Deletes the project; the foreign keys take its comments, replies, notifications, builds and limited accounts. */
export async function deleteProject(db: Db, projectId: string) {
  await db.deleteFrom('projects').where('id', '=', projectId).execute();
}
