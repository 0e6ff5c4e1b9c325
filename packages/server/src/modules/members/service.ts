import type { AddMemberBody, CreateAgentBody, CreateQuickAccessBody } from '@svc/contract';
import { type Actor, scopeOf } from '../../actor.js';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/schema.js';
import { inTransaction, unlessGone } from '../../db/transaction.js';
import { conflict, invalidField, invalidState, notFound } from '../../errors.js';
import { pageRequest } from '../../http/pagination.js';
import { requireName } from '../../http/validation.js';
import { nowIso } from '../../ids.js';
import { authorize } from '../../policy.js';
import { type ApiKeyDeps, issueApiKey } from '../api-keys/service.js';
import { auditBy, recordAudit } from '../audit/audit.js';
import { hashPassword, requireUncommonPassword } from '../auth/passwords.js';
import * as accounts from '../auth/repo.js';
import { type AuthDeps, forgetCredentials, normaliseEmail, userTarget, withUniqueEmail } from '../auth/service.js';
import { issueToken } from '../auth/tokens.js';
import { renameInMentions } from '../comments/mentions.js';
import { findProjectByKey } from '../projects/repo.js';
import * as repo from './repo.js';

type Deps = Pick<AuthDeps, 'db' | 'database' | 'clock'>;

/** What a removed member's comments and replies are attributed to. */
export const FORMER_MEMBER = 'Former member';

type Page = { limit?: number; cursor?: string };

/** The team, oldest first: admins see e-mails and last sign-ins, members names and roles. */
export async function listMembers({ db }: Pick<AppContext, 'db'>, actor: Actor, query: Page) {
  authorize(actor, 'workspace.listMembers');
  const { limit, after, fetch } = pageRequest(query);
  return { rows: await repo.listAccounts(db, actor.workspaceId, 'team', { after, limit: fetch }), limit };
}

/** A team member of the caller's workspace (not a client account, not a removed one). */
async function requireTeamMember(db: Db, actor: Actor, userId: string) {
  const user = await accounts.findUserById(db, actor.workspaceId, userId);
  if (!user || user.role === 'client') throw notFound('Member');
  return user;
}

/**
 * Takes the locks a change of someone's account holds until it commits: the workspace's, so
 * that its admins are counted one change at a time (fifty stepping down at once leave one),
 * then the person's, so that whatever reads them to share (an assignment, an API key, a
 * mention) comes wholly before the change or sees it (see `Database.lockRows`).
 */
async function lockForChange(deps: Deps, trx: Db, actor: Actor, userId: string) {
  await deps.database.lockRows(trx, { table: 'workspaces', workspaceId: actor.workspaceId }, 'update');
  await deps.database.lockRows(trx, { table: 'users', workspaceId: actor.workspaceId, ids: [userId] }, 'update');
}

/** Refuses to leave the workspace without an admin. */
async function keepAnAdmin(db: Db, actor: Actor, user: { id: string; role: string }, what: string) {
  if (user.role !== 'admin' || (await repo.countAdmins(db, actor.workspaceId)) > 1) return;
  throw conflict(
    `${user.id === actor.id ? 'You are' : 'This is'} the workspace's last admin: make another member admin before you ${what}.`,
  );
}

export async function changeRole(deps: Deps, actor: Actor, userId: string, role: 'admin' | 'member') {
  authorize(actor, 'workspace.manageMembers');
  return inTransaction(deps.db, async (trx) => {
    await lockForChange(deps, trx, actor, userId);
    const user = await requireTeamMember(trx, actor, userId);
    if (user.kind === 'agent')
      throw invalidState('An agent acts as a member, through its API keys: it cannot be an admin.');
    if (role !== 'admin') await keepAnAdmin(trx, actor, user, 'change this role');
    await repo.setRole(trx, actor.workspaceId, user.id, role);
    await recordAudit(trx, auditBy(actor), 'role_changed', userTarget(user), `${user.role} → ${role}`);
    // Cached callers carry their role: drop them so the next request reads the new one.
    const credentials = await accounts.credentialHashesOf(trx, actor.workspaceId, [user.id]);
    await forgetCredentials(deps, trx, credentials);
    return { ...user, role };
  });
}

/**
 * Removes a member: sessions and API keys end at once in every process; comments and replies
 * stay, attributed to a former member.
 */
export async function removeMember(deps: Deps, actor: Actor, userId: string): Promise<void> {
  authorize(actor, 'workspace.manageMembers');
  await inTransaction(deps.db, async (trx) => {
    await lockForChange(deps, trx, actor, userId);
    const user = await requireTeamMember(trx, actor, userId);
    await keepAnAdmin(trx, actor, user, 'remove it');
    const ended = await repo.removeAccount(trx, actor.workspaceId, user.id, nowIso(deps.clock), FORMER_MEMBER);
    await renameInMentions(trx, actor.workspaceId, { id: user.id, name: FORMER_MEMBER }, user.name);
    await forgetCredentials(deps, trx, ended);
    await recordAudit(trx, auditBy(actor), 'member_removed', userTarget(user), `was ${user.role}`);
  });
}

export async function listClients({ db }: Pick<AppContext, 'db'>, actor: Actor, query: Page) {
  authorize(actor, 'workspace.manageClients');
  const { limit, after, fetch } = pageRequest(query);
  return { rows: await repo.listAccounts(db, actor.workspaceId, 'clients', { after, limit: fetch }), limit };
}

async function requireClient(db: Db, actor: Actor, userId: string) {
  const user = await accounts.findUserById(db, actor.workspaceId, userId);
  if (user?.role !== 'client') throw notFound('Quick-access account');
  return user;
}

/**
 * `#svc_access=<token>` on the app URL the account's project (or the workspace) has, if any:
 * after the `#`, which browsers never send, so the token reaches no server's log (the app's
 * or ours) and no Referer.
 */
async function accessUrl(db: Db, workspaceId: string, projectId: string | null, token: string) {
  const appUrl = await repo.appUrlFor(db, workspaceId, projectId);
  if (!appUrl) return null;
  const url = new URL(appUrl);
  url.hash = `svc_access=${token}`;
  return url.href;
}

/** A new access link for a client account: the old one and its sessions stop working at once. */
export async function rotateAccessLink(deps: Deps, actor: Actor, userId: string) {
  authorize(actor, 'workspace.manageClients');
  return inTransaction(deps.db, async (trx) => {
    const user = await requireClient(trx, actor, userId);
    const { token, hash } = issueToken('access');
    const ended = await repo.replaceAccessToken(trx, actor.workspaceId, user.id, hash);
    await forgetCredentials(deps, trx, ended);
    await recordAudit(trx, auditBy(actor), 'client_link_rotated', userTarget(user));
    return { accessToken: token, accessUrl: await accessUrl(trx, actor.workspaceId, user.project_id, token) };
  });
}

/** Revokes a client account: its link and sessions end at once; its comments stay, under its name. */
export async function revokeClient(deps: Deps, actor: Actor, userId: string): Promise<void> {
  authorize(actor, 'workspace.manageClients');
  await inTransaction(deps.db, async (trx) => {
    await lockForChange(deps, trx, actor, userId);
    const user = await requireClient(trx, actor, userId);
    const ended = await repo.removeAccount(trx, actor.workspaceId, user.id, nowIso(deps.clock), null);
    await forgetCredentials(deps, trx, ended);
    await recordAudit(trx, auditBy(actor), 'client_link_revoked', userTarget(user));
  });
}

export async function addMember(deps: Deps, actor: Actor, input: AddMemberBody) {
  authorize(actor, 'workspace.addMember');
  const email = normaliseEmail(input.email);
  const name = requireName(input.name, '/name');
  requireUncommonPassword(input.password, '/password');
  const passwordHash = await hashPassword(input.password);
  return withUniqueEmail(deps, email, () =>
    inTransaction(deps.db, async (trx) => {
      const user = await accounts.createUser(trx, deps.clock, {
        workspace_id: actor.workspaceId,
        email,
        name,
        role: input.role,
        password_hash: passwordHash,
      });
      await recordAudit(trx, auditBy(actor), 'member_added', userTarget(user), `as ${input.role}`);
      return user;
    }),
  );
}

/**
 * An agent of the team (a coding agent, a CI job): an account that acts as a member through its
 * API keys, never signs in, and can be assigned work like a person; with its first key.
 */
export async function createAgent(deps: Deps & ApiKeyDeps, actor: Actor, input: CreateAgentBody) {
  authorize(actor, 'workspace.manageAgents');
  const name = requireName(input.name, '/name');
  const agent = await inTransaction(deps.db, async (trx) => {
    const user = await accounts.createUser(trx, deps.clock, {
      workspace_id: actor.workspaceId,
      email: null,
      name,
      role: 'member',
      kind: 'agent',
    });
    await recordAudit(trx, auditBy(actor), 'member_added', userTarget(user), 'as agent');
    return user;
  });
  return { agent, apiKey: await issueApiKey(deps, agent, name, auditBy(actor), () => notFound('Agent')) };
}

/** Another API key of an agent of the workspace (admin). */
export async function createAgentKey(deps: Deps & ApiKeyDeps, actor: Actor, agentId: string, keyName: string) {
  authorize(actor, 'workspace.manageAgents');
  const agent = await accounts.findUserById(deps.db, actor.workspaceId, agentId);
  if (agent?.kind !== 'agent') throw notFound('Agent');
  return issueApiKey(deps, agent, keyName, auditBy(actor), () => notFound('Agent'));
}

export async function createQuickAccess(deps: Deps, actor: Actor, input: CreateQuickAccessBody) {
  authorize(actor, 'workspace.manageClients');
  const name = requireName(input.name, '/name');
  let projectId: string | null = null;
  if (input.projectKey !== undefined) {
    const project = await findProjectByKey(deps.db, scopeOf(actor), input.projectKey);
    if (!project) throw invalidField('/projectKey', 'names no project of this workspace');
    projectId = project.id;
  }
  const email = input.email === undefined ? null : normaliseEmail(input.email);
  const create = () =>
    inTransaction(deps.db, async (trx) => {
      const { token, hash } = issueToken('access');
      const user = await accounts.createUser(trx, deps.clock, {
        workspace_id: actor.workspaceId,
        email,
        name,
        role: 'client',
        access_token_hash: hash,
        project_id: projectId,
      });
      const where = input.projectKey === undefined ? 'every project' : `project ${input.projectKey}`;
      await recordAudit(trx, auditBy(actor), 'client_link_created', userTarget(user), where);
      return { user, accessToken: token, accessUrl: await accessUrl(trx, actor.workspaceId, projectId, token) };
    });
  // The project deleted meanwhile: named as no project, as it would be a moment later.
  const created = () =>
    unlessGone(deps.database, create, () => invalidField('/projectKey', 'names no project of this workspace'));
  return email === null ? created() : withUniqueEmail(deps, email, created);
}
