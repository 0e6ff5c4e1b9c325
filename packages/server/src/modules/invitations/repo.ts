import type { OneTimeLinkTable } from '../../db/account-tables.js';
import type { Db } from '../../db/schema.js';

export async function insertLink(db: Db, row: OneTimeLinkTable) {
  await db.insertInto('one_time_links').values(row).execute();
}

/** A link of `purpose` that has not expired, by its token's hash. */
export const findLiveLink = (db: Db, purpose: OneTimeLinkTable['purpose'], hash: string, now: string) =>
  db
    .selectFrom('one_time_links')
    .selectAll()
    .where('token_hash', '=', hash)
    .where('purpose', '=', purpose)
    .where('expires_at', '>', now)
    .executeTakeFirst();

/** Deletes a link by id; false when another request used it first. */
export async function consumeLink(db: Db, id: string): Promise<boolean> {
  const result = await db.deleteFrom('one_time_links').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

/** Pending invitations of the workspace, oldest first, with who sent them. */
export function listInvites(db: Db, workspaceId: string, now: string, page: { after?: string; limit: number }) {
  let query = db
    .selectFrom('one_time_links')
    .leftJoin('users', 'users.id', 'one_time_links.created_by_id')
    .select([
      'one_time_links.id',
      'one_time_links.email',
      'one_time_links.role',
      'one_time_links.created_at',
      'one_time_links.expires_at',
      'users.id as inviter_id',
      'users.name as inviter_name',
    ])
    .where('one_time_links.workspace_id', '=', workspaceId)
    .where('one_time_links.purpose', '=', 'invite')
    .where('one_time_links.expires_at', '>', now);
  if (page.after) query = query.where('one_time_links.id', '>', page.after);
  return query.orderBy('one_time_links.id').limit(page.limit).execute();
}

/** Deletes an invitation; the e-mail it was for, or undefined when there was none. */
export async function deleteInvite(db: Db, workspaceId: string, id: string): Promise<string | undefined> {
  const row = await db
    .deleteFrom('one_time_links')
    .where('workspace_id', '=', workspaceId)
    .where('purpose', '=', 'invite')
    .where('id', '=', id)
    .returning('email')
    .executeTakeFirst();
  return row ? (row.email ?? '') : undefined;
}

/** Earlier links of the same kind for the same person: a new one replaces them. */
export async function deleteEarlierLinks(
  db: Db,
  workspaceId: string,
  purpose: OneTimeLinkTable['purpose'],
  who: { email: string } | { userId: string },
) {
  let query = db.deleteFrom('one_time_links').where('workspace_id', '=', workspaceId).where('purpose', '=', purpose);
  query = 'email' in who ? query.where('email', '=', who.email) : query.where('user_id', '=', who.userId);
  await query.execute();
}
