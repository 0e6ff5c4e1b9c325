import { PRIORITIES, type Priority } from '@svc/contract';
import type { Actor } from '../../actor.js';
import { inTransaction } from '../../db/transaction.js';
import { invalidField } from '../../errors.js';
import { nowIso } from '../../ids.js';
import { authorize } from '../../policy.js';
import { findLabels, setCommentLabels } from '../labels/repo.js';
import * as repo from './repo.js';
import { type CommentDeps, requireComment } from './service.js';
import { recordEvent } from './timeline.js';

// The team's triage of a comment: how urgent it is, and the workspace's labels it has. Nobody
// is notified (the one on it sees it on the comment); each change writes its timeline event and
// wakes those who watch the project.

/** Sets the comment's priority; the same again changes nothing. */
export async function setPriority(deps: CommentDeps, actor: Actor, id: string, priority: Priority) {
  authorize(actor, 'comments.triage');
  return inTransaction(deps.db, async (trx) => {
    await deps.database.lockComment(trx, actor.workspaceId, id);
    const comment = await requireComment(trx, actor, id);
    const level = PRIORITIES.indexOf(priority);
    if (level === comment.priority) return comment;
    const now = nowIso(deps.clock);
    await repo.updateComment(trx, actor.workspaceId, id, { priority: level, updated_at: now });
    await recordEvent(trx, comment, 'prioritized', actor, { note: priority }, now);
    await deps.events.changed(trx, { workspaceId: actor.workspaceId, projectId: comment.project_id });
    return requireComment(trx, actor, id);
  });
}

/** Puts exactly these labels of the workspace on the comment; the same set again changes nothing. */
export async function setLabels(deps: CommentDeps, actor: Actor, id: string, labelIds: readonly string[]) {
  authorize(actor, 'comments.triage');
  return inTransaction(deps.db, async (trx) => {
    await deps.database.lockComment(trx, actor.workspaceId, id);
    const comment = await requireComment(trx, actor, id);
    const labels = await findLabels(trx, actor.workspaceId, [...new Set(labelIds)]);
    // Another workspace's label is said the same way as no label at all.
    const unknown = labelIds.findIndex((labelId) => !labels.some((label) => label.id === labelId));
    if (unknown >= 0) invalidLabel(unknown);
    const before = comment.labels.map((label) => label.id).sort();
    const after = labels.map((label) => label.id).sort();
    if (before.join() === after.join()) return comment;
    const now = nowIso(deps.clock);
    await setCommentLabels(trx, actor.workspaceId, id, after);
    await repo.updateComment(trx, actor.workspaceId, id, { updated_at: now });
    const names = labels.map((label) => label.name).join('\n');
    await recordEvent(trx, comment, 'labeled', actor, { note: names || null }, now);
    await deps.events.changed(trx, { workspaceId: actor.workspaceId, projectId: comment.project_id });
    return requireComment(trx, actor, id);
  });
}

function invalidLabel(index: number): never {
  throw invalidField(`/labelIds/${index}`, 'names no label of this workspace');
}
