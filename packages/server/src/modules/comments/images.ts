import { type CommentImage, IMAGES_PER_COMMENT_MAX, type ImageQuery } from '@svc/contract';
import type { Actor } from '../../actor.js';
import type { AppContext } from '../../context.js';
import type { Db, ImageTable } from '../../db/schema.js';
import { inTransaction } from '../../db/transaction.js';
import { AppError, forbidden, invalidState, notFound } from '../../errors.js';
import { newId, nowIso } from '../../ids.js';
import { authorizeOnComment } from '../../policy.js';
import { imageType, UnreadableImage, withoutMetadata } from './image-metadata.js';
import * as repo from './repo.js';
import { type CommentDeps, requireComment } from './service.js';

// The images of a comment's thread: attached to the comment (its author, or the team) or to a
// reply (its author), or the element as the author saw it when giving a verdict (`after`).
// Stored without metadata, served like the screenshot: to whoever may read the comment.

const columns = [
  'images.id',
  'images.kind',
  'images.comment_id',
  'images.reply_id',
  'images.event_id',
  'images.author_id',
  'images.content_type',
  'images.size',
  'images.created_at',
  'users.name as author_name',
] as const;

/** The images of comments (without their bytes), oldest first. */
export const listImagesOf = (db: Db, workspaceId: string, commentIds: readonly string[]) =>
  db
    .selectFrom('images')
    .leftJoin('users', 'users.id', 'images.author_id')
    .select(columns)
    .where('images.workspace_id', '=', workspaceId)
    .where('images.comment_id', 'in', commentIds)
    .orderBy('images.id')
    .execute();

export type ImageRow = Awaited<ReturnType<typeof listImagesOf>>[number];

export const presentImage = (row: ImageRow): CommentImage => ({
  id: row.id,
  kind: row.kind,
  url: `/api/comments/${row.comment_id}/images/${row.id}`,
  contentType: row.content_type,
  bytes: Number(row.size),
  replyId: row.reply_id,
  eventId: row.event_id,
  by: row.author_id ? { id: row.author_id, name: row.author_name ?? 'Former member' } : null,
  createdAt: row.created_at,
});

/** The bytes as stored: an image whose type its bytes say, without metadata; else 415. */
export function storableImage(bytes: unknown): { bytes: Buffer; contentType: string } {
  const type = Buffer.isBuffer(bytes) ? imageType(bytes) : null;
  if (!type || !Buffer.isBuffer(bytes))
    throw new AppError('unsupported_media_type', 'An image must be a PNG, JPEG or WebP file.');
  try {
    return { bytes: withoutMetadata(bytes, type), contentType: type };
  } catch (error) {
    if (error instanceof UnreadableImage) {
      throw new AppError(
        'unsupported_media_type',
        `Not a whole ${type.slice(6).toUpperCase()} image: ${error.message}.`,
      );
    }
    throw error;
  }
}

/** Stores an image of the thread: `kind` attachment, or a verdict's `after` (with its event). */
export async function insertImage(
  db: Db,
  actor: Actor,
  comment: { id: string },
  image: { bytes: Buffer; contentType: string },
  place: Pick<ImageTable, 'kind' | 'reply_id' | 'event_id'>,
  at: string,
): Promise<ImageRow> {
  const row: ImageTable = {
    id: newId('img'),
    workspace_id: actor.workspaceId,
    comment_id: comment.id,
    author_id: actor.id,
    content_type: image.contentType,
    bytes: image.bytes,
    size: image.bytes.length,
    created_at: at,
    ...place,
  };
  await db.insertInto('images').values(row).execute();
  const { bytes: _bytes, workspace_id: _workspace, ...listed } = row;
  return { ...listed, author_name: actor.name };
}

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
