import type { listInvites } from './repo.js';

type InviteRow = Awaited<ReturnType<typeof listInvites>>[number];

export const presentInvite = (row: InviteRow) => ({
  id: row.id,
  email: row.email ?? '',
  role: row.role ?? 'member',
  invitedBy: row.inviter_id && row.inviter_name ? { id: row.inviter_id, name: row.inviter_name } : null,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
});
