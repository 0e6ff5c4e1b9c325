import type { Scope } from '../../actor.js';
import type { Db, ProjectTable } from '../../db/schema.js';

/** Projects visible in a scope: a project-limited client sees only its own. */
const inScope = (db: Db, scope: Scope) => {
  let query = db.selectFrom('projects').selectAll().where('workspace_id', '=', scope.workspaceId);
  if (scope.projectId) query = query.where('id', '=', scope.projectId);
  return query;
};

/**
 * Who can read the comments of a project: the team (admins, members, agents) and the clients
 * who see that project (those limited to another project do not), by name. Removed accounts
 * are nobody's to mention. Mentions and the followers of a project both read it.
 */
export function readersOfProject(db: Db, workspaceId: string, projectId: string) {
  return db
    .selectFrom('users')
    .select(['id', 'name', 'role', 'kind'])
    .where('workspace_id', '=', workspaceId)
    .where('removed_at', 'is', null)
    .where((eb) => eb.or([eb('role', '!=', 'client'), eb('project_id', 'is', null), eb('project_id', '=', projectId)]))
    .orderBy('name')
    .orderBy('id');
}

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

/**
 * The projects of every workspace that have this key. The one lookup outside a workspace: the
 * widget's origin check names a project by the key in its embed code, before anyone signs in.
 */
export async function projectsWithKey(db: Db, key: string) {
  return db.selectFrom('projects').select(['id', 'workspace_id', 'allowed_origins']).where('key', '=', key).execute();
}

/** Most refused origins kept per project: the latest, so the list can be neither flooded nor grown. */
const REFUSED_ORIGINS_KEPT = 20;

/** Notes that the project's widget was refused on `origin`, keeping the latest few per project. */
export async function recordRefusedOrigin(
  db: Db,
  project: { id: string; workspace_id: string },
  origin: string,
  at: string,
) {
  await db
    .insertInto('refused_origins')
    .values({
      project_id: project.id,
      workspace_id: project.workspace_id,
      origin,
      first_seen_at: at,
      last_seen_at: at,
      attempts: 1,
    })
    .onConflict((conflict) =>
      conflict.columns(['project_id', 'origin']).doUpdateSet((eb) => ({
        last_seen_at: at,
        attempts: eb('refused_origins.attempts', '+', 1),
      })),
    )
    .execute();
  const kept = db
    .selectFrom('refused_origins')
    .select('origin')
    .where('project_id', '=', project.id)
    .orderBy('last_seen_at', 'desc')
    .limit(REFUSED_ORIGINS_KEPT);
  await db.deleteFrom('refused_origins').where('project_id', '=', project.id).where('origin', 'not in', kept).execute();
}

/** The origins the project's widget was refused on since `since`, latest first. */
export function listRefusedOrigins(db: Db, workspaceId: string, projectId: string, since: string) {
  return db
    .selectFrom('refused_origins')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('project_id', '=', projectId)
    .where('last_seen_at', '>=', since)
    .orderBy('last_seen_at', 'desc')
    .execute();
}
