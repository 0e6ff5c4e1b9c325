import { type CommentPatch, PRIORITIES, type Priority } from '@svc/contract';
import type { Actor } from '../../actor.js';
import { invalidField } from '../../errors.js';
import { findLabels, setCommentLabels } from '../labels/repo.js';
import { authorizeRole } from './policy.js';
import { type CommentDeps, changeComment } from './service.js';

// The team's triage of a comment: how urgent it is, the workspace's labels it has, the day it
// should be fixed by. Nobody
// is notified (the one on it sees it on the comment); each change writes its timeline event and
// wakes those who watch the project.

/** Sets the comment's priority; the same again changes nothing. */
export function setPriority(deps: CommentDeps, actor: Actor, id: string, priority: Priority) {
  authorizeRole(actor, 'triage');
  const level = PRIORITIES.indexOf(priority);
  return changeComment(deps, actor, id, async (_trx, comment) =>
    level === comment.priority
      ? null
      : { columns: { priority: level }, event: { kind: 'prioritized', note: priority } },
  );
}

/** Puts exactly these labels of the workspace on the comment; the same set again changes nothing. */
export function setLabels(deps: CommentDeps, actor: Actor, id: string, labelIds: readonly string[]) {
  authorizeRole(actor, 'triage');
  return changeComment(deps, actor, id, async (trx, comment) => {
    const wanted = [...new Set(labelIds)];
    // Held until the commit: a label deleted meanwhile goes after, taking itself off this comment too.
    await deps.database.lockRows(trx, { table: 'labels', workspaceId: actor.workspaceId, ids: wanted }, 'share');
    const labels = await findLabels(trx, actor.workspaceId, wanted);
    // Another workspace's label is said the same way as no label at all.
    const known = new Set(labels.map((label) => label.id));
    const unknown = labelIds.findIndex((labelId) => !known.has(labelId));
    if (unknown >= 0) throw invalidField(`/labelIds/${unknown}`, 'names no label of this workspace');
    const after = labels.map((label) => label.id).sort();
    const before = comment.labels.map((label) => label.id).sort();
    if (before.join() === after.join()) return null;
    await setCommentLabels(trx, actor.workspaceId, id, after);
    const names = labels.map((label) => label.name).join('\n');
    return { columns: {}, event: { kind: 'labeled', note: names || null } };
  });
}

/** Sets (or clears: null) the day the comment should be fixed by; the same day again changes nothing. */
export function patchComment(deps: CommentDeps, actor: Actor, id: string, patch: CommentPatch) {
  authorizeRole(actor, 'triage');
  return changeComment(deps, actor, id, async (_trx, comment) =>
    patch.dueOn === undefined || patch.dueOn === comment.due_on
      ? null
      : { columns: { due_on: patch.dueOn }, event: { kind: 'due_set', note: patch.dueOn } },
  );
}
