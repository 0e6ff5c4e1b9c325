import type { ApiKeyTable } from '../../db/account-tables.js';
import type { Db } from '../../db/schema.js';

/** The user's keys, newest first, from the keyset position `before`. */
export function listApiKeys(db: Db, workspaceId: string, userId: string, page: { before?: string; limit: number }) {
  let query = db
    .selectFrom('api_keys')
    .select(['id', 'name', 'last_four', 'created_at', 'last_used_at'])
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId);
  if (page.before) query = query.where('id', '<', page.before);
  return query.orderBy('id', 'desc').limit(page.limit).execute();
}

export async function countApiKeys(db: Db, workspaceId: string, userId: string): Promise<number> {
  const row = await db
    .selectFrom('api_keys')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertApiKey(db: Db, row: Omit<ApiKeyTable, 'last_used_at'>) {
  await db
    .insertInto('api_keys')
    .values({ ...row, last_used_at: null })
    .execute();
}

/** Deletes one of the user's own keys; its hash, or undefined when there is no such key of theirs. */
export async function deleteApiKey(db: Db, workspaceId: string, userId: string, keyId: string) {
  const row = await db
    .deleteFrom('api_keys')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .where('id', '=', keyId)
    .returning(['key_hash', 'name', 'user_id'])
    .executeTakeFirst();
  return row;
}

/** Every key of the workspace with its owner, newest first (the admin's view). */
export function listWorkspaceApiKeys(db: Db, workspaceId: string, page: { before?: string; limit: number }) {
  let query = db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select([
      'api_keys.id',
      'api_keys.name',
      'api_keys.last_four',
      'api_keys.created_at',
      'api_keys.last_used_at',
      'users.id as owner_id',
      'users.name as owner_name',
    ])
    .where('api_keys.workspace_id', '=', workspaceId);
  if (page.before) query = query.where('api_keys.id', '<', page.before);
  return query.orderBy('api_keys.id', 'desc').limit(page.limit).execute();
}

/** Deletes any key of the workspace; its hash, or undefined when the workspace has no such key. */
export async function deleteWorkspaceApiKey(db: Db, workspaceId: string, keyId: string) {
  const row = await db
    .deleteFrom('api_keys')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', keyId)
    .returning(['key_hash', 'name', 'user_id'])
    .executeTakeFirst();
  return row;
}
