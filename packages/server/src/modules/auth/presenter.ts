import type { LoginResult, SecondFactorAsked, Session, User, Workspace } from '@svc/contract';
import { isLocale } from '@svc/contract/i18n';
import type { Selectable } from 'kysely';
import type { WorkspaceTable } from '../../db/account-tables.js';
import type { UserRow } from './repo.js';

export const presentUser = (row: UserRow): User => ({
  id: row.id,
  name: row.name,
  email: row.email,
  role: row.role,
  projectKey: row.project_key,
  locale: isLocale(row.locale) ? row.locale : null,
  createdAt: row.created_at,
});

export const presentWorkspace = (row: Selectable<WorkspaceTable>): Workspace => ({
  id: row.id,
  name: row.name,
  createdAt: row.created_at,
  twoFactorRequired: row.two_factor_required,
  defaultLocale: isLocale(row.default_locale) ? row.default_locale : null,
});

export const presentSession = (row: {
  id: string;
  created_at: string;
  last_seen_at: string;
  user_agent: string | null;
  expires_at: string;
  current: boolean;
}): Session => ({
  id: row.id,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at,
  expiresAt: row.expires_at,
  userAgent: row.user_agent,
  current: row.current,
});

/** A way in's answer: the session, or the question of a second factor that comes first. */
export const presentSignIn = (
  signedIn: { token: string; user: UserRow } | { asked: SecondFactorAsked },
): LoginResult => ('asked' in signedIn ? signedIn.asked : { token: signedIn.token, user: presentUser(signedIn.user) });
