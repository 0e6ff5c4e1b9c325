import { sameCommit, VERIFY_NOTE_MAX } from '@svc/contract';
import type { Database } from '../../db/dialect/index.js';
import type { Db } from '../../db/schema.js';
import { invalidField, invalidState } from '../../errors.js';
import { newId, nowIso } from '../../ids.js';
import type { Actor } from '../auth/actor.js';
import { authorize, authorizeAuthorOrAdmin } from '../auth/policy.js';
import type { CommentEventSink } from './events.js';
import { excerpt } from './presenter.js';
import * as repo from './repo.js';

/**
 * The comment's lifecycle, written once. Every change of a comment's state is one of these
 * transitions; the comments, verification and builds features call them, and none writes the
 * state columns itself (SPEC §4, with the decisions the README records).
 *
 * | From                        | Trigger            | Who may          | Guard                    | To       | Also                                                                                     |
 * |-----------------------------|--------------------|------------------|--------------------------|----------|------------------------------------------------------------------------------------------|
 * | —                           | create             | anyone           | project visible          | open     |                                                                                          |
 * | open, applied               | apply (new commit) | admin, member    | not archived             | applied  | commit and link stored; verifiedAt, deployedAt, deployed build cleared; CommentApplied → author |
 * | applied                     | apply (same commit)| admin, member    | same commit as stored    | applied  | a new link replaces the old; nothing else changes, nobody is notified                    |
 * | applied                     | verify ok          | author, admin    | applied                  | applied  | verifiedAt once; system reply "Verified ✓"; no notification                              |
 * | applied                     | verify not ok      | author, admin    | applied; note 1-500      | open     | verifiedAt cleared; reply "Not fixed: <note>" by the caller; CommentReopened → applier   |
 * | applied                     | reopen             | admin, member    | applied                  | open     | verifiedAt cleared; CommentReopened → applier                                            |
 * | applied, commit, not Live   | build report       | admin, member    | build contains the commit| applied  | deployedAt and the build's SHA, written once (Live)                                      |
 * | any                         | archive            | admin, member    | —                        | archived | idempotent                                                                               |
 * | any                         | delete             | author, admin    | —                        | (gone)   | replies and every notification of it go (CommentDeleted)                                 |
 */

export interface LifecycleDeps {
  events: CommentEventSink;
}

type Comment = repo.CommentRow;

export const VERIFIED_REPLY = 'Verified ✓';
export const REJECTED_REPLY_PREFIX = 'Not fixed: ';

/** A commit as an apply records it: a normalised SHA (or none) and its link (or none). */
export interface AppliedCommit {
  sha: string | null;
  url: string | null;
}

/**
 * apply. Applying the commit a comment already records (the same SHA, or one a prefix of the
 * other) is not a new fix: a different link replaces the old one, and nothing else happens.
 */
export async function apply(trx: Db, deps: LifecycleDeps, actor: Actor, comment: Comment, commit: AppliedCommit) {
  authorize(actor, 'comments.apply');
  if (comment.status === 'archived') throw invalidState('An archived comment cannot be applied.');
  const now = nowIso();
  if (comment.status === 'applied' && sameAppliedCommit(comment.commit_sha, commit.sha)) {
    if (commit.url !== comment.commit_url) {
      await repo.updateComment(trx, actor.workspaceId, comment.id, { commit_url: commit.url, updated_at: now });
      await deps.events.changed(trx, actor.workspaceId);
    }
    return;
  }
  // A new fix: it must be deployed and verified again.
  await repo.updateComment(trx, actor.workspaceId, comment.id, {
    status: 'applied',
    commit_sha: commit.sha,
    commit_url: commit.url,
    applied_by_id: actor.id,
    applied_at: now,
    verified_at: null,
    deployed_at: null,
    deployed_build_sha: null,
    updated_at: now,
  });
  await deps.events.raise(trx, {
    type: 'CommentApplied',
    workspaceId: actor.workspaceId,
    commentId: comment.id,
    actorId: actor.id,
    authorId: comment.author_id,
    commitSha: commit.sha,
    commitUrl: commit.url,
    excerpt: excerpt(comment.body),
  });
  await deps.events.changed(trx, actor.workspaceId);
}

/** Two applies record the same fix when both name the same commit (or neither names one). */
function sameAppliedCommit(stored: string | null, given: string | null): boolean {
  return stored === null || given === null ? stored === given : sameCommit(stored, given);
}

function rejectionNote(note: string | undefined): string {
  const text = note?.trim() ?? '';
  if (text.length === 0) throw invalidField('/note', 'is required when ok is false');
  if (text.length > VERIFY_NOTE_MAX) throw invalidField('/note', `must be at most ${VERIFY_NOTE_MAX} characters`);
  return text;
}

/**
 * verify: the author (or an admin) confirms the fix, or rejects it with a note, which
 * reopens the comment. Checked in this order: who may, the state, then the note.
 */
export async function verify(
  trx: Db,
  deps: LifecycleDeps,
  actor: Actor,
  comment: Comment,
  input: { ok: boolean; note?: string },
) {
  authorizeAuthorOrAdmin(actor, comment.author_id, 'verify its fix');
  if (comment.status !== 'applied') {
    throw invalidState(`Only an applied comment can be verified; this one is ${comment.status}.`);
  }
  if (input.ok) {
    // Verifying twice changes nothing and adds no second reply.
    if (comment.verified_at) return;
    const now = nowIso();
    await addReply(trx, actor, comment, { author_id: null, kind: 'system', body: VERIFIED_REPLY });
    await repo.updateComment(trx, actor.workspaceId, comment.id, { verified_at: now, updated_at: now });
    await deps.events.changed(trx, actor.workspaceId);
    return;
  }
  const body = `${REJECTED_REPLY_PREFIX}${rejectionNote(input.note)}`;
  await addReply(trx, actor, comment, { author_id: actor.id, kind: 'user', body });
  await markReopened(trx, deps, actor, comment, body);
  await deps.events.changed(trx, actor.workspaceId);
}

/** reopen: an applied comment goes back to open, and whoever applied it hears of it. */
export async function reopen(trx: Db, deps: LifecycleDeps, actor: Actor, comment: Comment) {
  authorize(actor, 'comments.reopen');
  if (comment.status !== 'applied') {
    throw invalidState(`Only an applied comment can be reopened; this one is ${comment.status}.`);
  }
  await markReopened(trx, deps, actor, comment, comment.body);
  await deps.events.changed(trx, actor.workspaceId);
}

async function markReopened(trx: Db, deps: LifecycleDeps, actor: Actor, comment: Comment, excerptOf: string) {
  await repo.updateComment(trx, actor.workspaceId, comment.id, {
    status: 'open',
    verified_at: null,
    updated_at: nowIso(),
  });
  await deps.events.raise(trx, {
    type: 'CommentReopened',
    workspaceId: actor.workspaceId,
    commentId: comment.id,
    actorId: actor.id,
    appliedById: comment.applied_by_id,
    excerpt: excerpt(excerptOf),
  });
}

/** An automated reply (verification) notifies nobody: it raises no ReplyAdded. */
async function addReply(
  trx: Db,
  actor: Actor,
  comment: Comment,
  reply: { author_id: string | null; kind: 'user' | 'system'; body: string },
) {
  await repo.insertReply(trx, {
    id: newId('rpl'),
    workspace_id: actor.workspaceId,
    comment_id: comment.id,
    ...reply,
    created_at: nowIso(),
  });
}

/** archive, from any state; archiving an archived comment changes nothing. */
export async function archive(trx: Db, deps: LifecycleDeps, actor: Actor, comment: Comment) {
  authorize(actor, 'comments.archive');
  if (comment.status === 'archived') return;
  await repo.updateComment(trx, actor.workspaceId, comment.id, { status: 'archived', updated_at: nowIso() });
  await deps.events.changed(trx, actor.workspaceId);
}

/** delete: by its author or an admin; replies and notifications go with it. */
export async function remove(trx: Db, deps: LifecycleDeps, actor: Actor, comment: Comment) {
  authorizeAuthorOrAdmin(actor, comment.author_id, 'delete it');
  await deps.events.raise(trx, {
    type: 'CommentDeleted',
    workspaceId: actor.workspaceId,
    commentId: comment.id,
    actorId: actor.id,
  });
  await repo.deleteComment(trx, actor.workspaceId, comment.id);
  await deps.events.changed(trx, actor.workspaceId);
}

/**
 * A build report: every applied, not yet Live comment of the project whose commit is one of
 * `reported` goes Live with the build's SHA, once; the ids of those comments. One set-based
 * statement (see `repo.stampDeployedComments`); the caller checks who may report.
 */
export async function deployedByBuild(
  trx: Db,
  database: Database,
  build: { workspaceId: string; projectId: string; buildSha: string; at: string },
  reported: readonly string[],
): Promise<string[]> {
  const deployed = await repo.stampDeployedComments(trx, database, build, reported);
  if (deployed.length) await database.changes.publish(trx, { kind: 'comments', key: build.workspaceId });
  return deployed;
}
