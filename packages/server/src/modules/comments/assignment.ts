import type { Actor } from '../../actor.js';
import type { Db } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { invalidField, unauthenticated } from '../../errors.js';
import { nowIso } from '../../ids.js';
import * as accounts from '../auth/repo.js';
import { excerpt } from './excerpt.js';
import { authorizeRole, guardComment } from './policy.js';
import { type CommentDeps, changeComment, requireComment } from './service.js';
import { recordEvent } from './timeline.js';

// Who is on a comment: put there by the team (assign), or taken by whoever starts on it
// (claim), a person or an agent. The assignee stays through apply, Live and verify: a fix
// sent back returns to them (see the lifecycle's `CommentReopened`).

/** Someone who may be on a comment: a person of the team (admin or member) or an agent, of the caller's workspace. */
async function requireAssignable(db: Db, actor: Actor, userId: string) {
  const user = await accounts.findUserById(db, actor.workspaceId, userId);
  // Said the same way whether the id is nobody's or someone's of another workspace.
  if (!user || user.role === 'client') {
    throw invalidField(
      '/assigneeId',
      'names nobody of the team: a person (admin or member) or an agent of this workspace',
    );
  }
  return user;
}

/**
 * Who is put on a comment is read under their row's lock, held until the change commits: a
 * removal (which locks it to change it, then takes them off every comment) comes wholly before
 * or wholly after, so that a removed member is never left on one.
 */
const lockPeople = (deps: CommentDeps, actor: Actor, ids: string[]) => (trx: Db) =>
  deps.database.lockRows(trx, { table: 'users', workspaceId: actor.workspaceId, ids }, 'share');

/** Puts someone (or nobody: null) on the comment; they are told, unless they did it. */
export function assignComment(deps: CommentDeps, actor: Actor, id: string, assigneeId: string | null) {
  authorizeRole(actor, 'assign');
  const locked = lockPeople(deps, actor, assigneeId === null ? [] : [assigneeId]);
  return changeComment(
    deps,
    actor,
    id,
    async (trx, comment, now) => {
      guardComment(actor, 'assign', comment);
      const assignee = assigneeId === null ? null : (await requireAssignable(trx, actor, assigneeId)).id;
      // The same assignee again changes nothing, and writes no event.
      if (assignee === comment.assignee_id) return null;
      if (assignee !== null) {
        await deps.events.raise(trx, {
          type: 'CommentAssigned',
          workspaceId: actor.workspaceId,
          commentId: comment.id,
          actorId: actor.id,
          assigneeId: assignee,
          excerpt: excerpt(comment.body),
        });
      }
      return {
        columns: { assignee_id: assignee, assigned_at: assignee === null ? null : now },
        event: { kind: 'assigned', subjectId: assignee },
      };
    },
    locked,
  );
}

/**
 * Takes an open comment nobody is on (already the caller's: nothing changes). One statement
 * decides, its condition being that nobody holds it: of twenty claiming at once, on either
 * database and from any number of server processes, the first write wins and the others find
 * the holder, named in their 409.
 */
export async function claimComment(deps: CommentDeps, actor: Actor, id: string) {
  authorizeRole(actor, 'claim');
  return inTransaction(deps.db, async (trx) => {
    // The caller, removed meanwhile, is no one to put on a comment (see lockPeople).
    await lockPeople(deps, actor, [actor.id])(trx);
    if (!(await accounts.findUserById(trx, actor.workspaceId, actor.id))) throw unauthenticated();
    const now = nowIso(deps.clock);
    const taken = await trx
      .updateTable('comments')
      .set({ assignee_id: actor.id, assigned_at: now, updated_at: now })
      .where('workspace_id', '=', actor.workspaceId)
      .where('id', '=', id)
      .where('status', '=', 'open')
      .where('assignee_id', 'is', null)
      .executeTakeFirst();
    const comment = await requireComment(trx, actor, id);
    if (taken.numUpdatedRows === 0n) {
      // Not taken: the policy says why (someone else is on it, or it is no longer open), or
      // that it is the caller's already, which changes nothing.
      guardComment(actor, 'claim', comment);
      return comment;
    }
    await recordEvent(trx, comment, 'assigned', actor, { subjectId: actor.id }, now);
    await deps.events.changed(trx, { workspaceId: actor.workspaceId, projectId: comment.project_id });
    return comment;
  });
}
