import type { Member } from '@svc/contract';
import type { Actor } from '../../actor.js';
import type { listAccounts } from './repo.js';

type AccountRow = Awaited<ReturnType<typeof listAccounts>>[number];

/** A team member as `viewer` may see them: admins see e-mail, joining date and last sign-in. */
export const presentMember = (row: AccountRow, viewer: Actor): Member =>
  viewer.role === 'admin'
    ? {
        id: row.id,
        name: row.name,
        role: row.role,
        agent: row.kind === 'agent',
        email: row.email ?? '',
        createdAt: row.created_at,
        lastSignInAt: row.last_sign_in_at,
        twoFactor: row.totp_enabled_at !== null,
      }
    : { id: row.id, name: row.name, role: row.role, agent: row.kind === 'agent' };

export const presentClient = (row: AccountRow) => ({
  id: row.id,
  name: row.name,
  email: row.email,
  projectKey: row.project_key,
  createdAt: row.created_at,
  lastSignInAt: row.last_sign_in_at,
});
