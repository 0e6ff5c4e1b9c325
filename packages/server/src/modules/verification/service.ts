import { VERIFY_NOTE_MAX, type VerifyBody } from '@svc/contract';
import { inTransaction } from '../../db/transaction.js';
import { invalidField, invalidState } from '../../errors.js';
import { newId, nowIso } from '../../ids.js';
import type { Actor } from '../auth/actor.js';
import { authorizeAuthorOrAdmin } from '../auth/policy.js';
import * as comments from '../comments/repo.js';
import { type CommentDeps, markReopened, requireComment } from '../comments/service.js';

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
  return inTransaction(deps.db, async (trx) => {
    // In this order: 404 (not the caller's to see), 403, 409, then the note.
    const comment = await requireComment(trx, actor, id);
    authorizeAuthorOrAdmin(actor, comment.author_id, 'verify its fix');
    if (comment.status !== 'applied') {
      throw invalidState(`Only an applied comment can be verified; this one is ${comment.status}.`);
    }
    const note = input.ok ? null : rejectionNote(input.note);
    // Verifying twice changes nothing and adds no second reply.
    if (note === null && comment.verified_at) return comment;
    const now = nowIso();
    // Confirmed: an automated reply (no author, notifies nobody). Rejected: the caller's words.
    const reply =
      note === null
        ? { author_id: null, kind: 'system' as const, body: VERIFIED_REPLY }
        : { author_id: actor.id, kind: 'user' as const, body: `${REJECTED_REPLY_PREFIX}${note}` };
    await comments.insertReply(trx, {
      id: newId('rpl'),
      workspace_id: actor.workspaceId,
      comment_id: id,
      ...reply,
      created_at: now,
    });
    if (note === null) await comments.updateComment(trx, actor.workspaceId, id, { verified_at: now, updated_at: now });
    else await markReopened(trx, deps, actor, comment, reply.body);
    return requireComment(trx, actor, id);
  });
}
