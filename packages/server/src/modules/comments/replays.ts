import { gunzipSync } from 'node:zlib';
import { REPLAY_MAX_BYTES, REPLAY_UNPACKED_MAX_BYTES } from '@svc/contract';
import type { Actor } from '../../actor.js';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/schema.js';
import { AppError, invalidState, notFound } from '../../errors.js';
import { newId, nowIso } from '../../ids.js';
import { sizeText } from '../storage/quota.js';
import { holdToQuota, paceUpload, storeUpload } from '../storage/uploads.js';
import { guardComment } from './policy.js';
import * as repo from './repo.js';
import { type CommentWriteDeps, requireComment } from './service.js';

// The replay of the moments before a comment, kept by the widget of a project that keeps
// replays (see projects' `replay` settings) and sent with the comment by its author. Stored as
// the comment's attachment of kind `replay`, beside its screenshot and as it: the same reader
// (whoever may read the comment, 404 across workspaces), deleted with the comment, counted in
// the workspace's stored bytes (migration 0025's triggers count every attachment), paced and
// held to the quota as every upload. Kept compressed, as the browser sent it: the server reads
// it once, to refuse what is no replay, and never again.

const CONTENT_TYPE = 'application/gzip';

/** The bytes as stored: gzipped JSON, an array of rrweb's events; 413 past the limits, 415 when it is none. */
export function storableReplay(bytes: unknown): Buffer {
  const gzipped = Buffer.isBuffer(bytes) && bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
  if (!gzipped) throw new AppError('unsupported_media_type', "A replay is rrweb's events as a JSON array, gzipped.");
  if (bytes.length > REPLAY_MAX_BYTES) {
    throw new AppError(
      'payload_too_large',
      `A replay may be at most ${sizeText(REPLAY_MAX_BYTES)} as sent; this one is ${sizeText(bytes.length)}. Nothing was stored.`,
    );
  }
  let text: string;
  try {
    text = gunzipSync(bytes, { maxOutputLength: REPLAY_UNPACKED_MAX_BYTES }).toString('utf8');
  } catch (error) {
    if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new AppError(
        'payload_too_large',
        `A replay may hold at most ${sizeText(REPLAY_UNPACKED_MAX_BYTES)} once decompressed; this one holds more. Nothing was stored.`,
      );
    }
    throw new AppError('unsupported_media_type', 'Not a whole gzip file: the replay is cut short or damaged.');
  }
  if (!isEvents(text)) {
    throw new AppError(
      'unsupported_media_type',
      "A replay is rrweb's events as a JSON array (each with a numeric type and timestamp).",
    );
  }
  return bytes;
}

function isEvents(text: string): boolean {
  try {
    const events: unknown = JSON.parse(text);
    return (
      Array.isArray(events) &&
      events.every(
        (event) =>
          typeof event === 'object' &&
          event !== null &&
          typeof (event as { type?: unknown }).type === 'number' &&
          typeof (event as { timestamp?: unknown }).timestamp === 'number',
      )
    );
  } catch {
    return false;
  }
}

/** Whether the comment's project keeps replays now (an admin may have turned them off since the page loaded). */
async function keepsReplays(db: Db, workspaceId: string, projectId: string): Promise<boolean> {
  const project = await db
    .selectFrom('projects')
    .select('replay_on')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', projectId)
    .executeTakeFirst();
  return Number(project?.replay_on) === 1;
}

/**
 * Stores the comment's replay (its author, as its screenshot; a new one replaces the old). 409
 * when its project keeps no replays; refused uploads write nothing. Paced per person (429),
 * held to the workspace's quota (413).
 */
export async function putReplay(deps: CommentWriteDeps, actor: Actor, commentId: string, bytes: unknown) {
  const comment = await requireComment(deps.db, actor, commentId);
  guardComment(actor, 'attachScreenshot', comment);
  if (!(await keepsReplays(deps.db, actor.workspaceId, comment.project_id))) {
    throw invalidState('This project keeps no replays: an admin turns them on in its settings.');
  }
  await paceUpload(deps, actor, bytes);
  const stored = storableReplay(bytes);
  // Two at once replace one another rather than both finding none to replace.
  return storeUpload(deps, actor.workspaceId, comment.id, async (trx) => {
    const now = nowIso(deps.clock);
    await trx
      .deleteFrom('attachments')
      .where('workspace_id', '=', actor.workspaceId)
      .where('comment_id', '=', comment.id)
      .where('kind', '=', 'replay')
      .execute();
    await trx
      .insertInto('attachments')
      .values({
        id: newId('att'),
        workspace_id: actor.workspaceId,
        comment_id: comment.id,
        kind: 'replay',
        content_type: CONTENT_TYPE,
        bytes: stored,
        size: stored.length,
        created_at: now,
      })
      .execute();
    await holdToQuota(trx, deps, actor.workspaceId, stored.length);
    // A change of the comment: whoever waits on it hears of its replay.
    await repo.updateComment(trx, actor.workspaceId, comment.id, { updated_at: now });
    await deps.events.changed(trx, { workspaceId: actor.workspaceId, projectId: comment.project_id });
    return requireComment(trx, actor, commentId);
  });
}

/** The comment's replay, gzipped, for whoever may read the comment; 404 otherwise (another workspace's included). */
export async function getReplay({ db }: Pick<AppContext, 'db'>, actor: Actor, commentId: string) {
  await requireComment(db, actor, commentId);
  const replay = await db
    .selectFrom('attachments')
    .select(['content_type', 'bytes'])
    .where('workspace_id', '=', actor.workspaceId)
    .where('comment_id', '=', commentId)
    .where('kind', '=', 'replay')
    .executeTakeFirst();
  if (!replay) throw notFound('Replay');
  return replay;
}
