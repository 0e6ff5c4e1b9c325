import type { AuditAction, AuditEvent, AuditQuery } from '@svc/contract';
import type { Actor } from '../../actor.js';
import type { Db } from '../../db/schema.js';
import { invalidField } from '../../errors.js';
import { pageRequest } from '../../http/pagination.js';
import { newId } from '../../ids.js';
import { authorize } from '../../policy.js';

// The workspace's audit log: who did what to whom, when, from which address. Each action is
// recorded by the feature that performs it, in the same transaction where it has one, so that
// an action that fails records nothing (a failed sign-in is itself the action, and is recorded).

/** What an action acted on: its kind, id and what it was called then (ids outlive names). */
export interface AuditTarget {
  kind: 'user' | 'invitation' | 'api_key' | 'project' | 'session';
  id: string | null;
  label: string;
}

/** Who acted and from where: a signed-in caller, or an account signing in. */
export interface AuditBy {
  workspaceId: string;
  /** Null for the operator's admin command. */
  actor: { id: string; name: string } | null;
  address: string | null;
}

export const auditBy = (actor: Actor): AuditBy => ({
  workspaceId: actor.workspaceId,
  actor: { id: actor.id, name: actor.name },
  address: actor.address ?? null,
});

export async function recordAudit(
  db: Db,
  by: AuditBy,
  action: AuditAction,
  target: AuditTarget | null = null,
  detail: string | null = null,
  at = new Date().toISOString(),
): Promise<void> {
  await db
    .insertInto('audit_events')
    .values({
      id: newId('aud'),
      workspace_id: by.workspaceId,
      action,
      actor_id: by.actor?.id ?? null,
      actor_name: by.actor?.name ?? null,
      address: by.address,
      target_kind: target?.kind ?? null,
      target_id: target?.id ?? null,
      target_label: target?.label ?? null,
      detail,
      created_at: at,
    })
    .execute();
}

function instant(value: string | undefined, path: string): string | undefined {
  if (value === undefined) return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw invalidField(path, 'must be a date-time');
  return new Date(ms).toISOString();
}

/** The workspace's audit log, newest first, filtered; admins only. */
export async function listAudit(db: Db, actor: Actor, query: AuditQuery) {
  authorize(actor, 'workspace.readAudit');
  const { limit, after, fetch } = pageRequest(query);
  const since = instant(query.since, '/since');
  const until = instant(query.until, '/until');
  let select = db.selectFrom('audit_events as a').selectAll('a').where('a.workspace_id', '=', actor.workspaceId);
  if (after) select = select.where('a.id', '<', after);
  if (query.action) select = select.where('a.action', '=', query.action);
  if (query.actor) select = select.where('a.actor_id', '=', query.actor);
  if (since) select = select.where('a.created_at', '>=', since);
  if (until) select = select.where('a.created_at', '<', until);
  const rows = await select.orderBy('a.id', 'desc').limit(fetch).execute();
  return { rows, limit };
}

export type AuditRow = Awaited<ReturnType<typeof listAudit>>['rows'][number];

export const presentAudit = (row: AuditRow): AuditEvent => ({
  id: row.id,
  action: row.action,
  at: row.created_at,
  actor: row.actor_id ? { id: row.actor_id, name: row.actor_name ?? '' } : null,
  address: row.address,
  target:
    row.target_kind && row.target_label !== null
      ? { kind: row.target_kind, id: row.target_id, label: row.target_label }
      : null,
  detail: row.detail,
});

/** Deletes events older than `days` days before `now`, a batch at a time; how many went. */
export async function pruneAudit(db: Db, days: number, now: number, batch = 5000): Promise<number> {
  const cutoff = new Date(now - days * 24 * 60 * 60 * 1000).toISOString();
  let deleted = 0;
  for (;;) {
    const ids = db.selectFrom('audit_events').select('id').where('created_at', '<', cutoff).limit(batch);
    const result = await db.deleteFrom('audit_events').where('id', 'in', ids).executeTakeFirst();
    const count = Number(result.numDeletedRows);
    deleted += count;
    if (count < batch) return deleted;
  }
}
