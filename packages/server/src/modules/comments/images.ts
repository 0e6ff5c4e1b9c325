import { type CommentImage, IMAGES_PER_PERSON_MAX, type ImageQuery } from '@svc/contract';
import type { Actor } from '../../actor.js';
import type { AppContext } from '../../context.js';
import type { Db } from '../../db/schema.js';
import { invalidField, invalidState, notFound } from '../../errors.js';
import { nowIso } from '../../ids.js';
import { holdToQuota, paceUpload, storeUpload } from '../storage/uploads.js';
import { type ImagePlace, insertImage, presentImage, storableImage } from './image-store.js';
import { guardComment, guardReply } from './policy.js';
import * as repo from './repo.js';
import { type CommentWriteDeps, requireComment } from './service.js';

// The images of a comment's thread: attached to the comment (its author, or the team) or to a
// reply (its author), the element as the author saw it when giving a verdict (`after`), or as
// their widget saw it last while the fix waits for that verdict (`now`, one a comment: a new
// one replaces it). Stored without metadata, served like the screenshot: to whoever may read
// the comment. Each person attaches at most IMAGES_PER_PERSON_MAX to one thread, a share of
// their own: a cap of the whole thread would let one participant (a guest on its replies) fill
// it for the others. The bytes of a thread are bounded by the workspace's quota, and the
// people in it by who the team lets in.

/**
 * Attaches an image to the comment, to `replyId` (the caller's own reply to it), to the
 * caller's latest verdict (`verdict`), or as the comment's picture of now (`now`). Its type is
 * read from its bytes, its metadata removed; each person attaches at most 20 to a thread (409
 * past that). Paced per person (429), held to the workspace's quota (413).
 */
export async function attachImage(
  deps: CommentWriteDeps,
  actor: Actor,
  commentId: string,
  bytes: unknown,
  { reply: replyId, verdict, now: ofNow }: ImageQuery,
): Promise<CommentImage> {
  if (ofNow && (verdict || replyId !== undefined)) throw invalidField('/now', 'goes alone: not with reply or verdict');
  const comment = await requireComment(deps.db, actor, commentId);
  // Who may (403) first; the picture of now is checked against the state again under the lock.
  if (ofNow) guardComment(actor, 'sendNow', comment);
  else if (replyId === undefined && !verdict) guardComment(actor, 'attachImage', comment);
  await paceUpload(deps, actor, bytes);
  const image = storableImage(bytes);
  // Its caps (a person's share, a verdict's picture, the picture of now) are then counted by one
  // upload after the other, on PostgreSQL too.
  return storeUpload(deps, actor.workspaceId, comment.id, async (trx) => {
    const place = ofNow
      ? await nowPlace(trx, actor, comment.id)
      : verdict
        ? await verdictPlace(trx, actor, comment.id)
        : await attachmentPlace(trx, actor, comment.id, replyId);
    const at = nowIso(deps.clock);
    const row = await insertImage(trx, actor, comment, image, place, at);
    await holdToQuota(trx, deps, actor.workspaceId, image.bytes.length);
    // A change of the comment: whoever waits on it (an agent, the console) hears of its image.
    await repo.updateComment(trx, actor.workspaceId, comment.id, { updated_at: at });
    await deps.events.changed(trx, { workspaceId: actor.workspaceId, projectId: comment.project_id });
    return presentImage(row);
  });
}

/** Where an attached image goes: the comment, or `replyId` (the caller's own); 409 past the caller's share of the thread. */
async function attachmentPlace(db: Db, actor: Actor, commentId: string, replyId: string | undefined) {
  if (replyId !== undefined) {
    const reply = await db
      .selectFrom('replies')
      .select('author_id')
      .where('workspace_id', '=', actor.workspaceId)
      .where('comment_id', '=', commentId)
      .where('id', '=', replyId)
      .executeTakeFirst();
    if (!reply) throw notFound('Reply');
    guardReply(actor, reply);
  }
  // Pictures of after and of now are no attachments: one a verdict, one a comment.
  const held = await db
    .selectFrom('images')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', actor.workspaceId)
    .where('comment_id', '=', commentId)
    .where('kind', '=', 'attachment')
    .where('author_id', '=', actor.id)
    .executeTakeFirstOrThrow();
  if (Number(held.n) >= IMAGES_PER_PERSON_MAX) {
    throw invalidState(
      `Each person attaches at most ${IMAGES_PER_PERSON_MAX} images to a comment's thread (to the comment and to their replies together); you have attached ${Number(held.n)}.`,
    );
  }
  return { kind: 'attachment', reply_id: replyId ?? null, event_id: null, commit_sha: null } satisfies ImagePlace;
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
  return { kind: 'after', reply_id: null, event_id: verdict.id, commit_sha: null } satisfies ImagePlace;
}

/**
 * Where the picture of "now" goes: in place of the comment's one before (deleted, bytes and
 * all), while its fix waits for a verdict (applied or Live, not verified); 409 otherwise. The
 * comment, locked, is read again: two pictures at once replace one another, and a verdict given
 * meanwhile is seen.
 */
async function nowPlace(trx: Db, actor: Actor, commentId: string) {
  const comment = await requireComment(trx, actor, commentId);
  guardComment(actor, 'sendNow', comment);
  await trx
    .deleteFrom('images')
    .where('workspace_id', '=', actor.workspaceId)
    .where('comment_id', '=', commentId)
    .where('kind', '=', 'now')
    .execute();
  return { kind: 'now', reply_id: null, event_id: null, commit_sha: comment.commit_sha } satisfies ImagePlace;
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
