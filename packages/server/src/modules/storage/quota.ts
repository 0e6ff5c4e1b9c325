import type { Db } from '../../db/schema.js';

// A workspace's storage: what its uploads (images and screenshots) take, counted by triggers in
// the statements that add and delete them (see migration 0025), and the most they may take.

/** What the workspace stores, and may store: its own quota, else `defaultBytes` (the server's); in bytes. */
export async function storageOf(db: Db, workspaceId: string, defaultBytes: number) {
  const row = await db
    .selectFrom('workspaces')
    .select(['stored_bytes', 'storage_quota_bytes'])
    .where('id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  const own = row.storage_quota_bytes;
  return { usedBytes: Number(row.stored_bytes), quotaBytes: own === null ? defaultBytes : Number(own) };
}

/** Every workspace's use and quota, the fullest first (for the operator: the admin command's `storage`). */
export async function listStorage(db: Db, defaultBytes: number) {
  const rows = await db
    .selectFrom('workspaces')
    .select(['id', 'name', 'stored_bytes', 'storage_quota_bytes'])
    .orderBy('stored_bytes', 'desc')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    usedBytes: Number(row.stored_bytes),
    quotaBytes: row.storage_quota_bytes === null ? defaultBytes : Number(row.storage_quota_bytes),
    ownQuota: row.storage_quota_bytes !== null,
  }));
}

/** Gives the workspace a quota of its own, in bytes (null: the server's default again); false when there is no such workspace. */
export async function setStorageQuota(db: Db, workspaceId: string, bytes: number | null): Promise<boolean> {
  const result = await db
    .updateTable('workspaces')
    .set({ storage_quota_bytes: bytes })
    .where('id', '=', workspaceId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

const UNITS = ['bytes', 'KB', 'MB', 'GB', 'TB'] as const;

/** A size as people read it, in the README's binary units: `720 KB`, `1 MB`, `4.5 GB`. */
export function sizeText(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const rounded = unit === 0 || value >= 100 ? Math.round(value) : Math.round(value * 10) / 10;
  return `${rounded.toLocaleString('en')} ${UNITS[unit]}`;
}

const FACTORS: Record<string, number> = { KB: 1024, MB: 1024 ** 2, GB: 1024 ** 3, TB: 1024 ** 4 };

/** A size as an operator writes it (`500MB`, `20 GB`, `1.5TB`; binary units, as sizeText), in bytes; null if it is none. */
export function parseSize(text: string): number | null {
  const match = /^(\d+(?:\.\d+)?)\s*([KMGT]B)$/i.exec(text.trim());
  const factor = match && FACTORS[(match[2] ?? '').toUpperCase()];
  if (!match || !factor) return null;
  const bytes = Math.round(Number(match[1]) * factor);
  return Number.isSafeInteger(bytes) ? bytes : null;
}
