import type { SsoAttemptTable, SsoProviderTable } from '../../db/account-tables.js';
import type { Db } from '../../db/schema.js';
import { newId } from '../../ids.js';

export const findProvider = (db: Db, workspaceId: string) =>
  db.selectFrom('sso_providers').selectAll().where('workspace_id', '=', workspaceId).executeTakeFirst();

export async function saveProvider(db: Db, row: SsoProviderTable) {
  const { workspace_id, ...rest } = row;
  const updated = await db
    .updateTable('sso_providers')
    .set(rest)
    .where('workspace_id', '=', workspace_id)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) await db.insertInto('sso_providers').values(row).execute();
}

export async function deleteProvider(db: Db, workspaceId: string) {
  const result = await db.deleteFrom('sso_providers').where('workspace_id', '=', workspaceId).executeTakeFirst();
  await db.deleteFrom('sso_attempts').where('workspace_id', '=', workspaceId).execute();
  await db.deleteFrom('sso_domains').where('workspace_id', '=', workspaceId).execute();
  return Number(result.numDeletedRows) > 0;
}

export async function insertAttempt(db: Db, row: Omit<SsoAttemptTable, 'id' | 'user_id' | 'exchange_hash'>) {
  await db
    .insertInto('sso_attempts')
    .values({ id: newId('sso'), user_id: null, exchange_hash: null, ...row })
    .execute();
}

/** The attempt a provider's answer names, taken (deleted) so that its state is good once. */
export async function takeAttempt(db: Db, stateHash: string) {
  return db
    .deleteFrom('sso_attempts')
    .where('state_hash', '=', stateHash)
    .where('user_id', 'is', null)
    .returningAll()
    .executeTakeFirst();
}

export async function insertExchange(db: Db, row: Omit<SsoAttemptTable, 'id'>) {
  await db
    .insertInto('sso_attempts')
    .values({ id: newId('sso'), ...row })
    .execute();
}

/** The signed-in attempt a one-time code names, taken (deleted): the code is good once. */
export async function takeExchange(db: Db, exchangeHash: string) {
  return db.deleteFrom('sso_attempts').where('exchange_hash', '=', exchangeHash).returningAll().executeTakeFirst();
}

export async function pruneAttempts(db: Db, before: string) {
  await db.deleteFrom('sso_attempts').where('created_at', '<', before).execute();
}

/** Whether a project of the workspace lets its widget run on pages of `origin`. */
export async function originAllowed(db: Db, workspaceId: string, origin: string): Promise<boolean> {
  const projects = await db
    .selectFrom('projects')
    .select('allowed_origins')
    .where('workspace_id', '=', workspaceId)
    .execute();
  return projects.some((project) => (JSON.parse(project.allowed_origins) as string[]).includes(origin));
}

/** The account of this workspace the provider's subject signed in before. */
export const findBySubject = (db: Db, workspaceId: string, subject: string) =>
  db
    .selectFrom('users')
    .select(['id', 'removed_at'])
    .where('workspace_id', '=', workspaceId)
    .where('sso_subject', '=', subject)
    .executeTakeFirst();

export async function linkSubject(db: Db, workspaceId: string, userId: string, subject: string) {
  await db
    .updateTable('users')
    .set({ sso_subject: subject })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', userId)
    .execute();
}
