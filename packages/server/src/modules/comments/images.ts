import { type CommentImage, IMAGES_PER_COMMENT_MAX, type ImageQuery } from '@svc/contract';
import type { Actor } from '../../actor.js';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { forbidden, invalidState, notFound } from '../../errors.js';
import { nowIso } from '../../ids.js';
import { authorizeOnComment } from '../../policy.js';
import { insertImage, presentImage, storableImage } from './image-store.js';
import * as repo from './repo.js';
import { type CommentDeps, requireComment } from './service.js';

// The images of a comment's thread: attached to the comment (its author, or the team) or to a
// reply (its author), or the element as the author saw it when giving a verdict (`after`).
// Stored without metadata, served like the screenshot: to whoever may read the comment.

/**
 * Attaches an image to the comment, or to `replyId` (the caller's own reply to it). Its type is
 * read from its bytes, its metadata removed; a thread holds at most 20 (409 past that).
 */
export async function attachImage(
  deps: CommentDeps,
  actor: Actor,
  commentId: string,
  bytes: unknown,
  { reply: replyId, verdict }: ImageQuery,
): Promise<CommentImage> {
  const comment = await requireComment(deps.db, actor, commentId);
  if (replyId === undefined && !verdict) authorizeOnComment(actor, 'comment.attachImage', comment);
  const image = storableImage(bytes);
  return inTransaction(deps.db, async (trx) => {
    const now = nowIso(deps.clock);
    if (verdict) {
      const row = await insertImage(trx, actor, comment, image, await verdictPlace(trx, actor, comment.id), now);
      await repo.updateComment(trx, actor.workspaceId, comment.id, { updated_at: now });
      await deps.events.changed(trx, { workspaceId: actor.workspaceId, projectId: comment.project_id });
      return presentImage(row);
    }
    if (replyId !== undefined) {
      const reply = await trx
        .selectFrom('replies')
        .select('author_id')
        .where('workspace_id', '=', actor.workspaceId)
        .where('comment_id', '=', comment.id)
        .where('id', '=', replyId)
        .executeTakeFirst();
      if (!reply) throw notFound('Reply');
      if (reply.author_id !== actor.id) throw forbidden('Only its author attaches images to a reply.');
    }
    const held = await trx
      .selectFrom('images')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('comment_id', '=', comment.id)
      .executeTakeFirstOrThrow();
    if (Number(held.n) >= IMAGES_PER_COMMENT_MAX) {
      throw invalidState(`A comment's thread holds at most ${IMAGES_PER_COMMENT_MAX} images.`);
    }
    const row = await insertImage(
      trx,
      actor,
      comment,
      image,
      { kind: 'attachment', reply_id: replyId ?? null, event_id: null },
      now,
    );
    // A change of the comment: whoever waits on it (an agent) hears of its image.
    await repo.updateComment(trx, actor.workspaceId, comment.id, { updated_at: now });
    await deps.events.changed(trx, { workspaceId: actor.workspaceId, projectId: comment.project_id });
    return presentImage(row);
  });
}

/**
 * Where the picture of "after" goes: the caller's latest verdict on the comment (Verified or
 * Not fixed), which has none yet; 409 otherwise.
 */
async function verdictPlace(db: Db, actor: Actor, commentId: string) {
  const verdict = await db
    .selectFrom('comment_events')
    .select(['id', 'actor_id'])
    .where('workspace_id', '=', actor.workspaceId)
    .where('comment_id', '=', commentId)
    .where('kind', 'in', ['verified', 'not_fixed'])
    .orderBy('id', 'desc')
    .executeTakeFirst();
  if (!verdict || verdict.actor_id !== actor.id) {
    throw invalidState('The picture of after goes with your verdict: give it first (Verified or Not fixed).');
  }
  const taken = await db.selectFrom('images').select('id').where('event_id', '=', verdict.id).executeTakeFirst();
  if (taken) throw invalidState('This verdict has its picture of after already.');
  return { kind: 'after' as const, reply_id: null, event_id: verdict.id };
}

/** An image's bytes, for whoever may read its comment; 404 otherwise (another workspace's included). */
export async function getImage({ db }: Pick<AppContext, 'db'>, actor: Actor, commentId: string, imageId: string) {
  await requireComment(db, actor, commentId);
  const image = await db
    .selectFrom('images')
    .select(['content_type', 'bytes'])
    .where('workspace_id', '=', actor.workspaceId)
    .where('comment_id', '=', commentId)
    .where('id', '=', imageId)
    .executeTakeFirst();
  if (!image) throw notFound('Image');
  return image;
}
