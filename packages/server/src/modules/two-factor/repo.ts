import type { TwoFactorRequired } from '@svc/contract';
import type { SignInChallengeTable } from '../../db/account-tables.js';
import type { Db } from '../../db/schema.js';
import { newId } from '../../ids.js';

/** Whose second factor: a user of a workspace. */
export const ofUser = (workspaceId: string, userId: string) => ({ workspaceId, userId });
export type Owner = ReturnType<typeof ofUser>;

/** A user's second factor as stored: the seeds sealed. */
export const readSecondFactor = (db: Db, { workspaceId, userId }: Owner) =>
  db
    .selectFrom('users')
    .select(['totp_secret', 'totp_pending_secret', 'totp_enabled_at', 'totp_last_step'])
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', userId)
    .where('removed_at', 'is', null)
    .executeTakeFirst();

const updateUser = (db: Db, { workspaceId, userId }: Owner) =>
  db.updateTable('users').where('workspace_id', '=', workspaceId).where('id', '=', userId);

export async function setPendingSeed(db: Db, owner: Owner, sealed: string | null) {
  await updateUser(db, owner).set({ totp_pending_secret: sealed }).execute();
}

/**
 * Turns the second factor on, unless the account has one already (false: another enrolment
 * won). Sign-ins waiting to enrol one die with it: a challenge handed out before cannot enrol
 * a second factor later, over the owner's.
 */
export async function enable(db: Db, owner: Owner, sealed: string, step: number, at: string): Promise<boolean> {
  const result = await updateUser(db, owner)
    .set({ totp_secret: sealed, totp_pending_secret: null, totp_enabled_at: at, totp_last_step: step })
    .where('totp_enabled_at', 'is', null)
    .executeTakeFirst();
  await db
    .deleteFrom('sign_in_challenges')
    .where('workspace_id', '=', owner.workspaceId)
    .where('user_id', '=', owner.userId)
    .where('purpose', '=', 'enrol')
    .execute();
  return Number(result.numUpdatedRows) === 1;
}

/** Spends the step a code was accepted for; false when another request spent it (or a later one) first. */
export async function spendStep(db: Db, owner: Owner, step: number): Promise<boolean> {
  const result = await updateUser(db, owner)
    .set({ totp_last_step: step })
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Removes the second factor, its recovery codes and the sign-ins waiting for it. */
export async function disable(db: Db, owner: Owner) {
  await updateUser(db, owner)
    .set({ totp_secret: null, totp_pending_secret: null, totp_enabled_at: null, totp_last_step: null })
    .execute();
  await deleteOwned(db, 'recovery_codes', owner);
  await deleteOwned(db, 'sign_in_challenges', owner);
}

/** Deletes the user's rows of a table keyed by workspace and user. */
const deleteOwned = (db: Db, table: 'recovery_codes' | 'sign_in_challenges', owner: Owner) =>
  db.deleteFrom(table).where('workspace_id', '=', owner.workspaceId).where('user_id', '=', owner.userId).execute();

export async function replaceRecoveryCodes(db: Db, owner: Owner, hashes: readonly string[]) {
  await deleteOwned(db, 'recovery_codes', owner);
  await db
    .insertInto('recovery_codes')
    .values(
      hashes.map((code_hash) => ({
        id: newId('rec'),
        workspace_id: owner.workspaceId,
        user_id: owner.userId,
        code_hash,
        used_at: null,
      })),
    )
    .execute();
}

/** Spends a recovery code; false when it is not one of the user's, or was used. */
export async function spendRecoveryCode(db: Db, owner: Owner, hashes: string[], at: string): Promise<boolean> {
  const result = await db
    .updateTable('recovery_codes')
    .set({ used_at: at })
    .where('workspace_id', '=', owner.workspaceId)
    .where('user_id', '=', owner.userId)
    .where('code_hash', 'in', hashes)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

export async function recoveryCodesLeft(db: Db, owner: Owner): Promise<number> {
  const row = await db
    .selectFrom('recovery_codes')
    .select((eb) => eb.fn.countAll<string | number>().as('n'))
    .where('workspace_id', '=', owner.workspaceId)
    .where('user_id', '=', owner.userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function insertChallenge(db: Db, row: Omit<SignInChallengeTable, 'id' | 'attempts'>) {
  await db
    .insertInto('sign_in_challenges')
    .values({ id: newId('chl'), ...row })
    .execute();
}

export const findChallenge = (db: Db, tokenHash: string) =>
  db.selectFrom('sign_in_challenges').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();

export async function countWrongAnswer(db: Db, id: string) {
  await db
    .updateTable('sign_in_challenges')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .execute();
}

export async function setChallengeSeed(db: Db, id: string, sealed: string) {
  await db.updateTable('sign_in_challenges').set({ pending_secret: sealed }).where('id', '=', id).execute();
}

export async function deleteChallenge(db: Db, id: string) {
  await db.deleteFrom('sign_in_challenges').where('id', '=', id).execute();
}

/** Challenges older than `before`: nobody can answer them any more. */
export async function pruneChallenges(db: Db, before: string) {
  await db.deleteFrom('sign_in_challenges').where('created_at', '<', before).execute();
}

export async function twoFactorRequired(db: Db, workspaceId: string): Promise<TwoFactorRequired> {
  const row = await db
    .selectFrom('workspaces')
    .select('two_factor_required')
    .where('id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return row.two_factor_required;
}

export async function setTwoFactorRequired(db: Db, workspaceId: string, required: TwoFactorRequired) {
  await db.updateTable('workspaces').set({ two_factor_required: required }).where('id', '=', workspaceId).execute();
}
