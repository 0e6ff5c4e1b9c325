import type { Role } from '@svc/contract';
import { forbidden } from '../../errors.js';
import type { Actor } from './actor.js';

/** Who may do what, by role: the one place the product's permissions are written down. */
const allowedRoles = {
  'workspace.addMember': ['admin'],
  'workspace.listMembers': ['admin', 'member'],
  'workspace.manageMembers': ['admin'],
  'workspace.manageClients': ['admin', 'member'],
  'workspace.readAudit': ['admin'],
  'workspace.readInsights': ['admin', 'member'],
  'workspace.export': ['admin'],
  'workspace.manageSecurity': ['admin'],
  'workspace.manageSettings': ['admin'],
  'apiKeys.manage': ['admin', 'member'],
  'apiKeys.manageAll': ['admin'],
  'account.changePassword': ['admin', 'member'],
  'projects.manage': ['admin'],
  'comments.create': ['admin', 'member', 'client'],
  'comments.reply': ['admin', 'member', 'client'],
  'comments.apply': ['admin', 'member'],
  'comments.reopen': ['admin', 'member'],
  'comments.archive': ['admin', 'member'],
  'builds.report': ['admin', 'member'],
} as const satisfies Record<string, readonly Role[]>;

export type Action = keyof typeof allowedRoles;

const refusals: Record<Action, string> = {
  'workspace.addMember': 'Only an admin can add members.',
  'workspace.listMembers': 'Quick-access accounts cannot list the team.',
  'workspace.manageMembers': 'Only an admin can invite, change or remove members.',
  'workspace.manageClients': 'Quick-access accounts cannot manage other accounts.',
  'workspace.readAudit': 'Only an admin can read the audit log.',
  'workspace.readInsights': 'Quick-access accounts cannot read the team’s insights.',
  'workspace.export': 'Only an admin can export the workspace’s comments.',
  'workspace.manageSecurity': 'Only an admin can see or change how the workspace signs in.',
  'workspace.manageSettings': 'Only an admin can change the workspace’s settings.',
  'apiKeys.manage': 'Quick-access accounts cannot hold API keys.',
  'apiKeys.manageAll': "Only an admin can see or revoke other people's API keys.",
  'account.changePassword': 'Quick-access accounts sign in through their link and have no password.',
  'projects.manage': 'Only an admin can create, change or delete projects.',
  'comments.create': 'Not allowed to comment.',
  'comments.reply': 'Not allowed to reply.',
  'comments.apply': 'Quick-access accounts cannot apply comments.',
  'comments.reopen': 'Quick-access accounts cannot reopen comments.',
  'comments.archive': 'Quick-access accounts cannot archive comments.',
  'builds.report': 'Quick-access accounts cannot report builds.',
};

export function can(actor: Actor, action: Action): boolean {
  return (allowedRoles[action] as readonly Role[]).includes(actor.role);
}

/** Throws 403 when the actor's role does not allow the action. */
export function authorize(actor: Actor, action: Action): void {
  if (!can(actor, action)) throw forbidden(refusals[action]);
}

/** Deleting a comment, and verifying its fix: its author, or an admin of the workspace. */
export function authorizeAuthorOrAdmin(actor: Actor, authorId: string, what: string): void {
  if (actor.id !== authorId && actor.role !== 'admin') {
    throw forbidden(`Only the comment's author or an admin can ${what}.`);
  }
}
