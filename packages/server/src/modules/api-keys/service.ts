import type { Actor } from '../../actor.js';
import type { AppContext } from '../../context.js';
import { inTransaction } from '../../db/transaction.js';
import { conflict, notFound, unauthenticated } from '../../errors.js';
import { pageRequest } from '../../http/pagination.js';
import { requireName } from '../../http/validation.js';
import { newId, nowIso } from '../../ids.js';
import { consumeRateLimit } from '../../limits/rate-limit.js';
import { authorize } from '../../policy.js';
import { type AuditBy, auditBy, recordAudit } from '../audit/audit.js';
import { findUserById } from '../auth/repo.js';
import { forgetCredentials } from '../auth/service.js';
import { issueToken } from '../auth/tokens.js';
import * as repo from './repo.js';

export type ApiKeyDeps = Pick<AppContext, 'db' | 'database' | 'rules' | 'clock'>;

type Deps = ApiKeyDeps;

export async function listApiKeys(
  { db }: Pick<AppContext, 'db'>,
  actor: Actor,
  query: { limit?: number; cursor?: string },
) {
  authorize(actor, 'apiKeys.manage');
  const { limit, after, fetch } = pageRequest(query);
  return { rows: await repo.listApiKeys(db, actor.workspaceId, actor.id, { before: after, limit: fetch }), limit };
}

export async function createApiKey(deps: Deps, actor: Actor, name: string) {
  authorize(actor, 'apiKeys.manage');
  await consumeRateLimit(deps.db, deps.rules.apiKeys, actor.id, deps.clock.now());
  return issueApiKey(deps, { id: actor.id, workspace_id: actor.workspaceId }, name, auditBy(actor));
}

/**
 * A new key of `user`, within the per-user cap, recorded as `by`'s action; the key is in the
 * answer, once. Under the person's lock, held until it commits (see `Database.lockRows`): keys
 * asked for at once are counted one after the other, and a removal (which ends every key) comes
 * wholly before, and then `gone` is thrown, or wholly after.
 */
export async function issueApiKey(
  deps: Deps,
  user: { id: string; workspace_id: string },
  name: string,
  by: AuditBy,
  gone: () => Error = () => unauthenticated(),
) {
  const keyName = requireName(name, '/name');
  const { token, hash } = issueToken('apiKey');
  const row = {
    id: newId('key'),
    workspace_id: user.workspace_id,
    user_id: user.id,
    name: keyName,
    key_hash: hash,
    last_four: token.slice(-4),
    created_at: nowIso(deps.clock),
  };
  await inTransaction(deps.db, async (trx) => {
    await deps.database.lockRows(trx, { table: 'users', workspaceId: user.workspace_id, ids: [user.id] }, 'update');
    if (!(await findUserById(trx, user.workspace_id, user.id))) throw gone();
    const held = await repo.countApiKeys(trx, user.workspace_id, user.id);
    if (held >= deps.rules.apiKeysPerUser) {
      throw conflict(`You hold ${held} API keys, the most one person may: revoke one you no longer use first.`);
    }
    await repo.insertApiKey(trx, row);
    await recordAudit(
      trx,
      by,
      'api_key_created',
      { kind: 'api_key', id: row.id, label: row.name },
      `…${row.last_four}`,
    );
  });
  return { id: row.id, name: row.name, key: token, createdAt: row.created_at };
}

/** Revokes one of the caller's keys, at once in every server process. */
export async function revokeApiKey(deps: Deps, actor: Actor, keyId: string): Promise<void> {
  authorize(actor, 'apiKeys.manage');
  await inTransaction(deps.db, async (trx) => {
    const key = await repo.deleteApiKey(trx, actor.workspaceId, actor.id, keyId);
    if (!key) throw notFound('API key');
    await forgetCredentials(deps, trx, [key.key_hash]);
    await recordAudit(
      trx,
      auditBy(actor),
      'api_key_revoked',
      { kind: 'api_key', id: keyId, label: key.name },
      'its owner',
    );
  });
}

/** Every key of the workspace, with its owner (admin). */
export async function listWorkspaceApiKeys(
  { db }: Pick<AppContext, 'db'>,
  actor: Actor,
  query: { limit?: number; cursor?: string },
) {
  authorize(actor, 'apiKeys.manageAll');
  const { limit, after, fetch } = pageRequest(query);
  return { rows: await repo.listWorkspaceApiKeys(db, actor.workspaceId, { before: after, limit: fetch }), limit };
}

/** Revokes anyone's key of the workspace (admin), at once in every server process. */
export async function revokeWorkspaceApiKey(deps: Deps, actor: Actor, keyId: string): Promise<void> {
  authorize(actor, 'apiKeys.manageAll');
  await inTransaction(deps.db, async (trx) => {
    const key = await repo.deleteWorkspaceApiKey(trx, actor.workspaceId, keyId);
    if (!key) throw notFound('API key');
    await forgetCredentials(deps, trx, [key.key_hash]);
    const whose = key.user_id === actor.id ? 'its owner' : `an admin, of user ${key.user_id}`;
    await recordAudit(trx, auditBy(actor), 'api_key_revoked', { kind: 'api_key', id: keyId, label: key.name }, whose);
  });
}
