import type { CommentAbilities, CommentMove, CommentStage, ReplyAbilities } from '@svc/contract';
import type { Actor } from '../../actor.js';
import { type AppError, conflict, forbidden, invalidState } from '../../errors.js';
import { type Action, authorize, type CommentAction, can, canOnComment, refusalOnComment } from '../../policy.js';
import { mayFire, stageOf, TRANSITIONS, type Trigger } from './lifecycle.js';
import type { CommentRow } from './repo.js';

// What one may do with a comment (and with a reply of it), written once: who may (a role, or who wrote it: 403 when not)
// and when its state lets them (409 when not). The routes' guards call `guardComment`, and each
// comment is served `abilitiesOf` it, read from the same rules, so that a client shows what the
// server allows. The lifecycle's actions (apply, verify, reopen, archive, delete) are its
// table's rows (lifecycle.ts): who may fire each, from which states; the rest are below.

type Comment = CommentRow;

interface Rule {
  /** The role's rule, checked before the comment is read where the route does so (`authorizeRole`). */
  role?: Action;
  /** The rule of this comment: who wrote it, beside the role. */
  comment?: CommentAction;
  /** The refusal (409) when the comment's state refuses it now, or null when the state lets it. */
  refusedNow?(comment: Comment, actor: Actor): AppError | null;
  /** Allowed, but changes nothing now: answered 2xx, and not offered. */
  idle?(comment: Comment, actor: Actor): boolean;
}

/** The comment's actions that are no transition of its lifecycle. */
const RULES = {
  reply: { role: 'comments.reply' },
  repin: { comment: 'comment.repin' },
  attachScreenshot: { comment: 'comment.attachScreenshot' },
  // Images of the comment itself; a reply's are its author's (`replyAbilitiesOf`).
  attachImage: { comment: 'comment.attachImage' },
  sendNow: {
    comment: 'comment.sendNow',
    refusedNow: (comment) =>
      comment.verified_at
        ? invalidState('This fix is verified: the picture of now is for a fix that waits for its verdict.')
        : comment.status !== 'applied'
          ? invalidState(
              `The picture of now is for a fix that waits for its verdict; this comment is ${comment.status}.`,
            )
          : null,
  },
  assign: {
    role: 'comments.assign',
    refusedNow: (comment) =>
      comment.status === 'archived'
        ? invalidState('An archived comment has nobody on it: nothing is left to do.')
        : null,
  },
  claim: {
    role: 'comments.claim',
    refusedNow: (comment, actor) =>
      comment.assignee_id !== null && comment.assignee_id !== actor.id
        ? conflict(
            `${comment.assignee_name ?? 'Someone'} is already on this comment: ask them, or someone of the team to assign it to you.`,
          )
        : comment.status !== 'open'
          ? invalidState(`Only an open comment can be claimed; this one is ${comment.status}.`)
          : null,
    idle: (comment, actor) => comment.assignee_id === actor.id,
  },
  triage: { role: 'comments.triage' },
} as const satisfies Record<string, Rule>;

type RuledVerb = keyof typeof RULES;
export type CommentVerb = RuledVerb | Trigger;

const TRIGGERS: readonly Trigger[] = ['apply', 'verify', 'reopen', 'archive', 'delete'];

/** The lifecycle's rule of a trigger: its table's rows say who may, and from which states. */
function triggerRule(trigger: Trigger): Rule {
  const rows = TRANSITIONS.filter((row) => row.trigger === trigger);
  return {
    // The lifecycle's `fire` says the refusal in words; here only whether there is one.
    refusedNow: (comment) =>
      rows.some((row) => row.from.includes(comment.status)) ? null : invalidState(`Not from ${comment.status}.`),
    // Archiving an archived comment changes nothing.
    idle: (comment) => trigger === 'archive' && comment.status === 'archived',
  };
}

const ruleOf = (verb: CommentVerb): Rule =>
  (TRIGGERS as readonly string[]).includes(verb) ? triggerRule(verb as Trigger) : RULES[verb as RuledVerb];

function mayAct(actor: Actor, verb: CommentVerb, comment: Comment): boolean {
  if ((TRIGGERS as readonly string[]).includes(verb)) {
    const row = TRANSITIONS.find((candidate) => candidate.trigger === verb);
    return row !== undefined && mayFire(actor, row.who, comment);
  }
  const rule = RULES[verb as RuledVerb] as Rule;
  return (!rule.role || can(actor, rule.role)) && (!rule.comment || canOnComment(actor, rule.comment, comment));
}

/** Whether `actor` may do `verb` with the comment now, and it would change something: what a client offers. */
export function canDo(actor: Actor, verb: CommentVerb, comment: Comment): boolean {
  const rule = ruleOf(verb);
  return mayAct(actor, verb, comment) && !rule.refusedNow?.(comment, actor) && !rule.idle?.(comment, actor);
}

/** Whether `verb` would change nothing on the comment now (allowed all the same). */
export const isIdle = (actor: Actor, verb: CommentVerb, comment: Comment): boolean =>
  ruleOf(verb).idle?.(comment, actor) ?? false;

/** 403 before the comment is read, when the role alone refuses `verb` (nothing is said of the comment). */
export function authorizeRole(actor: Actor, verb: RuledVerb): void {
  const rule = RULES[verb] as Rule;
  if (rule.role) authorize(actor, rule.role);
}

/** The guard of `verb` on the comment: 403 when who the actor is refuses it, 409 when its state does. */
export function guardComment(actor: Actor, verb: RuledVerb, comment: Comment): void {
  const rule = RULES[verb] as Rule;
  if (rule.role) authorize(actor, rule.role);
  if (rule.comment && !canOnComment(actor, rule.comment, comment)) {
    throw forbidden(refusalOnComment(rule.comment));
  }
  const refused = rule.refusedNow?.(comment, actor);
  if (refused) throw refused;
}

/**
 * The moves of a board: the stage each action takes a comment to. A fix recorded from a board
 * names no commit, so it is Live as it is made, and is recorded from the open stage only (one
 * applied with its commit, on its page, waits in completed).
 */
const MOVES: readonly (CommentMove & { from?: readonly CommentStage[] })[] = [
  { to: 'live', by: 'apply', from: ['open'] },
  { to: 'open', by: 'reopen' },
  { to: 'verified', by: 'verify' },
  { to: 'archived', by: 'archive' },
];

/** What `actor` may do with the comment now: the actions a client shows (its `can`). */
export function abilitiesOf(actor: Actor, comment: Comment): CommentAbilities {
  const verbs = [...TRIGGERS, ...(Object.keys(RULES) as RuledVerb[])];
  const stage = stageOf(comment);
  const moves = MOVES.filter(
    (move) => move.to !== stage && (move.from?.includes(stage) ?? true) && canDo(actor, move.by, comment),
  ).map(({ to, by }) => ({ to, by }));
  return {
    ...(Object.fromEntries(verbs.map((verb) => [verb, canDo(actor, verb, comment)])) as Omit<
      CommentAbilities,
      'moves'
    >),
    moves,
  };
}

/** What `actor` may do with one reply: attach images to it, its author only. */
export const replyAbilitiesOf = (actor: Actor, reply: { author_id: string | null }): ReplyAbilities => ({
  attachImage: reply.author_id === actor.id,
});

/** The refusal of attaching to a reply of someone else. */
export function guardReply(actor: Actor, reply: { author_id: string | null }): void {
  if (!replyAbilitiesOf(actor, reply).attachImage) throw forbidden('Only its author attaches images to a reply.');
}
