import type { VerifyBody } from '@svc/contract';
import { inTransaction } from '../../db/transaction.js';
import type { Actor } from '../auth/actor.js';
import * as lifecycle from '../comments/lifecycle.js';
import { type CommentDeps, requireComment } from '../comments/service.js';

/**
 * The author (or an admin) confirms an applied fix, or rejects it with a note: the
 * comment reopens and whoever applied it hears of it. One transaction either way; the
 * rules are the lifecycle's.
 */
export async function verifyComment(deps: CommentDeps, actor: Actor, id: string, input: VerifyBody) {
  return inTransaction(deps.db, async (trx) => {
    // 404 first: a comment the caller cannot see says nothing about its note.
    await lifecycle.verify(trx, deps, actor, await requireComment(trx, actor, id), input);
    return requireComment(trx, actor, id);
  });
}
