import type { Actor } from '../../actor.js';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/schema.js';
import { inTransaction, unlessGone } from '../../db/transaction.js';
import { notFound, storageQuotaExceeded } from '../../errors.js';
import { consumeRateLimit } from '../../limits/rate-limit.js';
import { sizeText, storageOf } from './quota.js';

// What every upload goes through (an image, a screenshot, the picture of now, whatever comes
// later): the pace of the person who sends it, before anything is done with its bytes, and the
// quota of their workspace, in the transaction that stores it. The tests of modules/storage
// list the routes that take an upload: a new one goes through both, and is added there.

/**
 * Counts an upload of `received` bytes against its sender's pace, by number and by weight
 * (429 with Retry-After past either, naming it). Counted before the bytes are read, refused
 * ones included: the work a flood would make us do is what the pace bounds.
 */
export async function paceUpload(deps: Pick<AppContext, 'db' | 'rules' | 'clock'>, actor: Actor, received: unknown) {
  const now = deps.clock.now();
  const bytes = Buffer.isBuffer(received) ? received.length : 0;
  await consumeRateLimit(deps.db, deps.rules.uploads, actor.id, now);
  await consumeRateLimit(deps.db, deps.rules.uploadKilobytes, actor.id, now, Math.max(1, Math.ceil(bytes / 1024)));
}

/**
 * Locks the workspace's row, whose count of what it stores (migration 0025's triggers) a change
 * that adds or deletes an upload writes, until `trx` ends. Taken first, before the comment's
 * (see `Database.lockRows`: the workspace, then people, then comments): an upload or a deletion
 * that held a comment and then waited for the count would wait for a change that holds the count
 * and waits for that comment (a member's removal taking them off it, another deletion).
 */
export async function lockStoredCount(trx: Db, deps: Pick<AppContext, 'database'>, workspaceId: string) {
  await deps.database.lockRows(trx, { table: 'workspaces', workspaceId }, 'update');
}

/**
 * Runs `write`, which stores an upload to comment `commentId`, in a transaction holding the
 * workspace's stored count and then the comment's row (in that order: see `lockStoredCount`), so
 * that uploads at once are counted, capped and replaced one after the other. The comment deleted
 * meanwhile: 404, as it would be a moment later.
 */
export function storeUpload<T>(
  deps: Pick<AppContext, 'db' | 'database'>,
  workspaceId: string,
  commentId: string,
  write: (trx: Db) => Promise<T>,
): Promise<T> {
  return unlessGone(
    deps.database,
    () =>
      inTransaction(deps.db, async (trx) => {
        await lockStoredCount(trx, deps, workspaceId);
        await deps.database.lockComment(trx, workspaceId, commentId);
        return write(trx);
      }),
    () => notFound('Comment'),
  );
}

/**
 * Refuses (413 `storage_quota_exceeded`, the transaction rolled back: nothing stored) an upload
 * of `added` bytes that left the workspace storing more than its quota. Called in `trx` once
 * the upload's rows are written: their count has then added their bytes (and taken off those of
 * a picture they replace) and holds the workspace's row until `trx` ends, so that uploads at
 * once are counted one after the other, each seeing the ones before it.
 */
export async function holdToQuota(
  trx: Db,
  deps: Pick<AppContext, 'rules'>,
  workspaceId: string,
  added: number,
): Promise<void> {
  const { usedBytes, quotaBytes } = await storageOf(trx, workspaceId, deps.rules.storageQuotaBytes);
  if (usedBytes <= quotaBytes) return;
  throw storageQuotaExceeded(
    `This workspace stores at most ${sizeText(quotaBytes)} of images and screenshots; it holds ${sizeText(usedBytes - added)} and this one is ${sizeText(added)}. Deleting comments frees their images; the server's operator can raise the quota.`,
  );
}
