import type { ChangePasswordBody, LoginBody, Role, SignupBody, UpdateMeBody, UpdateWorkspaceBody } from '@svc/contract';
import type { Actor } from '../../actor.js';
import type { SessionPolicy, SignupPolicy } from '../../config.js';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { AppError, forbidden, invalidField, invalidState, notFound, unauthenticated } from '../../errors.js';
import type { Client } from '../../http/client.js';
import { pageRequest } from '../../http/pagination.js';
import { requireName } from '../../http/validation.js';
import { newId, nowIso } from '../../ids.js';
import { consumeRateLimit, countEvent, refuseWhenExhausted } from '../../limits/rate-limit.js';
import { authorize } from '../../policy.js';
import { type AuditBy, auditBy, recordAudit } from '../audit/audit.js';
import { hashPassword, requireUncommonPassword, UNKNOWN_USER_HASH, verifyPassword } from './passwords.js';
import * as repo from './repo.js';
import { hashToken, issueToken, type TokenKind, tokenKind } from './tokens.js';

export type AuthDeps = Pick<AppContext, 'db' | 'database' | 'sessions' | 'rules' | 'clock'>;

type Deps = AuthDeps;

/** An account acting for itself, before it has a session: signing in, accepting a link. */
export const accountBy = (user: { id: string; workspace_id: string; name: string }, client: Client): AuditBy => ({
  workspaceId: user.workspace_id,
  actor: { id: user.id, name: user.name },
  address: client.address,
});

/** A user as an audit target: named by e-mail, or by name when it has none (a client account). */
export const userTarget = (user: { id: string; email: string | null; name: string }) =>
  ({ kind: 'user', id: user.id, label: user.email ?? user.name }) as const;

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export async function findActor(
  db: Db,
  kind: TokenKind | null,
  hash: string,
  sessions: SessionPolicy,
): Promise<Actor | undefined> {
  if (kind === 'session') {
    const row = await repo.findSessionActor(db, hash);
    return (
      row &&
      toActor(row, {
        kind,
        id: row.credential_id,
        hash,
        lastUsedAt: Date.parse(row.last_seen_at),
        expiresAt: Date.parse(row.created_at) + sessions.lifetimeMs,
        idleMs: sessions.idleMs,
      })
    );
  }
  if (kind === 'apiKey') {
    const row = await repo.findApiKeyActor(db, hash);
    const lastUsedAt = row?.last_used_at ? Date.parse(row.last_used_at) : 0;
    return (
      row &&
      toActor(row, {
        kind,
        id: row.credential_id,
        hash,
        lastUsedAt,
        expiresAt: Number.POSITIVE_INFINITY,
        idleMs: Number.POSITIVE_INFINITY,
      })
    );
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

/** The longest user agent kept for the sessions list; control characters are dropped. */
const USER_AGENT_MAX = 300;

/** How a session began, as the audit log says it. */
export type SignInWay =
  | 'password'
  | 'password and code'
  | 'password and recovery code'
  | 'single sign-on'
  | 'access link'
  | 'sign-up'
  | 'invitation'
  | 'password reset';

/** A new session for `user`, recorded in the audit log with how it began; its bearer token. */
export async function startSession(
  db: Db,
  deps: Pick<Deps, 'clock' | 'rules'>,
  user: { id: string; workspace_id: string; name: string },
  client: Client,
  way: SignInWay,
): Promise<string> {
  // Successful sign-ins are limited too, per account and per address: each writes a session and
  // an audit row, and a script signing in in a loop would fill both.
  await consumeRateLimit(db, deps.rules.signInsPerAccount, user.id, deps.clock.now());
  await consumeRateLimit(db, deps.rules.signInsPerAddress, client.address, deps.clock.now());
  const { token, hash } = issueToken('session');
  const now = nowIso(deps.clock);
  await repo.insertSession(db, {
    id: newId('ses'),
    workspace_id: user.workspace_id,
    user_id: user.id,
    token_hash: hash,
    created_at: now,
    last_seen_at: now,
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
    user_agent: client.userAgent?.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, USER_AGENT_MAX) || null,
  });
  await repo.recordSignIn(db, user.id, now);
  await recordAudit(db, accountBy(user, client), 'signed_in', null, way, now);
  return token;
}

/** Announces ended credentials so that every process's cache forgets them once `trx` commits. */
export async function forgetCredentials(
  deps: Pick<Deps, 'database'>,
  trx: Db,
  hashes: readonly string[],
): Promise<void> {
  for (const key of hashes) await deps.database.changes.publish(trx, { kind: 'credential', key });
}

/** A concurrent insert of the same e-mail loses on the unique index: answer 409, not 500. */
export async function withUniqueEmail<T>(
  deps: Pick<Deps, 'db' | 'database'>,
  email: string,
  fn: () => Promise<T>,
): Promise<T> {
  const taken = () =>
    new AppError('conflict', 'That e-mail is already in use.', [{ path: '/email', message: 'is already in use' }]);
  if (await repo.emailTaken(deps.db, email)) throw taken();
  try {
    return await fn();
  } catch (error) {
    if (deps.database.isUniqueViolation(error)) throw taken();
    throw error;
  }
}

/** Whether `POST /api/signup` makes a workspace now: under `first`, only on a server without one. */
export async function signupOpen(db: Db, policy: SignupPolicy): Promise<boolean> {
  if (policy !== 'first') return policy === 'open';
  return !(await repo.anyWorkspace(db));
}

export async function signup(deps: Deps, policy: SignupPolicy, input: SignupBody, client: Client) {
  if (!(await signupOpen(deps.db, policy))) {
    throw forbidden('Sign-up is closed on this server: ask an admin of your workspace to invite you.');
  }
  requireUncommonPassword(input.password, '/password');
  await consumeRateLimit(deps.db, deps.rules.signUpsPerAddress, client.address, deps.clock.now());
  return createWorkspace(deps, input, (trx, user) => startSession(trx, deps, user, client, 'sign-up'));
}

/**
 * A new workspace with its first admin, and what `then` makes of them in the same
 * transaction (a session for sign-up; nothing for the admin command).
 */
export async function createWorkspace<T>(
  deps: Deps,
  input: SignupBody,
  then: (trx: Db, user: repo.UserRow) => Promise<T>,
) {
  const email = normaliseEmail(input.email);
  const workspaceName = requireName(input.workspaceName, '/workspaceName');
  const name = requireName(input.name, '/name');
  const passwordHash = await hashPassword(input.password);
  return withUniqueEmail(deps, email, () =>
    inTransaction(deps.db, async (trx) => {
      const workspaceId = newId('ws');
      await repo.insertWorkspace(trx, { id: workspaceId, name: workspaceName, created_at: nowIso(deps.clock) });
      const user = await repo.createUser(trx, deps.clock, {
        workspace_id: workspaceId,
        email,
        name,
        role: 'admin',
        password_hash: passwordHash,
      });
      const token = await then(trx, user);
      return { token, user, workspace: await repo.findWorkspace(trx, workspaceId) };
    }),
  );
}

/** A user by e-mail, for the operator's admin command. */
export const findUserByEmail = (db: Db, email: string) => repo.findUserByEmail(db, normaliseEmail(email));

/**
 * Sets a user's password without the current one (the operator's reset) and ends every
 * session of the user, in every process that hears the change feed.
 */
export async function resetPassword(deps: Deps, user: repo.UserRow, password: string): Promise<number> {
  const passwordHash = await hashPassword(password);
  return inTransaction(deps.db, async (trx) => {
    await repo.updatePasswordHash(trx, user.workspace_id, user.id, passwordHash);
    const hashes = await repo.deleteUserSessions(trx, user.workspace_id, user.id, null);
    await forgetCredentials(deps, trx, hashes);
    await recordAudit(
      trx,
      { workspaceId: user.workspace_id, actor: null, address: null },
      'password_reset_completed',
      userTarget(user),
      'by the operator (admin command)',
    );
    return hashes.length;
  });
}

/**
 * The account whose e-mail and password these are (the sign-in goes on in sign-in/service.ts).
 * Failed sign-ins are counted per client address and per account (e-mail, known or not);
 * once either has used up its limit, sign-in is refused with 429 before any password is
 * hashed, so wrong guesses cost the guesser, not our CPU.
 */
export async function checkPassword(deps: Deps, input: LoginBody, client: Client): Promise<repo.UserRow> {
  const { db, rules } = deps;
  const email = normaliseEmail(input.email);
  await refuseWhenExhausted(db, rules.signInFailuresPerAddress, client.address, deps.clock.now());
  await refuseWhenExhausted(db, rules.signInFailuresPerAccount, email, deps.clock.now());
  const user = await repo.findUserByEmail(db, email);
  const ok = await verifyPassword(input.password, user?.password_hash ?? UNKNOWN_USER_HASH);
  if (!user?.password_hash || !ok) {
    await countEvent(db, rules.signInFailuresPerAddress, client.address, deps.clock.now());
    await countEvent(db, rules.signInFailuresPerAccount, email, deps.clock.now());
    // Tried on an account of a workspace: its admins see it. An unknown e-mail belongs to no workspace.
    if (user) await recordAudit(db, accountBy(user, client), 'sign_in_failed', null, 'wrong password');
    throw unauthenticated('E-mail or password is incorrect.');
  }
  return user;
}

/** The account of a client's access link (failures counted per address, as wrong passwords are). */
export async function userOfAccessLink(deps: Deps, accessToken: string, client: Client): Promise<repo.UserRow> {
  const { db, rules } = deps;
  await refuseWhenExhausted(db, rules.accessLinkFailuresPerAddress, client.address, deps.clock.now());
  const user =
    tokenKind(accessToken) === 'access' ? await repo.findUserByAccessTokenHash(db, hashToken(accessToken)) : undefined;
  if (!user) {
    await countEvent(db, rules.accessLinkFailuresPerAddress, client.address, deps.clock.now());
    throw unauthenticated('This access link is not valid, or its account has been removed.');
  }
  return user;
}

/** Ends the caller's session, at once in every server process. */
export async function logout(deps: Deps, actor: Actor): Promise<void> {
  if (actor.credential.kind !== 'session') {
    throw invalidState('An API key has no session to end; revoke it with DELETE /api/me/api-keys/{id}.');
  }
  const { credential } = actor;
  await inTransaction(deps.db, async (trx) => {
    await repo.deleteSession(trx, actor.workspaceId, actor.id, credential.id);
    await forgetCredentials(deps, trx, [credential.hash]);
    await recordAudit(trx, auditBy(actor), 'signed_out');
  });
}

/** The caller's sessions in force, newest first; the one making the request is marked. */
export async function listSessions(deps: Deps, actor: Actor, query: { limit?: number; cursor?: string }) {
  const { limit, after, fetch } = pageRequest(query);
  const now = deps.clock.now();
  const rows = await repo.listSessions(deps.db, actor.workspaceId, actor.id, {
    before: after,
    limit: fetch,
    createdAfter: new Date(now - deps.sessions.lifetimeMs).toISOString(),
    seenAfter: new Date(now - deps.sessions.idleMs).toISOString(),
  });
  const current = actor.credential.kind === 'session' ? actor.credential.id : null;
  const sessions = rows.map((row) => ({
    ...row,
    current: row.id === current,
    expires_at: new Date(
      Math.min(
        Date.parse(row.created_at) + deps.sessions.lifetimeMs,
        Date.parse(row.last_seen_at) + deps.sessions.idleMs,
      ),
    ).toISOString(),
  }));
  return { rows: sessions, limit };
}

/** Ends one of the caller's sessions, at once in every process. */
export async function endSession(deps: Deps, actor: Actor, sessionId: string): Promise<void> {
  await inTransaction(deps.db, async (trx) => {
    const hash = await repo.deleteSession(trx, actor.workspaceId, actor.id, sessionId);
    if (!hash) throw notFound('Session');
    await forgetCredentials(deps, trx, [hash]);
    await recordAudit(trx, auditBy(actor), 'session_ended', { kind: 'session', id: sessionId, label: sessionId });
  });
}

/** Ends every session of the caller but the one making the request; how many ended. */
export async function endOtherSessions(deps: Deps, actor: Actor): Promise<number> {
  const keep = actor.credential.kind === 'session' ? actor.credential.id : null;
  return inTransaction(deps.db, async (trx) => {
    const hashes = await repo.deleteUserSessions(trx, actor.workspaceId, actor.id, keep);
    await forgetCredentials(deps, trx, hashes);
    await recordAudit(trx, auditBy(actor), 'other_sessions_ended', null, `${hashes.length} ended`);
    return hashes.length;
  });
}

/**
 * Checks the caller's password before a change to how they sign in; a wrong one counts as a
 * failed sign-in of the account (and of the address) and is audited with what was being done.
 */
export async function requireCurrentPassword(
  deps: Pick<Deps, 'db' | 'rules' | 'clock'>,
  actor: Actor,
  password: string,
  client: Client,
  { path, doing }: { path: string; doing: string },
) {
  authorize(actor, 'account.changePassword');
  const user = await repo.findUserById(deps.db, actor.workspaceId, actor.id);
  if (!user) throw unauthenticated();
  if (!user.password_hash) {
    throw invalidState(
      'You have no password here: you joined through single sign-on, whose own sign-in protects you. An admin can make you a password reset link.',
    );
  }
  const account = user.email ?? user.id;
  await refuseWhenExhausted(deps.db, deps.rules.signInFailuresPerAccount, account, deps.clock.now());
  if (!(await verifyPassword(password, user.password_hash))) {
    await countEvent(deps.db, deps.rules.signInFailuresPerAccount, account, deps.clock.now());
    await countEvent(deps.db, deps.rules.signInFailuresPerAddress, client.address, deps.clock.now());
    await recordAudit(deps.db, auditBy(actor), 'sign_in_failed', null, `wrong current password, ${doing}`);
    throw invalidField(path, 'is not your current password');
  }
  return user;
}

/**
 * A new password, given the current one (a wrong one counts as a failed sign-in of the
 * account). Every other session of the user ends, at once in every process.
 */
export async function changePassword(deps: Deps, actor: Actor, input: ChangePasswordBody, client: Client) {
  await requireCurrentPassword(deps, actor, input.currentPassword, client, {
    path: '/currentPassword',
    doing: 'changing it',
  });
  requireUncommonPassword(input.newPassword, '/newPassword');
  const passwordHash = await hashPassword(input.newPassword);
  return inTransaction(deps.db, async (trx) => {
    await repo.updatePasswordHash(trx, actor.workspaceId, actor.id, passwordHash);
    const keep = actor.credential.kind === 'session' ? actor.credential.id : null;
    const hashes = await repo.deleteUserSessions(trx, actor.workspaceId, actor.id, keep);
    await forgetCredentials(deps, trx, hashes);
    await recordAudit(trx, auditBy(actor), 'password_changed');
    return hashes.length;
  });
}

export async function me({ db }: Pick<AppContext, 'db'>, actor: Actor) {
  const user = await repo.findUserById(db, actor.workspaceId, actor.id);
  if (!user) throw unauthenticated();
  return { user, workspace: await repo.findWorkspace(db, actor.workspaceId) };
}

/** The caller's own settings: the language they read the apps in (any account, clients too). */
export async function updateMe({ db }: Pick<AppContext, 'db'>, actor: Actor, body: UpdateMeBody) {
  await repo.setUserLocale(db, actor.workspaceId, actor.id, body.locale);
  return (await me({ db }, actor)).user;
}

/** The workspace's settings: the language of those whose browser speaks none of the apps'. */
export async function updateWorkspace({ db }: Pick<AppContext, 'db'>, actor: Actor, body: UpdateWorkspaceBody) {
  authorize(actor, 'workspace.manageSettings');
  await repo.setWorkspaceLocale(db, actor.workspaceId, body.defaultLocale);
  return repo.findWorkspace(db, actor.workspaceId);
}
