import { VERIFY_NOTE_MAX, type VerifyBody } from '@svc/contract';
import { inTransaction } from '../../db/transaction.js';
import { invalidField, invalidState, notFound } from '../../errors.js';
import { newId, nowIso } from '../../ids.js';
import { type Actor, scopeOf } from '../auth/actor.js';
import { authorizeAuthorOrAdmin } from '../auth/policy.js';
import * as comments from '../comments/repo.js';
import { type CommentDeps, excerpt } from '../comments/service.js';

export const VERIFIED_REPLY = 'Verified ✓';
export const REJECTED_REPLY_PREFIX = 'Not fixed: ';

function rejectionNote(note: string | undefined): string {
  const text = note?.trim() ?? '';
  if (text.length === 0) throw invalidField('/note', 'is required when ok is false');
  if (text.length > VERIFY_NOTE_MAX) throw invalidField('/note', `must be at most ${VERIFY_NOTE_MAX} characters`);
  return text;
}

/**
 * The author (or an admin) confirms an applied fix, or rejects it with a note: the
 * comment reopens and whoever applied it hears of it. One transaction either way.
 */
export async function verifyComment(deps: CommentDeps, actor: Actor, id: string, input: VerifyBody) {
  const note = input.ok ? null : rejectionNote(input.note);
  return inTransaction(deps.db, async (trx) => {
    const comment = await comments.findComment(trx, scopeOf(actor), id);
    if (!comment) throw notFound('Comment');
    authorizeAuthorOrAdmin(actor, comment.author_id, 'verify its fix');
    if (comment.status !== 'applied') {
      throw invalidState(`Only an applied comment can be verified; this one is ${comment.status}.`);
    }
    const now = nowIso();
    if (note === null) {
      // Verifying twice changes nothing and adds no second reply.
      if (comment.verified_at) return comment;
      await comments.updateComment(trx, actor.workspaceId, id, { verified_at: now, updated_at: now });
      // An automated reply: no author, and it notifies nobody.
      await comments.insertReply(trx, {
        id: newId('rpl'),
        workspace_id: actor.workspaceId,
        comment_id: id,
        author_id: null,
        kind: 'system',
        body: VERIFIED_REPLY,
        created_at: now,
      });
    } else {
      await comments.updateComment(trx, actor.workspaceId, id, { status: 'open', verified_at: null, updated_at: now });
      await comments.insertReply(trx, {
        id: newId('rpl'),
        workspace_id: actor.workspaceId,
        comment_id: id,
        author_id: actor.id,
        kind: 'user',
        body: `${REJECTED_REPLY_PREFIX}${note}`,
        created_at: now,
      });
      await deps.events.raise(trx, {
        type: 'CommentReopened',
        workspaceId: actor.workspaceId,
        commentId: id,
        actorId: actor.id,
        appliedById: comment.applied_by_id,
        excerpt: excerpt(`${REJECTED_REPLY_PREFIX}${note}`),
      });
    }
    const updated = await comments.findComment(trx, scopeOf(actor), id);
    if (!updated) throw notFound('Comment');
    return updated;
  });
}
