import type { Role, WorkspaceAbilities } from '@svc/contract';
import type { Actor } from './actor.js';
import { forbidden } from './errors.js';

/** Who may do what, by role (and below, on one comment, by who wrote it): the one place the product's permissions are written down. */
const allowedRoles = {
  'workspace.useConsole': ['admin', 'member'],
  'workspace.addMember': ['admin'],
  'workspace.listMembers': ['admin', 'member'],
  'workspace.manageMembers': ['admin'],
  'workspace.manageClients': ['admin', 'member'],
  'workspace.manageAgents': ['admin'],
  'workspace.readLabels': ['admin', 'member'],
  'workspace.manageLabels': ['admin'],
  'workspace.readAudit': ['admin'],
  'workspace.readInsights': ['admin', 'member'],
  'workspace.export': ['admin'],
  'workspace.manageSecurity': ['admin'],
  'workspace.manageSettings': ['admin'],
  'workspace.readStorage': ['admin'],
  'apiKeys.manage': ['admin', 'member'],
  'apiKeys.manageAll': ['admin'],
  'account.changePassword': ['admin', 'member'],
  'projects.manage': ['admin'],
  'projects.follow': ['admin', 'member'],
  'comments.create': ['admin', 'member', 'client'],
  'comments.reply': ['admin', 'member', 'client'],
  'comments.apply': ['admin', 'member'],
  'comments.reopen': ['admin', 'member'],
  'comments.archive': ['admin', 'member'],
  'comments.assign': ['admin', 'member'],
  'comments.claim': ['admin', 'member'],
  'comments.triage': ['admin', 'member'],
  'builds.report': ['admin', 'member'],
} as const satisfies Record<string, readonly Role[]>;

export type Action = keyof typeof allowedRoles;

const refusals: Record<Action, string> = {
  'workspace.useConsole': 'Quick-access accounts comment from the site; the console is the team’s.',
  'workspace.addMember': 'Only an admin can add members.',
  'workspace.listMembers': 'Quick-access accounts cannot list the team.',
  'workspace.manageMembers': 'Only an admin can invite, change or remove members.',
  'workspace.manageClients': 'Quick-access accounts cannot manage other accounts.',
  'workspace.manageAgents': 'Only an admin can add agents or give them keys.',
  'workspace.readLabels': 'Quick-access accounts see the labels of the comments they read.',
  'workspace.manageLabels': 'Only an admin can create, change or delete labels.',
  'workspace.readAudit': 'Only an admin can read the audit log.',
  'workspace.readInsights': 'Quick-access accounts cannot read the team’s insights.',
  'workspace.export': 'Only an admin can export the workspace’s comments.',
  'workspace.manageSecurity': 'Only an admin can see or change how the workspace signs in.',
  'workspace.manageSettings': 'Only an admin can change the workspace’s settings.',
  'workspace.readStorage': 'Only an admin can see what the workspace stores.',
  'apiKeys.manage': 'Quick-access accounts cannot hold API keys.',
  'apiKeys.manageAll': "Only an admin can see or revoke other people's API keys.",
  'account.changePassword': 'Quick-access accounts sign in through their link and have no password.',
  'projects.manage': 'Only an admin can create, change or delete projects.',
  'projects.follow': 'Quick-access accounts hear of their own comments; the team follows projects.',
  'comments.create': 'Not allowed to comment.',
  'comments.reply': 'Not allowed to reply.',
  'comments.apply': 'Quick-access accounts cannot apply comments.',
  'comments.reopen': 'Quick-access accounts cannot reopen comments.',
  'comments.archive': 'Quick-access accounts cannot archive comments.',
  'comments.assign': 'Quick-access accounts see who is on a comment; the team assigns it.',
  'comments.claim': 'Quick-access accounts cannot take comments on.',
  'comments.triage': 'Quick-access accounts see the priority and labels; the team sets them.',
  'builds.report': 'Quick-access accounts cannot report builds.',
};

export function can(actor: Actor, action: Action): boolean {
  return (allowedRoles[action] as readonly Role[]).includes(actor.role);
}

/** The workspace's abilities a client is served (`GET /api/me`): each the rule of one action above. */
const servedAbilities: Record<keyof WorkspaceAbilities, Action> = {
  useConsole: 'workspace.useConsole',
  listMembers: 'workspace.listMembers',
  manageMembers: 'workspace.manageMembers',
  manageClients: 'workspace.manageClients',
  manageAgents: 'workspace.manageAgents',
  readLabels: 'workspace.readLabels',
  manageLabels: 'workspace.manageLabels',
  readAudit: 'workspace.readAudit',
  readInsights: 'workspace.readInsights',
  export: 'workspace.export',
  manageSecurity: 'workspace.manageSecurity',
  manageSettings: 'workspace.manageSettings',
  readStorage: 'workspace.readStorage',
  holdApiKeys: 'apiKeys.manage',
  manageAllApiKeys: 'apiKeys.manageAll',
  changePassword: 'account.changePassword',
  manageProjects: 'projects.manage',
  followProjects: 'projects.follow',
  comment: 'comments.create',
  applyComments: 'comments.apply',
  assignComments: 'comments.assign',
  reportBuilds: 'builds.report',
};

/** What `actor` may do in the workspace, as the guards below decide it. */
export function workspaceAbilitiesOf(actor: Actor): WorkspaceAbilities {
  return Object.fromEntries(
    Object.entries(servedAbilities).map(([ability, action]) => [ability, can(actor, action)]),
  ) as WorkspaceAbilities;
}

/** Throws 403 when the actor's role does not allow the action. */
export function authorize(actor: Actor, action: Action): void {
  if (!can(actor, action)) throw forbidden(refusals[action]);
}

/** A rule of one comment: whether `actor` may act on it, beside what their role allows. */
type CommentRule = (actor: Actor, comment: { author_id: string }) => boolean;
const isAuthor: CommentRule = (actor, comment) => actor.id === comment.author_id;
const authorOrAdmin: CommentRule = (actor, comment) => isAuthor(actor, comment) || actor.role === 'admin';

/** Who may act on one comment: the rules that depend on who wrote it. */
const commentRules = {
  'comment.verify': authorOrAdmin,
  // The picture of now is taken for the verdict: by whoever may give it.
  'comment.sendNow': authorOrAdmin,
  'comment.delete': authorOrAdmin,
  'comment.repin': (actor, comment) => actor.role !== 'client' || isAuthor(actor, comment),
  'comment.attachScreenshot': isAuthor,
  // Images of the comment itself; a reply's are its author's (see comments/images.ts).
  'comment.attachImage': (actor, comment) => actor.role !== 'client' || isAuthor(actor, comment),
} as const satisfies Record<string, CommentRule>;

export type CommentAction = keyof typeof commentRules;

const commentRefusals: Record<CommentAction, string> = {
  'comment.verify': "Only the comment's author or an admin can verify its fix.",
  'comment.sendNow': "Only those who verify its fix (the comment's author or an admin) send the picture of now.",
  'comment.delete': "Only the comment's author or an admin can delete it.",
  'comment.repin': 'A quick-access account can move the pins of its own comments only.',
  'comment.attachScreenshot': 'Only the comment’s author can attach its screenshot.',
  'comment.attachImage':
    'A quick-access account attaches images to its own comments, and to its replies (send ?reply= with the reply’s id).',
};

export function canOnComment(actor: Actor, action: CommentAction, comment: { author_id: string }): boolean {
  return commentRules[action](actor, comment);
}

/** Why the comment's rule refuses the action, in words. */
export const refusalOnComment = (action: CommentAction): string => commentRefusals[action];

/** Throws 403 when the comment's rule does not let the actor do it. */
export function authorizeOnComment(actor: Actor, action: CommentAction, comment: { author_id: string }): void {
  if (!canOnComment(actor, action, comment)) throw forbidden(commentRefusals[action]);
}
