// Invitations and password resets: one-time links an admin creates and passes on (no e-mail is
// sent). Only the token's hash is stored; a link works once, until it expires.

import type { AcceptInviteBody, CompletePasswordResetBody, CreateInviteBody } from '@svc/contract';
import type { Actor } from '../../actor.js';
import type { AppContext } from '../../context.js';
import type { OneTimeLinkTable } from '../../db/account-tables.js';
import { inTransaction } from '../../db/transaction.js';
import { AppError, notFound, unauthenticated } from '../../errors.js';
import type { Client } from '../../http/client.js';
import { pageRequest } from '../../http/pagination.js';
import { requireName } from '../../http/validation.js';
import { newId, nowIso } from '../../ids.js';
import { countEvent, refuseWhenExhausted } from '../../limits/rate-limit.js';
import { authorize } from '../../policy.js';
import { auditBy, recordAudit } from '../audit/audit.js';
import { hashPassword, requireUncommonPassword } from '../auth/passwords.js';
import * as accounts from '../auth/repo.js';
import { accountBy, forgetCredentials, normaliseEmail, userTarget, withUniqueEmail } from '../auth/service.js';
import { hashToken, issueToken, type TokenKind, tokenKind } from '../auth/tokens.js';
import { finishSignIn, type SignInDeps } from '../sign-in/service.js';
import * as repo from './repo.js';

export type LinkDeps = SignInDeps & Pick<AppContext, 'links'>;

/** Where links point: the console's pages, the token after `#` so that it never reaches a server log. */
const linkUrl = (baseUrl: string, page: 'invite' | 'reset', token: string) => `${baseUrl}/${page}#${token}`;

export async function createInvite(deps: LinkDeps, actor: Actor, input: CreateInviteBody, baseUrl: string) {
  authorize(actor, 'workspace.manageMembers');
  const email = normaliseEmail(input.email);
  if (await accounts.emailTaken(deps.db, email)) {
    throw new AppError('conflict', 'Someone already has an account with that e-mail.', [
      { path: '/email', message: 'is already in use' },
    ]);
  }
  const { token, hash } = issueToken('invite');
  const now = new Date(deps.clock.now());
  const row: OneTimeLinkTable = {
    id: newId('inv'),
    workspace_id: actor.workspaceId,
    purpose: 'invite',
    token_hash: hash,
    email,
    role: input.role,
    user_id: null,
    created_by_id: actor.id,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + deps.links.inviteTtlMs).toISOString(),
  };
  await inTransaction(deps.db, async (trx) => {
    // Inviting the same person again replaces the earlier link: one invitation of the workspace
    // at a time (its row's lock), so that two at once leave one link, not two.
    await deps.database.lockRows(trx, { table: 'workspaces', workspaceId: actor.workspaceId }, 'update');
    await repo.deleteEarlierLinks(trx, actor.workspaceId, 'invite', { email });
    await repo.insertLink(trx, row);
    await recordAudit(
      trx,
      auditBy(actor),
      'invitation_created',
      { kind: 'invitation', id: row.id, label: email },
      `as ${input.role}`,
    );
  });
  return {
    id: row.id,
    email,
    role: input.role,
    inviteUrl: linkUrl(baseUrl, 'invite', token),
    expiresAt: row.expires_at,
  };
}

export async function listInvites(deps: LinkDeps, actor: Actor, query: { limit?: number; cursor?: string }) {
  authorize(actor, 'workspace.manageMembers');
  const { limit, after, fetch } = pageRequest(query);
  return {
    rows: await repo.listInvites(deps.db, actor.workspaceId, nowIso(deps.clock), { after, limit: fetch }),
    limit,
  };
}

export async function cancelInvite(deps: LinkDeps, actor: Actor, id: string): Promise<void> {
  authorize(actor, 'workspace.manageMembers');
  await inTransaction(deps.db, async (trx) => {
    const email = await repo.deleteInvite(trx, actor.workspaceId, id);
    if (email === undefined) throw notFound('Invitation');
    await recordAudit(trx, auditBy(actor), 'invitation_withdrawn', { kind: 'invitation', id, label: email });
  });
}

/**
 * The live link a token names, or 401: wrong kind, unknown, used or expired are one answer,
 * and failures are counted per address like those of access links.
 */
async function requireLink(deps: LinkDeps, kind: TokenKind, token: string, client: Client) {
  const { db, rules } = deps;
  await refuseWhenExhausted(db, rules.accessLinkFailuresPerAddress, client.address, deps.clock.now());
  const purpose = kind === 'invite' ? 'invite' : 'password_reset';
  const link =
    tokenKind(token) === kind ? await repo.findLiveLink(db, purpose, hashToken(token), nowIso(deps.clock)) : undefined;
  if (!link) {
    await countEvent(db, rules.accessLinkFailuresPerAddress, client.address, deps.clock.now());
    throw unauthenticated(
      'This link is not valid: it was used already, has expired or was withdrawn. Ask an admin for a new one.',
    );
  }
  return link;
}

/**
 * Creates the invited account with the name and password its owner chose, and signs them in,
 * or asks them to enrol a second factor first when their workspace requires one.
 */
export async function acceptInvite(deps: LinkDeps, input: AcceptInviteBody, client: Client) {
  const name = requireName(input.name, '/name');
  requireUncommonPassword(input.password, '/password');
  const link = await requireLink(deps, 'invite', input.token, client);
  const passwordHash = await hashPassword(input.password);
  const email = link.email ?? '';
  return withUniqueEmail(deps, email, () =>
    inTransaction(deps.db, async (trx) => {
      if (!(await repo.consumeLink(trx, link.id))) throw unauthenticated('This invitation was used already.');
      const user = await accounts.createUser(trx, deps.clock, {
        workspace_id: link.workspace_id,
        email,
        name,
        role: link.role ?? 'member',
        password_hash: passwordHash,
      });
      const by = accountBy(user, client);
      await recordAudit(
        trx,
        by,
        'invitation_accepted',
        { kind: 'invitation', id: link.id, label: email },
        `as ${user.role}`,
      );
      return finishSignIn(deps, trx, user, client, 'invitation');
    }),
  );
}

/** A one-time link that lets a team member set a new password (admin); earlier ones stop working. */
export async function createPasswordReset(deps: LinkDeps, actor: Actor, userId: string, baseUrl: string) {
  authorize(actor, 'workspace.manageMembers');
  const { token, hash } = issueToken('passwordReset');
  const now = new Date(deps.clock.now());
  const expiresAt = new Date(now.getTime() + deps.links.passwordResetTtlMs).toISOString();
  await inTransaction(deps.db, async (trx) => {
    // Under the member's lock (see `Database.lockRows`): links made at once replace one another,
    // and a removal, which ends every link, comes wholly before (404) or after.
    await deps.database.lockRows(trx, { table: 'users', workspaceId: actor.workspaceId, ids: [userId] }, 'update');
    const user = await accounts.findUserById(trx, actor.workspaceId, userId);
    if (!user || user.role === 'client') throw notFound('Member');
    await repo.deleteEarlierLinks(trx, actor.workspaceId, 'password_reset', { userId: user.id });
    await repo.insertLink(trx, {
      id: newId('rst'),
      workspace_id: actor.workspaceId,
      purpose: 'password_reset',
      token_hash: hash,
      email: null,
      role: null,
      user_id: user.id,
      created_by_id: actor.id,
      created_at: now.toISOString(),
      expires_at: expiresAt,
    });
    await recordAudit(trx, auditBy(actor), 'password_reset_created', userTarget(user));
  });
  return { resetUrl: linkUrl(baseUrl, 'reset', token), expiresAt };
}

/**
 * Sets the new password; every session of the member ends (in every process) and a new one
 * starts, or the second factor is asked first (a reset proves the link, not the phone).
 */
export async function completePasswordReset(deps: LinkDeps, input: CompletePasswordResetBody, client: Client) {
  requireUncommonPassword(input.password, '/password');
  const link = await requireLink(deps, 'passwordReset', input.token, client);
  const passwordHash = await hashPassword(input.password);
  return inTransaction(deps.db, async (trx) => {
    if (!(await repo.consumeLink(trx, link.id))) throw unauthenticated('This link was used already.');
    const user = link.user_id ? await accounts.findUserById(trx, link.workspace_id, link.user_id) : undefined;
    if (!user) throw unauthenticated('This account no longer exists.');
    await accounts.updatePasswordHash(trx, user.workspace_id, user.id, passwordHash);
    const ended = await accounts.deleteUserSessions(trx, user.workspace_id, user.id, null);
    await forgetCredentials(deps, trx, ended);
    const by = accountBy(user, client);
    await recordAudit(trx, by, 'password_reset_completed', userTarget(user), 'through the link an admin made');
    return finishSignIn(deps, trx, user, client, 'password reset');
  });
}
