import type { Expression, ExpressionBuilder, SqlBool } from 'kysely';
import type { Actor } from '../../actor.js';
import type { Db, Tables } from '../../db/schema.js';
import { readersOfProject } from '../projects/repo.js';

// Who triages a project: its followers. A person's own choice (a row of `project_followers`)
// stands; without one, admins follow every project, and people of the team (not agents, which
// wait for their work through the change feed) the projects where they are on a comment.

/** Whether the person of `users` follows the project, as the rules above say. */
function follows(eb: ExpressionBuilder<Tables, 'users'>, projectId: Expression<string>): Expression<SqlBool> {
  const choice = eb
    .selectFrom('project_followers')
    .select('project_followers.following')
    .whereRef('project_followers.user_id', '=', 'users.id')
    .where('project_followers.project_id', '=', projectId);
  const onAComment = eb
    .selectFrom('comments')
    .select('comments.id')
    .whereRef('comments.workspace_id', '=', 'users.workspace_id')
    .whereRef('comments.assignee_id', '=', 'users.id')
    .where('comments.project_id', '=', projectId);
  return eb.or([
    eb.exists(choice.where('project_followers.following', '=', 1)),
    eb.and([
      eb.not(eb.exists(choice)),
      eb.or([eb('users.role', '=', 'admin'), eb.and([eb('users.kind', '=', 'person'), eb.exists(onAComment)])]),
    ]),
  ]);
}

/**
 * Who hears of the project's new comments: its followers among those who can read it (the
 * mentions' rule: nobody removed, nobody of another workspace), of the team (clients triage
 * nothing). In a fixed order (the readers'), so that writes to several of them at once lock alike.
 */
export function followersOf(db: Db, workspaceId: string, projectId: string) {
  return readersOfProject(db, workspaceId, projectId)
    .where('role', '!=', 'client')
    .where((eb) => follows(eb, eb.val(projectId)))
    .execute();
}

/** The ids of the projects of the caller's workspace that the caller follows. */
export async function followedProjectIds(db: Db, actor: Actor): Promise<string[]> {
  const rows = await db
    .selectFrom('projects')
    .innerJoin('users', (join) => join.on('users.id', '=', actor.id))
    .select('projects.id')
    .where('projects.workspace_id', '=', actor.workspaceId)
    .where('users.workspace_id', '=', actor.workspaceId)
    .where('users.role', '!=', 'client')
    // The rule reads only `users` of the builder's tables; Kysely's types do not narrow a join's builder to one.
    .where((eb) => follows(eb as unknown as ExpressionBuilder<Tables, 'users'>, eb.ref('projects.id')))
    .execute();
  return rows.map((row) => row.id);
}

/** Records the person's choice for the project; the same again changes nothing. */
export async function chooseFollowing(db: Db, actor: Actor, projectId: string, following: boolean, at: string) {
  await db
    .insertInto('project_followers')
    .values({
      project_id: projectId,
      user_id: actor.id,
      workspace_id: actor.workspaceId,
      following: following ? 1 : 0,
      chosen_at: at,
    })
    .onConflict((oc) =>
      oc.columns(['project_id', 'user_id']).doUpdateSet({ following: following ? 1 : 0, chosen_at: at }),
    )
    .execute();
}
