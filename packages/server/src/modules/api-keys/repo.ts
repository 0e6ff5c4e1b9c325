import type { ApiKeyTable, Db } from '../../db/schema.js';

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
    .returning('key_hash')
    .executeTakeFirst();
  return row?.key_hash;
}
