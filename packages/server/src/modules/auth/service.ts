import type { AddMemberBody, CreateQuickAccessBody, LoginBody, Role, SignupBody } from '@svc/contract';
import type { Kysely } from 'kysely';
import type { DialectSupport } from '../../db/dialect/index.js';
import type { Database, Db } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { AppError, invalidField, invalidState, notFound, unauthenticated } from '../../errors.js';
import { requireText } from '../../http/validation.js';
import { newId, nowIso } from '../../ids.js';
import { findProjectByKey } from '../projects/repo.js';
import { type Actor, scopeOf } from './actor.js';
import { hashPassword, UNKNOWN_USER_HASH, verifyPassword } from './passwords.js';
import { authorize } from './policy.js';
import * as repo from './repo.js';
import { hashToken, issueToken, type TokenKind, tokenKind } from './tokens.js';

interface Deps {
  db: Kysely<Database>;
  dialect: DialectSupport;
}

const normaliseEmail = (email: string) => email.trim().toLowerCase();

export async function findActor(db: Db, kind: TokenKind | null, hash: string): Promise<Actor | undefined> {
  if (kind === 'session') {
    const row = await repo.findSessionActor(db, hash);
    return row && toActor(row, { kind, id: row.credential_id, hash, lastUsedAt: 0 });
  }
  if (kind === 'apiKey') {
    const row = await repo.findApiKeyActor(db, hash);
    const lastUsedAt = row?.last_used_at ? Date.parse(row.last_used_at) : 0;
    return row && toActor(row, { kind, id: row.credential_id, hash, lastUsedAt });
  }
  return undefined;
}

function toActor(
  row: { id: string; workspace_id: string; name: string; role: Role; project_id: string | null },
  credential: Actor['credential'],
): Actor {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    name: row.name,
    role: row.role,
    projectId: row.project_id,
    credential,
  };
}

async function startSession(db: Db, user: { id: string; workspace_id: string }): Promise<string> {
  const { token, hash } = issueToken('session');
  await repo.insertSession(db, {
    id: newId('ses'),
    workspace_id: user.workspace_id,
    user_id: user.id,
    token_hash: hash,
    created_at: nowIso(),
  });
  return token;
}

/** A concurrent insert of the same e-mail loses on the unique index: answer 409, not 500. */
async function withUniqueEmail<T>(deps: Deps, email: string, fn: () => Promise<T>): Promise<T> {
  const taken = () =>
    new AppError('conflict', 'That e-mail is already in use.', [{ path: '/email', message: 'is already in use' }]);
  if (await repo.emailTaken(deps.db, email)) throw taken();
  try {
    return await fn();
  } catch (error) {
    if (deps.dialect.isUniqueViolation(error)) throw taken();
    throw error;
  }
}

export async function signup(deps: Deps, input: SignupBody) {
  const email = normaliseEmail(input.email);
  const workspaceName = requireText(input.workspaceName, '/workspaceName');
  const name = requireText(input.name, '/name');
  const passwordHash = await hashPassword(input.password);
  return withUniqueEmail(deps, email, () =>
    inTransaction(deps.db, async (trx) => {
      const now = nowIso();
      const workspaceId = newId('ws');
      await repo.insertWorkspace(trx, { id: workspaceId, name: workspaceName, created_at: now });
      const user = await repo.createUser(trx, {
        workspace_id: workspaceId,
        email,
        name,
        role: 'admin',
        password_hash: passwordHash,
      });
      const token = await startSession(trx, user);
      return { token, user, workspace: await repo.findWorkspace(trx, workspaceId) };
    }),
  );
}

export async function login(db: Kysely<Database>, input: LoginBody) {
  const user = await repo.findUserByEmail(db, normaliseEmail(input.email));
  const ok = await verifyPassword(input.password, user?.password_hash ?? UNKNOWN_USER_HASH);
  if (!user?.password_hash || !ok) throw unauthenticated('E-mail or password is incorrect.');
  return { token: await startSession(db, user), user };
}

export async function signInWithAccessToken(db: Kysely<Database>, accessToken: string) {
  const user =
    tokenKind(accessToken) === 'access' ? await repo.findUserByAccessTokenHash(db, hashToken(accessToken)) : undefined;
  if (!user) throw unauthenticated('This access link is not valid, or its account has been removed.');
  return { token: await startSession(db, user), user };
}

/** Ends the caller's session, at once in every server process. */
export async function logout(deps: Deps, actor: Actor): Promise<void> {
  if (actor.credential.kind !== 'session') {
    throw invalidState('An API key has no session to end; revoke it with DELETE /api/me/api-keys/{id}.');
  }
  const { credential } = actor;
  await inTransaction(deps.db, async (trx) => {
    await repo.deleteSession(trx, actor.workspaceId, credential.id);
    await deps.dialect.publishChange(trx, { kind: 'credential', key: credential.hash });
  });
}

export async function me(db: Db, actor: Actor) {
  const user = await repo.findUserById(db, actor.workspaceId, actor.id);
  if (!user) throw unauthenticated();
  return { user, workspace: await repo.findWorkspace(db, actor.workspaceId) };
}

export async function addMember(deps: Deps, actor: Actor, input: AddMemberBody) {
  authorize(actor, 'workspace.addMember');
  const email = normaliseEmail(input.email);
  const name = requireText(input.name, '/name');
  const passwordHash = await hashPassword(input.password);
  return withUniqueEmail(deps, email, () =>
    repo.createUser(deps.db, {
      workspace_id: actor.workspaceId,
      email,
      name,
      role: input.role,
      password_hash: passwordHash,
    }),
  );
}

export async function createQuickAccess(deps: Deps, actor: Actor, input: CreateQuickAccessBody) {
  authorize(actor, 'workspace.createQuickAccess');
  const name = requireText(input.name, '/name');
  let projectId: string | null = null;
  if (input.projectKey !== undefined) {
    const project = await findProjectByKey(deps.db, scopeOf(actor), input.projectKey);
    if (!project) throw invalidField('/projectKey', 'names no project of this workspace');
    projectId = project.id;
  }
  const email = input.email === undefined ? null : normaliseEmail(input.email);
  const create = async () => {
    const { token, hash } = issueToken('access');
    const user = await repo.createUser(deps.db, {
      workspace_id: actor.workspaceId,
      email,
      name,
      role: 'client',
      access_token_hash: hash,
      project_id: projectId,
    });
    return { user, accessToken: token };
  };
  return email === null ? create() : withUniqueEmail(deps, email, create);
}

export async function listApiKeys(db: Db, actor: Actor) {
  authorize(actor, 'apiKeys.manage');
  return repo.listApiKeys(db, actor.workspaceId, actor.id);
}

export async function createApiKey(db: Db, actor: Actor, name: string) {
  authorize(actor, 'apiKeys.manage');
  const { token, hash } = issueToken('apiKey');
  const row = {
    id: newId('key'),
    workspace_id: actor.workspaceId,
    user_id: actor.id,
    name: requireText(name, '/name'),
    key_hash: hash,
    last_four: token.slice(-4),
    created_at: nowIso(),
  };
  await repo.insertApiKey(db, row);
  return { id: row.id, name: row.name, key: token, createdAt: row.created_at };
}

/** Revokes one of the caller's keys, at once in every server process. */
export async function revokeApiKey(deps: Deps, actor: Actor, keyId: string): Promise<void> {
  authorize(actor, 'apiKeys.manage');
  await inTransaction(deps.db, async (trx) => {
    const keyHash = await repo.deleteApiKey(trx, actor.workspaceId, actor.id, keyId);
    if (!keyHash) throw notFound('API key');
    await deps.dialect.publishChange(trx, { kind: 'credential', key: keyHash });
  });
}
