import {
  type CommentStage,
  type CommentStatus,
  REJECTED_REPLY_PREFIX,
  VERIFIED_REPLY,
  VERIFY_NOTE_MAX,
} from '@svc/contract';
import { type Actor, scopeOf } from '../../actor.js';
import type { Db } from '../../db/schema.js';
import { invalidState, notFound } from '../../errors.js';
import { nowIso } from '../../ids.js';
import { type Action, authorize, authorizeOnComment, type CommentAction, can, canOnComment } from '../../policy.js';
import {
  type AppliedCommit,
  addReply,
  checkVerdictCommit,
  fixEvent,
  isNewFix,
  type LifecycleDeps,
  markReopened,
  recordFix,
  rejectionNote,
  type Step,
  type TimelineEntry,
  type VerifyInput,
} from './lifecycle-effects.js';
import { mention, resolveMentions } from './mentions.js';
import * as repo from './repo.js';
import { recordEvent, recordLive } from './timeline.js';

// The comment's lifecycle, written once, as the table below: from, trigger, who may, guard,
// next state, and what else happens. Every change of a comment's state goes through `fire`,
// which locks the comment's row, authorizes once, checks the row's state and guard, runs its
// effect and announces the change once; the comments, verification and builds features call
// it, and none writes the state columns itself. The README's lifecycle table is this one
// (a test holds them together), and the comments' policy (policy.ts) reads who may fire each
// trigger, and from which states, to present with every comment what it allows (`can`).
// What the rows write besides the status, where several share it, is in lifecycle-effects.ts.

type Comment = repo.CommentRow;

/** Who may fire a trigger: a rule of the policy, of the role or of the comment (who wrote it). */
export type Who = { role: Action } | { comment: CommentAction } | 'anyone';

interface Inputs {
  apply: AppliedCommit;
  verify: VerifyInput;
  reopen: undefined;
  archive: undefined;
  delete: undefined;
}

export type Trigger = keyof Inputs;

interface Transition<T extends Trigger> {
  trigger: T;
  /** The trigger as the table names it, with the case of it this row is ("apply (new commit)", "verify ok"). */
  label: string;
  from: readonly CommentStatus[];
  who: Who;
  /** The guard as the table says it; `check` enforces what the state alone does not. */
  guard: string;
  to: CommentStatus | 'gone';
  /** The state as the table names it, where the status alone does not say it all ("applied (Live)"). */
  toLabel?: string;
  also: string;
  /** Whether this row is the one for the comment and the input (among its trigger's rows). */
  covers(comment: Comment, input: Inputs[T]): boolean;
  check?(step: Step<Inputs[T]>): void;
  /** Its writes; false when nothing changed (then nobody hears of it, and its timeline has no event). */
  effect(step: Step<Inputs[T]>): Promise<boolean>;
  /**
   * The timeline event a change by this row writes (none when the comment is gone), or its
   * events in order (a fix without a commit: applied, then Live).
   */
  event?(step: Step<Inputs[T]>): TimelineEntry | readonly TimelineEntry[];
}

/** The transitions, in the order the README's table lists them. */
export const TRANSITIONS: readonly Transition<Trigger>[] = [
  {
    trigger: 'apply',
    label: 'apply (new commit)',
    from: ['open', 'applied'],
    who: { role: 'comments.apply' },
    guard: 'not archived',
    to: 'applied',
    also: 'commit and link stored; verifiedAt, deployedAt, deployed build cleared; `CommentApplied` → author',
    covers: (comment, input) => (input as AppliedCommit).sha !== null && isNewFix(comment, input as AppliedCommit),
    effect: recordFix,
    event: fixEvent,
  } as Transition<'apply'>,
  {
    // A change made on the site itself (copy in a content system): no build can be known to
    // hold it, and none needs to. The one who applies it says it is there.
    trigger: 'apply',
    label: 'apply (without a commit)',
    from: ['open', 'applied'],
    who: { role: 'comments.apply' },
    guard: 'not archived',
    to: 'applied',
    toLabel: 'applied (Live)',
    also: 'link stored, no commit; Live at once (deployedAt now, no build; a `live` event); verifiedAt cleared; `CommentApplied` → author',
    covers: (comment, input) => (input as AppliedCommit).sha === null && isNewFix(comment, input as AppliedCommit),
    effect: recordFix,
    event: (step: Step<AppliedCommit>) => [fixEvent(step), { kind: 'live' }],
  } as Transition<'apply'>,
  {
    trigger: 'apply',
    label: 'apply (same commit)',
    from: ['applied'],
    who: { role: 'comments.apply' },
    guard: 'same commit as stored (full or abbreviated), or none again',
    to: 'applied',
    also: 'a new link replaces the old; nothing else changes, nobody is notified',
    covers: (comment, input) => !isNewFix(comment, input as AppliedCommit),
    effect: async ({ trx, deps, actor, comment, input }: Step<AppliedCommit>) => {
      if (input.url === comment.commit_url) return false;
      await repo.updateComment(trx, actor.workspaceId, comment.id, {
        commit_url: input.url,
        updated_at: nowIso(deps.clock),
      });
      return true;
    },
    event: ({ comment }: Step<AppliedCommit>) => ({ kind: 'reapplied', commitSha: comment.commit_sha }),
  } as Transition<'apply'>,
  {
    trigger: 'verify',
    label: 'verify ok',
    from: ['applied'],
    who: { comment: 'comment.verify' },
    guard: 'applied; its commit, when the verdict names one',
    to: 'applied',
    also: 'verifiedAt once; system reply `Verified ✓`; no notification',
    covers: (_comment, input) => (input as VerifyInput).ok,
    check: checkVerdictCommit,
    effect: async ({ trx, deps, actor, comment }: Step<VerifyInput>) => {
      // Verifying twice changes nothing and adds no second reply.
      if (comment.verified_at) return false;
      const now = nowIso(deps.clock);
      await addReply(trx, actor, comment, { author_id: null, kind: 'system', body: VERIFIED_REPLY }, now);
      await repo.updateComment(trx, actor.workspaceId, comment.id, { verified_at: now, updated_at: now });
      return true;
    },
    event: ({ comment }: Step<VerifyInput>) => ({ kind: 'verified', commitSha: comment.commit_sha }),
  } as Transition<'verify'>,
  {
    trigger: 'verify',
    label: 'verify not ok',
    from: ['applied'],
    who: { comment: 'comment.verify' },
    guard: `applied; note 1-${VERIFY_NOTE_MAX}; its commit, when the verdict names one`,
    to: 'open',
    also: 'verifiedAt cleared; reply `Not fixed: <note>` by the caller; `CommentReopened` → applier and assignee',
    covers: (_comment, input) => !(input as VerifyInput).ok,
    check: (step: Step<VerifyInput>) => {
      rejectionNote(step.input.note);
      checkVerdictCommit(step);
    },
    effect: async (step: Step<VerifyInput>) => {
      const { trx, deps, actor, comment, input } = step;
      // The note's mentions by the rule of every text's (see mentions.ts); its people were
      // locked before the comment (verification/service.ts).
      const { text: note, mentioned } = await resolveMentions(
        trx,
        actor,
        comment.project_id,
        rejectionNote(input.note),
        '/note',
      );
      const body = `${REJECTED_REPLY_PREFIX}${note}`;
      const now = nowIso(deps.clock);
      await addReply(trx, actor, comment, { author_id: actor.id, kind: 'user', body }, now);
      await markReopened(trx, deps, actor, comment, body);
      // Whom the reopening tells (the fixer, the assignee) hear of it once, not of the mention too.
      await mention(deps, trx, actor, comment.id, mentioned, body, now, [comment.applied_by_id, comment.assignee_id]);
      step.storedNote = note;
      return true;
    },
    event: ({ comment, storedNote }: Step<VerifyInput>) => ({
      kind: 'not_fixed',
      commitSha: comment.commit_sha,
      note: storedNote ?? null,
    }),
  } as Transition<'verify'>,
  {
    trigger: 'reopen',
    label: 'reopen',
    from: ['applied'],
    who: { role: 'comments.reopen' },
    guard: 'applied',
    to: 'open',
    also: 'verifiedAt cleared; `CommentReopened` → applier and assignee',
    covers: () => true,
    effect: async ({ trx, deps, actor, comment }: Step<undefined>) => {
      await markReopened(trx, deps, actor, comment, comment.body);
      return true;
    },
    event: () => ({ kind: 'reopened' }),
  } as Transition<'reopen'>,
  {
    trigger: 'archive',
    label: 'archive',
    from: ['open', 'applied', 'archived'],
    who: { role: 'comments.archive' },
    guard: '—',
    to: 'archived',
    also: 'idempotent',
    covers: () => true,
    effect: async ({ trx, deps, actor, comment }: Step<undefined>) => {
      if (comment.status === 'archived') return false;
      await repo.updateComment(trx, actor.workspaceId, comment.id, {
        status: 'archived',
        updated_at: nowIso(deps.clock),
      });
      return true;
    },
    event: () => ({ kind: 'archived' }),
  } as Transition<'archive'>,
  {
    trigger: 'delete',
    label: 'delete',
    from: ['open', 'applied', 'archived'],
    who: { comment: 'comment.delete' },
    guard: '—',
    to: 'gone',
    also: 'replies and every notification of it go',
    covers: () => true,
    effect: async ({ trx, deps, actor, comment }: Step<undefined>) => {
      await deps.events.raise(trx, {
        type: 'CommentDeleted',
        workspaceId: actor.workspaceId,
        commentId: comment.id,
        actorId: actor.id,
      });
      await repo.deleteComment(trx, actor.workspaceId, comment.id);
      return true;
    },
  } as Transition<'delete'>,
];

/**
 * The rows that are not fired on one comment: creating one, and a build report, which stamps
 * every comment its build contains in one statement (`deployedByBuild`). They stand in the
 * table all the same.
 */
export const OTHER_TRANSITIONS = [
  { from: '—', trigger: 'create', who: 'anyone', guard: 'project visible', to: 'open', also: '' },
  {
    from: 'applied, commit, not Live',
    trigger: 'build report',
    who: 'admin, member',
    guard: 'the build contains the commit',
    to: 'applied (Live)',
    also: "deployedAt and the build's SHA, written once",
  },
] as const;

/** Where the comment stands as the board shows it: an applied fix is verified, else Live, else completed. */
export function stageOf(comment: Pick<Comment, 'status' | 'verified_at' | 'deployed_at'>): CommentStage {
  if (comment.status !== 'applied') return comment.status;
  if (comment.verified_at) return 'verified';
  return comment.deployed_at ? 'live' : 'completed';
}

/** What the state forbids, in words, per trigger. */
const REFUSALS: Record<Trigger, (status: CommentStatus) => string> = {
  apply: () => 'An archived comment cannot be applied.',
  verify: (status) => `Only an applied comment can be verified; this one is ${status}.`,
  reopen: (status) => `Only an applied comment can be reopened; this one is ${status}.`,
  archive: (status) => `This comment cannot be archived; it is ${status}.`,
  delete: (status) => `This comment cannot be deleted; it is ${status}.`,
};

/** Whether `actor` is one who may fire a row's trigger on the comment (its state aside). */
export function mayFire(actor: Actor, who: Who, comment: Comment): boolean {
  if (who === 'anyone') return true;
  return 'comment' in who ? canOnComment(actor, who.comment, comment) : can(actor, who.role);
}

function authorizeFire(actor: Actor, who: Who, comment: Comment): void {
  if (who === 'anyone') return;
  if ('comment' in who) authorizeOnComment(actor, who.comment, comment);
  else authorize(actor, who.role);
}

/**
 * Fires `trigger` on the comment `id`: locks its row (concurrent transitions of one comment
 * run one after the other, each seeing what the one before wrote), reads it in the caller's
 * scope (404 first: nothing is said of a comment the caller cannot see), authorizes, finds the
 * row of the table, checks its state and guard, runs its effect, and announces the change.
 * Returns the comment as it is now, or null when it is gone.
 */
export async function fire<T extends Trigger>(
  trx: Db,
  deps: LifecycleDeps,
  actor: Actor,
  trigger: T,
  id: string,
  input: Inputs[T],
): Promise<Comment | null> {
  await deps.database.lockComment(trx, actor.workspaceId, id);
  const comment = await repo.findComment(trx, scopeOf(actor), id);
  if (!comment) throw notFound('Comment');
  const rows = TRANSITIONS.filter((row) => row.trigger === trigger) as unknown as Transition<T>[];
  const first = rows[0];
  if (!first) throw new Error(`no transition for ${trigger}`);
  authorizeFire(actor, first.who, comment);
  const row = rows.find((candidate) => candidate.covers(comment, input)) ?? first;
  if (!row.from.includes(comment.status)) throw invalidState(REFUSALS[trigger](comment.status));
  const step = { trx, deps, actor, comment, input };
  row.check?.(step);
  if (await row.effect(step)) {
    for (const event of [row.event?.(step) ?? []].flat()) {
      await recordEvent(trx, comment, event.kind, actor, event, nowIso(deps.clock));
    }
    await deps.events.changed(trx, { workspaceId: actor.workspaceId, projectId: comment.project_id });
  }
  return row.to === 'gone' ? null : ((await repo.findComment(trx, scopeOf(actor), id)) ?? null);
}

/**
 * A build report: every applied, not yet Live comment of the project whose commit is one of
 * `reported` goes Live with the build's SHA, once; the ids of those comments. One set-based
 * statement (see `repo.stampDeployedComments`), whose `WHERE` is the row's guard: a comment
 * applied again meanwhile no longer matches. The caller checks who may report.
 */
export async function deployedByBuild(
  trx: Db,
  deps: LifecycleDeps,
  build: { workspaceId: string; projectId: string; buildSha: string; at: string },
  reported: readonly string[],
  reporter: Actor,
): Promise<string[]> {
  const deployed = await repo.stampDeployedComments(trx, deps.database, build, reported);
  await recordLive(trx, build, deployed, reporter);
  if (deployed.length) await deps.events.changed(trx, build);
  return deployed;
}

/** The lifecycle as the README's table writes it: one line per row, in order. */
export function lifecycleTable(): string[] {
  const role = (who: Who) => (who === 'anyone' ? 'anyone' : 'comment' in who ? 'author, admin' : 'admin, member');
  const fromOf = (row: Transition<Trigger>) => (row.from.length === 3 ? 'any' : row.from.join(', '));
  const line = (cells: string[]) => `| ${cells.join(' | ')} |`;
  const [create, build] = OTHER_TRANSITIONS;
  const rows = TRANSITIONS.map((row) =>
    line([fromOf(row), row.label, role(row.who), row.guard, row.toLabel ?? row.to.replace('gone', '(gone)'), row.also]),
  );
  // The build report after the last transition before archive (reopen).
  const beforeBuild = TRANSITIONS.findIndex((row) => row.trigger === 'archive');
  return [
    line([create.from, create.trigger, create.who, create.guard, create.to, create.also]),
    ...rows.slice(0, beforeBuild),
    line([build.from, build.trigger, build.who, build.guard, build.to, build.also]),
    ...rows.slice(beforeBuild),
  ];
}
