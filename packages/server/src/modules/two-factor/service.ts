import type {
  Role,
  SecondFactorAsked,
  SecondFactorBody,
  TwoFactorRequired,
  TwoFactorStatus,
  UpdateWorkspaceSecurityBody,
} from '@svc/contract';
import type { Actor } from '../../actor.js';
import type { AppContext } from '../../context.js';
import { inTransaction } from '../../db/transaction.js';
import { conflict, forbidden, invalidField, invalidState, notFound, unauthenticated } from '../../errors.js';
import type { Client } from '../../http/client.js';
import { countEvent, refuseWhenExhausted } from '../../limits/rate-limit.js';
import { authorize } from '../../policy.js';
import { serverKey } from '../../secrets.js';
import { type AuditBy, auditBy, recordAudit } from '../audit/audit.js';
import * as accounts from '../auth/repo.js';
import { type AuthDeps, accountBy, requireCurrentPassword, startSession, userTarget } from '../auth/service.js';
import { hashToken, issueToken, tokenKind } from '../auth/tokens.js';
import * as repo from './repo.js';
import {
  acceptedStep,
  enrolmentOf,
  hashRecoveryCode,
  legacyRecoveryCodeHash,
  looksLikeRecoveryCode,
  newRecoveryCodes,
  newSeed,
} from './totp.js';

export type TwoFactorDeps = AuthDeps & Pick<AppContext, 'secrets'>;

/** How long a sign-in waits for its second factor, and how many wrong answers it takes. */
const CHALLENGE_TTL_MS = 10 * 60_000;
const CHALLENGE_ATTEMPTS = 5;

const iso = (ms: number) => new Date(ms).toISOString();

/** Whether the workspace's rule asks `role` for a second factor (client accounts sign in by link: never). */
export const requiredFor = (required: TwoFactorRequired, role: Role) =>
  role !== 'client' && (required === 'everyone' || (required === 'admins' && role === 'admin'));

/** The account's name in an authenticator app. */
const accountLabel = (user: { email: string | null; name: string }) => user.email ?? user.name;

/**
 * After a right password: the question of a second factor (a code when the account has one;
 * enrolling one when the workspace requires it), or null when a session may begin now.
 */
export async function askSecondFactor(
  deps: TwoFactorDeps,
  user: { id: string; workspace_id: string; role: Role },
): Promise<SecondFactorAsked | null> {
  const owner = repo.ofUser(user.workspace_id, user.id);
  const stored = await repo.readSecondFactor(deps.db, owner);
  const required = requiredFor(await repo.twoFactorRequired(deps.db, user.workspace_id), user.role);
  const purpose = stored?.totp_enabled_at ? 'code' : required ? 'enrol' : null;
  if (!purpose) return null;
  const now = deps.clock.now();
  const { token, hash } = issueToken('challenge');
  await repo.pruneChallenges(deps.db, iso(now - CHALLENGE_TTL_MS));
  await repo.insertChallenge(deps.db, {
    workspace_id: user.workspace_id,
    user_id: user.id,
    token_hash: hash,
    purpose,
    pending_secret: null,
    created_at: iso(now),
  });
  return { secondFactor: purpose, challenge: token, expiresAt: iso(now + CHALLENGE_TTL_MS) };
}

const EXPIRED = 'This sign-in has expired or had too many wrong codes: sign in again with your password.';

/** The challenge `token` names and its account, while it may still be answered. */
async function openChallenge(deps: TwoFactorDeps, token: string) {
  const row = tokenKind(token) === 'challenge' ? await repo.findChallenge(deps.db, hashToken(token)) : undefined;
  if (!row || Date.parse(row.created_at) + CHALLENGE_TTL_MS < deps.clock.now() || row.attempts >= CHALLENGE_ATTEMPTS) {
    throw unauthenticated(EXPIRED);
  }
  const user = await accounts.findUserById(deps.db, row.workspace_id, row.user_id);
  if (!user) throw unauthenticated(EXPIRED);
  return { row, user };
}

/** A challenge to enrol dies once the account has a second factor (enrolled since it was handed out). */
async function refuseEnrolledSince(deps: TwoFactorDeps, row: { id: string; workspace_id: string; user_id: string }) {
  const stored = await repo.readSecondFactor(deps.db, repo.ofUser(row.workspace_id, row.user_id));
  if (!stored?.totp_enabled_at) return;
  await repo.deleteChallenge(deps.db, row.id);
  throw unauthenticated(EXPIRED);
}

/** Enrolling at sign-in, when the workspace requires a second factor: a new seed for the app. */
export async function enrolAtSignIn(deps: TwoFactorDeps, token: string) {
  const { row, user } = await openChallenge(deps, token);
  await refuseEnrolledSince(deps, row);
  if (row.purpose !== 'enrol') throw invalidState('This account has a second factor already: answer with its code.');
  const seed = newSeed();
  await repo.setChallengeSeed(deps.db, row.id, deps.secrets.seal(seed));
  return enrolmentOf(seed, accountLabel(user));
}

/**
 * The second factor of a sign-in: a code of the app (each good once), a recovery code (each
 * good once), or the first code of an app being enrolled. Wrong answers count as failed
 * sign-ins of the account and of the address, and five end the challenge.
 */
export async function answerSecondFactor(deps: TwoFactorDeps, body: SecondFactorBody, client: Client) {
  const { db, rules } = deps;
  await refuseWhenExhausted(db, rules.signInFailuresPerAddress, client.address, deps.clock.now());
  const { row, user } = await openChallenge(deps, body.challenge);
  const account = user.email ?? user.id;
  await refuseWhenExhausted(db, rules.signInFailuresPerAccount, account, deps.clock.now());
  const owner = repo.ofUser(user.workspace_id, user.id);
  const now = deps.clock.now();
  const code = body.code.trim();

  let answer: { token: string; recoveryCodes?: string[] } | null;
  if (row.purpose === 'enrol') {
    await refuseEnrolledSince(deps, row);
    if (!row.pending_secret) throw invalidState('Start enrolling first: POST /api/auth/two-factor/enrolment.');
    const step = acceptedStep(deps.secrets.open(row.pending_secret), code, null, now);
    const pending = row.pending_secret;
    const key = await recoveryKey(deps);
    answer =
      step === null
        ? null
        : await inTransaction(db, async (trx) => {
            const recoveryCodes = await enableWith(trx, key, owner, pending, step, iso(now));
            await repo.deleteChallenge(trx, row.id);
            await recordAudit(trx, accountBy(user, client), 'two_factor_enabled', userTarget(user), 'at sign-in');
            return { token: await startSession(trx, deps, user, client, 'password and code'), recoveryCodes };
          });
  } else {
    const stored = await repo.readSecondFactor(db, owner);
    if (!stored?.totp_secret) throw unauthenticated(EXPIRED);
    const byRecovery = looksLikeRecoveryCode(code);
    const step = byRecovery
      ? null
      : acceptedStep(deps.secrets.open(stored.totp_secret), code, stored.totp_last_step, now);
    const hashes = byRecovery ? [hashRecoveryCode(await recoveryKey(deps), code), legacyRecoveryCodeHash(code)] : [];
    answer = await inTransaction(db, async (trx) => {
      const spent = byRecovery
        ? await repo.spendRecoveryCode(trx, owner, hashes, iso(now))
        : step !== null && (await repo.spendStep(trx, owner, step));
      if (!spent) return null;
      await repo.deleteChallenge(trx, row.id);
      return {
        token: await startSession(
          trx,
          deps,
          user,
          client,
          byRecovery ? 'password and recovery code' : 'password and code',
        ),
      };
    });
  }
  if (!answer) {
    await repo.countWrongAnswer(db, row.id);
    await countEvent(db, rules.signInFailuresPerAddress, client.address, deps.clock.now());
    await countEvent(db, rules.signInFailuresPerAccount, account, deps.clock.now());
    await recordAudit(db, accountBy(user, client), 'sign_in_failed', null, 'wrong second-factor code');
    throw invalidField(
      '/code',
      'is not right: type the code your app shows now (each works once), or an unused recovery code',
    );
  }
  return { ...answer, user };
}

/** The server's key that recovery codes are hashed with (see hashRecoveryCode). */
const recoveryKey = (deps: Pick<TwoFactorDeps, 'db' | 'secrets'>) => serverKey(deps.db, deps.secrets, 'recovery-codes');

/** Turns the second factor on with a confirmed seed; the new recovery codes. */
async function enableWith(
  db: TwoFactorDeps['db'],
  key: Buffer,
  owner: repo.Owner,
  sealed: string,
  step: number,
  at: string,
) {
  if (!(await repo.enable(db, owner, sealed, step, at))) {
    throw conflict('Two-factor sign-in is on already: turn it off first to move it to another app.');
  }
  const recoveryCodes = newRecoveryCodes();
  await repo.replaceRecoveryCodes(
    db,
    owner,
    recoveryCodes.map((code) => hashRecoveryCode(key, code)),
  );
  return recoveryCodes;
}

const ownerOf = (actor: Actor) => repo.ofUser(actor.workspaceId, actor.id);

async function requiredOf(deps: TwoFactorDeps, actor: Actor) {
  return requiredFor(await repo.twoFactorRequired(deps.db, actor.workspaceId), actor.role);
}

export async function status(deps: TwoFactorDeps, actor: Actor): Promise<TwoFactorStatus> {
  const stored = await repo.readSecondFactor(deps.db, ownerOf(actor));
  return {
    enabled: Boolean(stored?.totp_enabled_at),
    enabledAt: stored?.totp_enabled_at ?? null,
    recoveryCodesLeft: stored?.totp_enabled_at ? await repo.recoveryCodesLeft(deps.db, ownerOf(actor)) : 0,
    required: await requiredOf(deps, actor),
  };
}

/** Enrolling while signed in (the password asked again): a new seed, confirmed by its first code. */
export async function startEnrolment(deps: TwoFactorDeps, actor: Actor, password: string, client: Client) {
  const user = await requireCurrentPassword(deps, actor, password, client, {
    path: '/password',
    doing: 'setting up two-factor sign-in',
  });
  const stored = await repo.readSecondFactor(deps.db, ownerOf(actor));
  if (stored?.totp_enabled_at) {
    throw conflict('Two-factor sign-in is on already: turn it off first to move it to another app.');
  }
  const seed = newSeed();
  await repo.setPendingSeed(deps.db, ownerOf(actor), deps.secrets.seal(seed));
  return enrolmentOf(seed, accountLabel(user));
}

export async function confirmEnrolment(deps: TwoFactorDeps, actor: Actor, code: string) {
  const stored = await repo.readSecondFactor(deps.db, ownerOf(actor));
  const pending = stored?.totp_pending_secret;
  if (!pending) throw invalidState('Start with POST /api/me/two-factor/enrolment: there is no app being set up.');
  const now = deps.clock.now();
  const step = acceptedStep(deps.secrets.open(pending), code.trim(), null, now);
  if (step === null) {
    throw invalidField('/code', 'is not the code your app shows now (is the phone’s time set automatically?)');
  }
  const key = await recoveryKey(deps);
  return inTransaction(deps.db, async (trx) => {
    const recoveryCodes = await enableWith(trx, key, ownerOf(actor), pending, step, iso(now));
    await recordAudit(trx, auditBy(actor), 'two_factor_enabled', null, 'from the account page');
    return { recoveryCodes };
  });
}

export async function renewRecoveryCodes(deps: TwoFactorDeps, actor: Actor, password: string, client: Client) {
  await requireCurrentPassword(deps, actor, password, client, { path: '/password', doing: 'renewing recovery codes' });
  const stored = await repo.readSecondFactor(deps.db, ownerOf(actor));
  if (!stored?.totp_enabled_at) throw invalidState('Two-factor sign-in is off: there are no recovery codes to renew.');
  const recoveryCodes = newRecoveryCodes();
  const key = await recoveryKey(deps);
  await inTransaction(deps.db, async (trx) => {
    await repo.replaceRecoveryCodes(
      trx,
      ownerOf(actor),
      recoveryCodes.map((code) => hashRecoveryCode(key, code)),
    );
    await recordAudit(trx, auditBy(actor), 'recovery_codes_renewed');
  });
  return { recoveryCodes };
}

export async function disableOwn(deps: TwoFactorDeps, actor: Actor, password: string, client: Client) {
  await requireCurrentPassword(deps, actor, password, client, {
    path: '/password',
    doing: 'turning two-factor sign-in off',
  });
  if (await requiredOf(deps, actor)) {
    throw forbidden('Your workspace requires two-factor sign-in of you: an admin can change that rule.');
  }
  await inTransaction(deps.db, async (trx) => {
    await repo.disable(trx, ownerOf(actor));
    await recordAudit(trx, auditBy(actor), 'two_factor_disabled');
  });
}

/** An admin removes a member's second factor (a lost phone): they enrol again if the workspace requires it. */
export async function resetMember(deps: TwoFactorDeps, actor: Actor, memberId: string) {
  authorize(actor, 'workspace.manageMembers');
  const user = await accounts.findUserById(deps.db, actor.workspaceId, memberId);
  if (!user || user.role === 'client') throw notFound('Member');
  await resetOf(deps, user, auditBy(actor), 'by an admin');
}

/** Removes `user`'s second factor, audited as `by` with `detail`. */
export async function resetOf(deps: Pick<TwoFactorDeps, 'db'>, user: accounts.UserRow, by: AuditBy, detail: string) {
  await inTransaction(deps.db, async (trx) => {
    await repo.disable(trx, repo.ofUser(user.workspace_id, user.id));
    await recordAudit(trx, by, 'two_factor_reset', userTarget(user), detail);
  });
}

export async function security(deps: TwoFactorDeps, actor: Actor) {
  authorize(actor, 'workspace.manageSecurity');
  return { twoFactorRequired: await repo.twoFactorRequired(deps.db, actor.workspaceId) };
}

export async function updateSecurity(deps: TwoFactorDeps, actor: Actor, body: UpdateWorkspaceSecurityBody) {
  authorize(actor, 'workspace.manageSecurity');
  await inTransaction(deps.db, async (trx) => {
    await repo.setTwoFactorRequired(trx, actor.workspaceId, body.twoFactorRequired);
    await recordAudit(
      trx,
      auditBy(actor),
      'security_changed',
      null,
      `two-factor sign-in required of: ${body.twoFactorRequired}`,
    );
  });
  return { twoFactorRequired: body.twoFactorRequired };
}

/** Re-seals every stored seed, and the server's own keys, under the current key (after a key rotation); how many. */
export async function resealSecrets(deps: Pick<TwoFactorDeps, 'db' | 'secrets'>): Promise<number> {
  let count = 0;
  const users = await deps.db
    .selectFrom('users')
    .select(['id', 'totp_secret', 'totp_pending_secret'])
    .where((eb) => eb.or([eb('totp_secret', 'is not', null), eb('totp_pending_secret', 'is not', null)]))
    .execute();
  for (const user of users) {
    const fresh = (sealed: string | null) =>
      sealed && deps.secrets.isStale(sealed) ? deps.secrets.seal(deps.secrets.open(sealed)) : sealed;
    const secret = fresh(user.totp_secret);
    const pending = fresh(user.totp_pending_secret);
    if (secret === user.totp_secret && pending === user.totp_pending_secret) continue;
    await deps.db
      .updateTable('users')
      .set({ totp_secret: secret, totp_pending_secret: pending })
      .where('id', '=', user.id)
      .execute();
    count += 1;
  }
  // The server's own keys (the one recovery codes are hashed with): the same key, sealed anew.
  for (const key of await deps.db.selectFrom('server_keys').select(['name', 'sealed']).execute()) {
    if (!deps.secrets.isStale(key.sealed)) continue;
    await deps.db
      .updateTable('server_keys')
      .set({ sealed: deps.secrets.seal(deps.secrets.open(key.sealed)) })
      .where('name', '=', key.name)
      .execute();
    count += 1;
  }
  return count;
}
