// Signing in: every way in that proves who someone is (a password, a client's access link, a
// password reset, an invitation accepted, the workspace's provider) ends in `finishSignIn`,
// the one place that decides whether a password may be used, whether a second factor is asked
// first, and when a session begins. The ways themselves (checking a password, a link, a
// provider's answer) belong to the accounts, invitations and single sign-on; the second
// factor's answer ends in two-factor/service.ts, which only a challenge handed out here opens.

import type { LoginBody, SecondFactorAsked } from '@svc/contract';
import type { Client } from '../../http/client.js';
import type { UserRow } from '../auth/repo.js';
import { checkPassword, type SignInWay, startSession, userOfAccessLink } from '../auth/service.js';
import { exchange, refusePasswordWhenRequired } from '../sso/service.js';
import { askSecondFactor, type TwoFactorDeps } from '../two-factor/service.js';

export type SignInDeps = TwoFactorDeps;

/** Signed in, or a second factor to answer first. */
export type SignInResult = { token: string; user: UserRow } | { asked: SecondFactorAsked };

/** The ways in that end here, and what each is asked before a session. */
type FinishedWay = Exclude<SignInWay, 'sign-up' | 'password and code' | 'password and recovery code'>;
const ASKED: Record<FinishedWay, { password: boolean; secondFactor: boolean }> = {
  password: { password: true, secondFactor: true },
  // A reset proves the link an admin passed on, not the phone; the new password is a password sign-in.
  'password reset': { password: true, secondFactor: true },
  // The account is new, but its workspace may require a second factor: it enrols before its first session.
  invitation: { password: false, secondFactor: true },
  // The workspace's provider asks its own second factor, if any.
  'single sign-on': { password: false, secondFactor: false },
  // Client accounts, which have no second factor.
  'access link': { password: false, secondFactor: false },
};

/**
 * The end of every way in: refused when the workspace signs its members in through its
 * provider and `way` is a password; the question of a second factor when one applies (the
 * account has one, or its workspace requires one); else a session. `db` may be the transaction
 * that made or changed the account.
 */
export async function finishSignIn(
  deps: SignInDeps,
  db: SignInDeps['db'],
  user: UserRow,
  client: Client,
  way: FinishedWay,
): Promise<SignInResult> {
  if (ASKED[way].password) await refusePasswordWhenRequired(db, user);
  const asked = ASKED[way].secondFactor ? await askSecondFactor({ ...deps, db }, user) : null;
  if (asked) return { asked };
  return { token: await startSession(db, deps, user, client, way), user };
}

export async function signInWithPassword(deps: SignInDeps, input: LoginBody, client: Client) {
  return finishSignIn(deps, deps.db, await checkPassword(deps, input, client), client, 'password');
}

export async function signInWithAccessLink(deps: SignInDeps, accessToken: string, client: Client) {
  const user = await userOfAccessLink(deps, accessToken, client);
  return sessionOf(await finishSignIn(deps, deps.db, user, client, 'access link'));
}

/** The one-time code of a sign-in through the workspace's provider (see sso/service.ts), traded for a session. */
export async function signInWithProvider(deps: SignInDeps, body: { code: string; binding: string }, client: Client) {
  const user = await exchange(deps, body, client);
  return sessionOf(await finishSignIn(deps, deps.db, user, client, 'single sign-on'));
}

/** The session of a way in that asks no second factor (see `ASKED`). */
function sessionOf(result: SignInResult): { token: string; user: UserRow } {
  if ('asked' in result) throw new Error('A way in without a second factor asked for one');
  return result;
}
