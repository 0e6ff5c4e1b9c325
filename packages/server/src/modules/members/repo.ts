import type { Db } from '../../db/schema.js';

/** The team (admins and members) or the client accounts of a workspace, oldest first, from the keyset position `after`. */
export function listAccounts(
  db: Db,
  workspaceId: string,
  kind: 'team' | 'clients',
  page: { after?: string; limit: number },
) {
  let query = db
    .selectFrom('users')
    .leftJoin('projects', 'projects.id', 'users.project_id')
    .select([
      'users.id',
      'users.name',
      'users.email',
      'users.role',
      'users.kind',
      'users.created_at',
      'users.last_sign_in_at',
      'users.totp_enabled_at',
      'projects.key as project_key',
    ])
    .where('users.workspace_id', '=', workspaceId)
    .where('users.removed_at', 'is', null)
    .where('users.role', kind === 'team' ? 'in' : '=', kind === 'team' ? ['admin', 'member'] : 'client');
  if (page.after) query = query.where('users.id', '>', page.after);
  return query.orderBy('users.id').limit(page.limit).execute();
}

export async function countAdmins(db: Db, workspaceId: string): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('role', '=', 'admin')
    .where('removed_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function setRole(db: Db, workspaceId: string, userId: string, role: 'admin' | 'member') {
  await db
    .updateTable('users')
    .set({ role })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', userId)
    .execute();
}

/**
 * Ends an account: its sessions and API keys go (their hashes are returned, for the caches of
 * every process), its notifications and pending links too, and it is on no comment any more; the row stays for the comments and
 * replies it wrote, with no e-mail (free to be invited again) and no way to sign in.
 */
export async function removeAccount(
  db: Db,
  workspaceId: string,
  userId: string,
  at: string,
  rename: string | null,
): Promise<string[]> {
  const sessions = await db
    .deleteFrom('sessions')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .returning('token_hash')
    .execute();
  const keys = await db
    .deleteFrom('api_keys')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .returning('key_hash')
    .execute();
  await db
    .deleteFrom('notifications')
    .where('workspace_id', '=', workspaceId)
    .where('recipient_id', '=', userId)
    .execute();
  await db.deleteFrom('one_time_links').where('workspace_id', '=', workspaceId).where('user_id', '=', userId).execute();
  // What they were on waits for someone else: "unassigned" finds it.
  await db
    .updateTable('comments')
    .set({ assignee_id: null, assigned_at: null })
    .where('workspace_id', '=', workspaceId)
    .where('assignee_id', '=', userId)
    .execute();
  await db
    .updateTable('users')
    .set({
      removed_at: at,
      email: null,
      password_hash: null,
      access_token_hash: null,
      ...(rename === null ? {} : { name: rename }),
    })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', userId)
    .execute();
  return [...sessions.map((row) => row.token_hash), ...keys.map((row) => row.key_hash)];
}

/** Replaces a client account's access token and ends its sessions; their token hashes. */
export async function replaceAccessToken(db: Db, workspaceId: string, userId: string, hash: string) {
  await db
    .updateTable('users')
    .set({ access_token_hash: hash })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', userId)
    .execute();
  const sessions = await db
    .deleteFrom('sessions')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .returning('token_hash')
    .execute();
  return sessions.map((row) => row.token_hash);
}

/** Where a client's access link leads: its project's app URL, else the first project of the workspace that has one. */
export async function appUrlFor(db: Db, workspaceId: string, projectId: string | null): Promise<string | null> {
  let query = db
    .selectFrom('projects')
    .select('app_url')
    .where('workspace_id', '=', workspaceId)
    .where('app_url', 'is not', null);
  if (projectId) query = query.where('id', '=', projectId);
  const row = await query.orderBy('key').limit(1).executeTakeFirst();
  return row?.app_url ?? null;
}
