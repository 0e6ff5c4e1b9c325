import type { VerifyBody } from '@svc/contract';
import type { Actor } from '../../actor.js';
import { inTransaction } from '../../db/transaction.js';
import * as lifecycle from '../comments/lifecycle.js';
import { lockMentioned } from '../comments/mentions.js';
import type { CommentDeps } from '../comments/service.js';

/**
 * The author (or an admin) confirms an applied fix, or rejects it with a note: the
 * comment reopens and whoever applied it hears of it; whom the note mentions, by the rule of
 * every text's (comments/mentions.ts), hear of it too. One transaction either way; the
 * rules are the lifecycle's.
 */
export async function verifyComment(deps: CommentDeps, actor: Actor, id: string, input: VerifyBody) {
  return inTransaction(deps.db, async (trx) => {
    // The people a note mentions, before the comment's lock (see `Database.lockRows`).
    if (!input.ok) await lockMentioned(deps.database, trx, actor.workspaceId, input.note ?? '');
    const comment = await lifecycle.fire(trx, deps, actor, 'verify', id, input);
    if (!comment) throw new Error('a verified comment is kept');
    return comment;
  });
}
