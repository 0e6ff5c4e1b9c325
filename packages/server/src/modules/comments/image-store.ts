import { type CommentImage, IMAGE_PIXELS_MAX, IMAGE_SIDE_MAX_PX } from '@svc/contract';
import type { Actor } from '../../actor.js';
import type { Db, ImageTable } from '../../db/schema.js';
import { AppError } from '../../errors.js';
import { newId } from '../../ids.js';
import { imageDimensions, withinLimits } from './image-dimensions.js';
import { imageType, UnreadableImage, withoutMetadata } from './image-metadata.js';

// Images as stored and listed: the rows of a thread's images, how the API presents them, and
// the bytes as they may be stored (an image by its bytes, without metadata). What may be
// attached, by whom, is comments/images.ts.

const columns = [
  'images.id',
  'images.kind',
  'images.comment_id',
  'images.reply_id',
  'images.event_id',
  'images.commit_sha',
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

/** Where an image belongs in its thread. */
export type ImagePlace = Pick<ImageTable, 'kind' | 'reply_id' | 'event_id' | 'commit_sha'>;

export const presentImage = (row: ImageRow): CommentImage => ({
  id: row.id,
  kind: row.kind,
  url: `/api/comments/${row.comment_id}/images/${row.id}`,
  contentType: row.content_type,
  bytes: Number(row.size),
  replyId: row.reply_id,
  eventId: row.event_id,
  commitSha: row.commit_sha,
  by: row.author_id ? { id: row.author_id, name: row.author_name ?? 'Former member' } : null,
  createdAt: row.created_at,
});

const figure = (n: number) => n.toLocaleString('en');

/**
 * The bytes as stored: an image whose type its bytes say, without metadata; else 415. One that
 * declares more pixels than the limits is 413, like one of too many bytes: its size is read
 * from its header before anything else is done with it.
 */
export function storableImage(bytes: unknown): { bytes: Buffer; contentType: string } {
  const type = Buffer.isBuffer(bytes) ? imageType(bytes) : null;
  if (!type || !Buffer.isBuffer(bytes))
    throw new AppError('unsupported_media_type', 'An image must be a PNG, JPEG or WebP file.');
  try {
    const size = imageDimensions(bytes, type);
    if (!withinLimits(size)) {
      throw new AppError(
        'payload_too_large',
        `An image may be at most ${figure(IMAGE_SIDE_MAX_PX)} pixels a side and ${figure(IMAGE_PIXELS_MAX / 1_000_000)} megapixels; this one declares ${figure(size.width)} × ${figure(size.height)}.`,
      );
    }
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

/** Stores an image of the thread: `kind` attachment, a verdict's `after` (with its event), or the picture of `now` (with its commit). */
export async function insertImage(
  db: Db,
  actor: Actor,
  comment: { id: string },
  image: { bytes: Buffer; contentType: string },
  place: ImagePlace,
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
