import type { Clock } from '../../clock.js';
import type { SessionTable, UserTable } from '../../db/account-tables.js';
import type { Db } from '../../db/schema.js';
import { newId, nowIso } from '../../ids.js';

/** A user row (its second factor aside: see two-factor/repo.ts) with the key of the project a quick-access account is limited to. */
export type UserRow = Omit<UserTable, `totp_${string}` | 'sso_subject' | 'locale' | 'kind'> & {
  project_key: string | null;
  locale: string | null;
  kind: 'person' | 'agent';
};

const userColumns = [
  'users.id',
  'users.workspace_id',
  'users.email',
  'users.name',
  'users.role',
  'users.password_hash',
  'users.access_token_hash',
  'users.project_id',
  'users.created_at',
  'users.removed_at',
  'users.last_sign_in_at',
  'users.locale',
  'users.kind',
  'projects.key as project_key',
] as const;

/** Accounts that exist: a removed one is found by nothing (its comments keep its row). */
const selectUsers = (db: Db) =>
  db
    .selectFrom('users')
    .leftJoin('projects', 'projects.id', 'users.project_id')
    .select(userColumns)
    .where('users.removed_at', 'is', null);

export const findUserById = (db: Db, workspaceId: string, userId: string) =>
  selectUsers(db).where('users.workspace_id', '=', workspaceId).where('users.id', '=', userId).executeTakeFirst();

/** Sign-in looks users up across workspaces: an e-mail belongs to one user in the whole server. */
export const findUserByEmail = (db: Db, email: string) =>
  selectUsers(db).where('users.email', '=', email).executeTakeFirst();

export const findUserByAccessTokenHash = (db: Db, hash: string) =>
  selectUsers(db).where('users.access_token_hash', '=', hash).executeTakeFirst();

export async function emailTaken(db: Db, email: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  return row !== undefined;
}

export const findWorkspace = (db: Db, workspaceId: string) =>
  db.selectFrom('workspaces').selectAll().where('id', '=', workspaceId).executeTakeFirstOrThrow();

export async function setUserLocale(db: Db, workspaceId: string, userId: string, locale: string | null) {
  await db
    .updateTable('users')
    .set({ locale })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', userId)
    .execute();
}

export async function setWorkspaceLocale(db: Db, workspaceId: string, locale: string | null) {
  await db.updateTable('workspaces').set({ default_locale: locale }).where('id', '=', workspaceId).execute();
}

/** Whether the server holds any workspace (the demo's included). */
export async function anyWorkspace(db: Db): Promise<boolean> {
  return (await db.selectFrom('workspaces').select('id').limit(1).executeTakeFirst()) !== undefined;
}

export async function insertWorkspace(db: Db, row: { id: string; name: string; created_at: string }) {
  await db.insertInto('workspaces').values(row).execute();
}

export type NewUser = Pick<UserTable, 'workspace_id' | 'email' | 'name' | 'role'> &
  Partial<Pick<UserTable, 'password_hash' | 'access_token_hash' | 'project_id'>> & { kind?: 'person' | 'agent' };

/** Creates a user and reads it back as the presenter needs it. */
export async function createUser(db: Db, clock: Clock, user: NewUser): Promise<UserRow> {
  const id = newId('usr');
  await db
    .insertInto('users')
    .values({
      id,
      password_hash: null,
      access_token_hash: null,
      project_id: null,
      created_at: nowIso(clock),
      removed_at: null,
      last_sign_in_at: null,
      ...user,
    })
    .execute();
  const row = await findUserById(db, user.workspace_id, id);
  if (!row) throw new Error('a user vanished inside its own transaction');
  return row;
}

export async function insertSession(db: Db, row: SessionTable) {
  await db.insertInto('sessions').values(row).execute();
}

/** Deletes one of the user's own sessions; its token hash, or undefined when there is none of theirs. */
export async function deleteSession(db: Db, workspaceId: string, userId: string, sessionId: string) {
  const row = await db
    .deleteFrom('sessions')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .where('id', '=', sessionId)
    .returning('token_hash')
    .executeTakeFirst();
  return row?.token_hash;
}

/** Deletes every session of the user but `keepId`; their token hashes. */
export async function deleteUserSessions(db: Db, workspaceId: string, userId: string, keepId: string | null) {
  let query = db.deleteFrom('sessions').where('workspace_id', '=', workspaceId).where('user_id', '=', userId);
  if (keepId !== null) query = query.where('id', '!=', keepId);
  const rows = await query.returning('token_hash').execute();
  return rows.map((row) => row.token_hash);
}

export async function touchSession(db: Db, sessionId: string, at: string) {
  await db.updateTable('sessions').set({ last_seen_at: at }).where('id', '=', sessionId).execute();
}

/** The user's sessions still in force, newest first, from the keyset position `before`. */
export function listSessions(
  db: Db,
  workspaceId: string,
  userId: string,
  page: { before?: string; limit: number; createdAfter: string; seenAfter: string },
) {
  let query = db
    .selectFrom('sessions')
    .select(['id', 'created_at', 'last_seen_at', 'user_agent'])
    .where('workspace_id', '=', workspaceId)
    .where('user_id', '=', userId)
    .where('created_at', '>', page.createdAfter)
    .where('last_seen_at', '>', page.seenAfter);
  if (page.before) query = query.where('id', '<', page.before);
  return query.orderBy('id', 'desc').limit(page.limit).execute();
}

export async function updatePasswordHash(db: Db, workspaceId: string, userId: string, passwordHash: string) {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', userId)
    .execute();
}

const actorColumns = ['users.id', 'users.workspace_id', 'users.name', 'users.role', 'users.project_id'] as const;

/** The user behind a session token hash, for authentication. */
export const findSessionActor = (db: Db, tokenHash: string) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([...actorColumns, 'sessions.id as credential_id', 'sessions.created_at', 'sessions.last_seen_at'])
    .where('sessions.token_hash', '=', tokenHash)
    .executeTakeFirst();

/** The user behind an API key hash, for authentication. */
export const findApiKeyActor = (db: Db, keyHash: string) =>
  db
    .selectFrom('api_keys')
    .innerJoin('users', 'users.id', 'api_keys.user_id')
    .select([...actorColumns, 'api_keys.id as credential_id', 'api_keys.last_used_at'])
    .where('api_keys.key_hash', '=', keyHash)
    .executeTakeFirst();

export async function touchApiKey(db: Db, keyId: string, at: string) {
  await db.updateTable('api_keys').set({ last_used_at: at }).where('id', '=', keyId).execute();
}

/** Every credential (session and API key hashes) of the users: to drop them from the caches. */
export async function credentialHashesOf(db: Db, workspaceId: string, userIds: readonly string[]): Promise<string[]> {
  if (userIds.length === 0) return [];
  const sessions = await db
    .selectFrom('sessions')
    .select('token_hash')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', 'in', userIds)
    .execute();
  const keys = await db
    .selectFrom('api_keys')
    .select('key_hash')
    .where('workspace_id', '=', workspaceId)
    .where('user_id', 'in', userIds)
    .execute();
  return [...sessions.map((row) => row.token_hash), ...keys.map((row) => row.key_hash)];
}

export async function recordSignIn(db: Db, userId: string, at: string) {
  await db.updateTable('users').set({ last_sign_in_at: at }).where('id', '=', userId).execute();
}
