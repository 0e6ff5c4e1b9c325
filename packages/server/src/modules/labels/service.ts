import { type CreateLabelBody, LABELS_MAX, type Label, type UpdateLabelBody } from '@svc/contract';
import type { Actor } from '../../actor.js';
import type { AppContext } from '../../context.js';
import { inTransaction } from '../../db/transaction.js';
import { conflict, notFound } from '../../errors.js';
import { requireName } from '../../http/validation.js';
import { newId, nowIso } from '../../ids.js';
import { authorize } from '../../policy.js';
import * as repo from './repo.js';

// The workspace's labels ("Bug", "Design", "Question"), each a name and a colour of a fixed
// palette; admins make them, the team puts them on comments (see comments/triage.ts).

type Deps = Pick<AppContext, 'db' | 'database' | 'events' | 'clock'>;

export async function listLabels({ db }: Pick<AppContext, 'db'>, actor: Actor): Promise<Label[]> {
  authorize(actor, 'workspace.readLabels');
  return repo.listLabels(db, actor.workspaceId);
}

const taken = (name: string) => conflict(`The workspace has a label named "${name}" already.`);

/**
 * Makes a label. Creations and renames of one workspace's labels take its row's lock, one at
 * a time, so that the cap and the unique name hold however many arrive at once (the unique
 * index says the same of a name written another way: an import).
 */
export async function createLabel(deps: Deps, actor: Actor, input: CreateLabelBody): Promise<Label> {
  authorize(actor, 'workspace.manageLabels');
  const name = requireName(input.name, '/name');
  return uniqueName(deps, name, () =>
    inTransaction(deps.db, async (trx) => {
      await deps.database.lockRows(trx, { table: 'workspaces', workspaceId: actor.workspaceId }, 'update');
      if (await repo.nameTaken(trx, actor.workspaceId, name.toLowerCase())) throw taken(name);
      if ((await repo.listLabels(trx, actor.workspaceId)).length >= LABELS_MAX) {
        throw conflict(`A workspace has at most ${LABELS_MAX} labels: delete one you no longer use first.`);
      }
      const label = { id: newId('lbl'), name, color: input.color };
      await repo.insertLabel(trx, {
        ...label,
        workspace_id: actor.workspaceId,
        name_key: name.toLowerCase(),
        created_at: nowIso(deps.clock),
      });
      return label;
    }),
  );
}

/** `write`, its unique name's violation said as the name taken. */
async function uniqueName<T>(deps: Deps, name: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (deps.database.isUniqueViolation(error)) throw taken(name);
    throw error;
  }
}

export async function updateLabel(deps: Deps, actor: Actor, id: string, input: UpdateLabelBody): Promise<Label> {
  authorize(actor, 'workspace.manageLabels');
  const name = input.name === undefined ? undefined : requireName(input.name, '/name');
  const change = () =>
    inTransaction(deps.db, async (trx) => {
      if (name !== undefined) {
        await deps.database.lockRows(trx, { table: 'workspaces', workspaceId: actor.workspaceId }, 'update');
      }
      const [label] = await repo.findLabels(trx, actor.workspaceId, [id]);
      if (!label) throw notFound('Label');
      if (name !== undefined && (await repo.nameTaken(trx, actor.workspaceId, name.toLowerCase(), id))) {
        throw taken(name);
      }
      const changed = {
        ...label,
        ...(name === undefined ? {} : { name }),
        ...(input.color ? { color: input.color } : {}),
      };
      await repo.updateLabel(trx, actor.workspaceId, id, {
        name: changed.name,
        name_key: changed.name.toLowerCase(),
        color: changed.color,
      });
      return changed;
    });
  return name === undefined ? change() : uniqueName(deps, name, change);
}

/** Deletes a label: it comes off every comment, whose watchers hear of it. */
export async function deleteLabel(deps: Deps, actor: Actor, id: string): Promise<void> {
  authorize(actor, 'workspace.manageLabels');
  await inTransaction(deps.db, async (trx) => {
    // Comments being given it meanwhile (which lock it to share) are done first, or refused after.
    await deps.database.lockRows(trx, { table: 'labels', workspaceId: actor.workspaceId, ids: [id] }, 'update');
    const [label] = await repo.findLabels(trx, actor.workspaceId, [id]);
    if (!label) throw notFound('Label');
    for (const projectId of await repo.deleteLabel(trx, actor.workspaceId, id)) {
      await deps.events.changed(trx, { workspaceId: actor.workspaceId, projectId });
    }
  });
}
