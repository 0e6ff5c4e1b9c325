import type { ApiKey } from '@svc/contract';
import type { Static } from 'typebox';
import type { ApiKeyTable } from '../../db/account-tables.js';

/** A key as listed: never its secret, only its last four characters. */
export const presentApiKey = (
  row: Pick<ApiKeyTable, 'id' | 'name' | 'last_four' | 'created_at' | 'last_used_at'>,
): Static<typeof ApiKey> => ({
  id: row.id,
  name: row.name,
  lastFour: row.last_four,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
});

export const presentWorkspaceApiKey = (row: {
  id: string;
  name: string;
  last_four: string;
  created_at: string;
  last_used_at: string | null;
  owner_id: string;
  owner_name: string;
}) => ({
  ...presentApiKey(row),
  owner: { id: row.owner_id, name: row.owner_name },
});
