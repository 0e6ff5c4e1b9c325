// What the lifecycle's rows do besides setting the status, written once for the rows that share
// it: recording a fix, reopening, the lifecycle's own replies, and the checks of a verdict (its
// note, its commit). The rows themselves, and who may fire them, are the table in lifecycle.ts.
import { sameCommit, type TimelineKind, VERIFY_NOTE_MAX } from '@svc/contract';
import type { Actor } from '../../actor.js';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/schema.js';
import { invalidField, invalidState } from '../../errors.js';
import { newId, nowIso } from '../../ids.js';
import { excerpt } from './excerpt.js';
import * as repo from './repo.js';
import type { EventDetail } from './timeline.js';

type Comment = repo.CommentRow;

export type LifecycleDeps = Pick<AppContext, 'database' | 'events' | 'clock'>;

/** What a transition needs: the transaction, its deps, who acts, the comment as locked, and the input. */
export interface Step<Input> {
  trx: Db;
  deps: LifecycleDeps;
  actor: Actor;
  comment: Comment;
  input: Input;
  /** A note as the effect stored it (a verdict's, its mentions resolved), for its event to repeat. */
  storedNote?: string;
}

/** A commit as an apply records it: a normalised SHA (or none) and its link (or none). */
export interface AppliedCommit {
  sha: string | null;
  url: string | null;
}

export interface VerifyInput {
  ok: boolean;
  note?: string;
  /** The commit the verdict is about, as the client showed it: refused when the comment was applied again since. */
  commitSha?: string;
}

export type TimelineEntry = { kind: TimelineKind } & EventDetail;

/** Two applies record the same fix when both name the same commit (or neither names one). */
function sameAppliedCommit(stored: string | null, given: string | null): boolean {
  return stored === null || given === null ? stored === given : sameCommit(stored, given);
}

/** Whether an apply records another fix than the one the comment holds (any fix of an open comment). */
export const isNewFix = (comment: Comment, input: AppliedCommit) =>
  !(comment.status === 'applied' && sameAppliedCommit(comment.commit_sha, input.sha));

/**
 * A new fix: stored with its commit (or none) and link, verified again by its author; with a
 * commit it waits for the build that holds it, without one it is Live as it is made.
 */
export async function recordFix({ trx, deps, actor, comment, input }: Step<AppliedCommit>): Promise<boolean> {
  const now = nowIso(deps.clock);
  await repo.updateComment(trx, actor.workspaceId, comment.id, {
    status: 'applied',
    commit_sha: input.sha,
    commit_url: input.url,
    applied_by_id: actor.id,
    applied_at: now,
    verified_at: null,
    deployed_at: input.sha === null ? now : null,
    deployed_build_sha: null,
    updated_at: now,
  });
  await deps.events.raise(trx, {
    type: 'CommentApplied',
    workspaceId: actor.workspaceId,
    commentId: comment.id,
    actorId: actor.id,
    authorId: comment.author_id,
    commitSha: input.sha,
    commitUrl: input.url,
    excerpt: excerpt(comment.body),
  });
  return true;
}

export const fixEvent = ({ comment, input }: Step<AppliedCommit>): TimelineEntry => ({
  kind: comment.status === 'applied' ? 'reapplied' : 'applied',
  commitSha: input.sha,
});

/** A verdict's note, trimmed: required when it says the fix does not work. */
export function rejectionNote(note: string | undefined): string {
  const text = note?.trim() ?? '';
  if (text.length === 0) throw invalidField('/note', 'is required when ok is false');
  if (text.length > VERIFY_NOTE_MAX) throw invalidField('/note', `must be at most ${VERIFY_NOTE_MAX} characters`);
  return text;
}

/** A verdict about a commit the comment no longer records is about a fix that has been replaced. */
export function checkVerdictCommit({ comment, input }: Step<VerifyInput>): void {
  if (input.commitSha !== undefined && !sameAppliedCommit(comment.commit_sha, input.commitSha)) {
    throw invalidState('This comment was applied again with another commit since: verify the new fix.');
  }
}

/** Back to open: the verdict cleared, and the fixer and the assignee told (`CommentReopened`). */
export async function markReopened(trx: Db, deps: LifecycleDeps, actor: Actor, comment: Comment, excerptOf: string) {
  await repo.updateComment(trx, actor.workspaceId, comment.id, {
    status: 'open',
    verified_at: null,
    updated_at: nowIso(deps.clock),
  });
  await deps.events.raise(trx, {
    type: 'CommentReopened',
    workspaceId: actor.workspaceId,
    commentId: comment.id,
    actorId: actor.id,
    appliedById: comment.applied_by_id,
    assigneeId: comment.assignee_id,
    excerpt: excerpt(excerptOf),
  });
}

/** An automated reply (verification) notifies nobody: it raises no ReplyAdded. */
export async function addReply(
  trx: Db,
  actor: Actor,
  comment: Comment,
  reply: { author_id: string | null; kind: 'user' | 'system'; body: string },
  at: string,
) {
  await repo.insertReply(trx, {
    id: newId('rpl'),
    workspace_id: actor.workspaceId,
    comment_id: comment.id,
    ...reply,
    created_at: at,
  });
}
