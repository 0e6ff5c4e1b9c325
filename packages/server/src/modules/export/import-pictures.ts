import type { Kysely } from 'kysely';
import type { Tables } from '../../db/schema.js';
import { newId } from '../../ids.js';
import { sizeText, storageOf } from '../storage/quota.js';
import { holdToQuota } from '../storage/uploads.js';
import { ImportError } from './import-error.js';
import type { ExportedComment } from './import-file.js';
import { foreignIds } from './import-foreign-ids.js';
import {
  type ImportPlan,
  type ImportProgress,
  type ImportReport,
  type Pictures,
  ROWS_PER_INSERT,
} from './import-plan.js';
import type { ExportZip, ZipPicture } from './import-zip.js';

// The export's zip of screenshots, images and replays in an import: each file checked in its
// place as the file's comments are (its comment's project, its image one the comment lists),
// then all of them against other workspaces and the storage quota; then written with their
// comments' batch, each once.

/**
 * The zip's files of `comment` are in its project, and each image one the comment lists (the
 * zip says which comment an image is of, the file where in its thread: a reply of its own, a
 * verdict of its timeline, a person the file lists).
 */
export function checkPlaces(zip: ExportZip, line: number, comment: ExportedComment, people: Set<string>) {
  const replies = new Set(comment.replies.map((reply) => reply.id));
  const events = new Set(comment.timeline.map((event) => event.id));
  const images = new Map((comment.images ?? []).map((image) => [image.id, image]));
  for (const picture of zip.byComment.get(comment.id) ?? []) {
    const refuse = (why: string) => {
      throw new ImportError(`${zip.label}: ${picture.name}: ${why} (line ${line})`);
    };
    if (picture.projectKey !== comment.projectKey)
      refuse(`comment ${comment.id} is of project "${comment.projectKey}" in the file`);
    if (picture.imageId === null) continue;
    const image = images.get(picture.imageId);
    if (!image) return refuse(`comment ${comment.id} lists no image ${picture.imageId}`);
    if (image.replyId !== null && !replies.has(image.replyId))
      refuse(`its reply ${image.replyId} is not the comment's`);
    if (image.eventId !== null && !events.has(image.eventId))
      refuse(`its verdict ${image.eventId} is not in the comment's timeline`);
    if (image.by && !people.has(image.by.id)) refuse(`its author ${image.by.id} is not listed before it`);
  }
  zip.matched.add(comment.id);
}

/**
 * The zip's files, once the file is checked: each of a comment the file holds, with an image
 * id of no other workspace, held to its upload's checks; and what they add within the storage
 * quota of the workspace (its own, if it is here already; else the server's).
 */
export async function checkPictures(
  db: Kysely<Tables>,
  plan: ImportPlan,
  { zip, rules }: Pictures,
  progress: ImportProgress,
) {
  const defaultQuotaBytes = rules.storageQuotaBytes;
  const workspaceId = plan.workspace.id;
  for (const [commentId, pictures] of zip.byComment) {
    const [first] = pictures;
    if (!zip.matched.has(commentId) && first)
      throw new ImportError(`${zip.label}: ${first.name}: the file holds no comment ${commentId}`);
  }
  const all = [...zip.byComment.values()].flat();
  const imageIds = all.flatMap((picture) => (picture.imageId ? [picture.imageId] : []));
  const [foreign] = await foreignIds(db, 'images', workspaceId, imageIds);
  if (foreign) throw new ImportError(`${zip.label}: image ${foreign} belongs to another workspace on this server`);
  let adding = 0;
  let checked = 0;
  for (let at = 0; at < all.length; at += ROWS_PER_INSERT) {
    const page = all.slice(at, at + ROWS_PER_INSERT);
    const here = await picturesHere(db, workspaceId, page);
    for (const picture of page) {
      const { bytes } = await zip.storable(picture);
      if (!here.has(slotOf(picture))) adding += bytes.length;
      checked += 1;
      if (checked % 100 === 0) progress('pictures', checked);
    }
  }
  progress('pictures', checked);
  const here = await db.selectFrom('workspaces').select('id').where('id', '=', workspaceId).executeTakeFirst();
  const { usedBytes, quotaBytes } = here
    ? await storageOf(db, workspaceId, defaultQuotaBytes)
    : { usedBytes: 0, quotaBytes: defaultQuotaBytes };
  if (usedBytes + adding > quotaBytes) {
    throw new ImportError(
      `${zip.label}: its screenshots, images and replays take ${sizeText(adding)}, past the storage quota of the workspace (${sizeText(quotaBytes)}${usedBytes ? `, ${sizeText(usedBytes)} of it used` : ''}): raise the server's (SVC_STORAGE_QUOTA_MB), or import the file alone, give the workspace a quota of its own (set-storage-quota) and import both again`,
    );
  }
}

/** Where a picture goes: its comment's screenshot or replay, or its image. */
const slotOf = (picture: ZipPicture) => picture.imageId ?? `${picture.commentId}/${picture.kind}`;

/** The slots of `pictures` that hold a picture already in the workspace (the same import run before). */
async function picturesHere(db: Kysely<Tables>, workspaceId: string, pictures: ZipPicture[]): Promise<Set<string>> {
  const imageIds = pictures.flatMap((picture) => (picture.imageId ? [picture.imageId] : []));
  const commentIds = [...new Set(pictures.filter((picture) => !picture.imageId).map((picture) => picture.commentId))];
  const here = new Set<string>();
  if (imageIds.length) {
    const rows = await db
      .selectFrom('images')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', imageIds)
      .execute();
    for (const row of rows) here.add(row.id);
  }
  if (commentIds.length) {
    const rows = await db
      .selectFrom('attachments')
      .select(['comment_id', 'kind'])
      .where('workspace_id', '=', workspaceId)
      .where('comment_id', 'in', commentIds)
      .execute();
    for (const row of rows) here.add(`${row.comment_id}/${row.kind}`);
  }
  return here;
}

/**
 * The batch's pictures from the zip, each in its place: a comment's screenshot and replay (one
 * each), its images with their ids, reply, verdict, commit and author as the file lists them.
 * One that is here already is left as it is (the same import run again adds nothing); an image
 * of a reply deleted since is not written. Held to the workspace's quota, as an upload is.
 */
export async function writePictures(
  trx: Kysely<Tables>,
  report: ImportReport,
  comments: ExportedComment[],
  { zip, rules }: Pictures,
) {
  const workspaceId = report.workspace.id;
  const counts = report.pictures ?? { added: { screenshots: 0, images: 0, replays: 0 }, present: 0 };
  const replyIds = comments.flatMap((c) =>
    (c.images ?? []).flatMap((image) => (image.replyId && zip.byComment.has(c.id) ? [image.replyId] : [])),
  );
  const replies = new Set<string>();
  for (let at = 0; at < replyIds.length; at += ROWS_PER_INSERT) {
    const rows = await trx
      .selectFrom('replies')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', replyIds.slice(at, at + ROWS_PER_INSERT))
      .execute();
    for (const row of rows) replies.add(row.id);
  }
  let added = 0;
  for (const c of comments) {
    const images = new Map((c.images ?? []).map((image) => [image.id, image]));
    for (const picture of zip.byComment.get(c.id) ?? []) {
      const image = picture.imageId ? images.get(picture.imageId) : undefined;
      if (image?.replyId && !replies.has(image.replyId)) continue;
      const { bytes, contentType } = await zip.storable(picture);
      const stored = {
        workspace_id: workspaceId,
        comment_id: c.id,
        content_type: contentType,
        bytes,
        size: bytes.length,
      };
      const result = image
        ? await trx
            .insertInto('images')
            .values({
              ...stored,
              id: image.id,
              kind: image.kind,
              reply_id: image.replyId,
              event_id: image.eventId,
              commit_sha: image.commitSha,
              author_id: image.by?.id ?? null,
              created_at: image.createdAt,
            })
            .onConflict((oc) => oc.doNothing())
            .executeTakeFirst()
        : await trx
            .insertInto('attachments')
            .values({
              ...stored,
              id: newId('att'),
              kind: picture.kind === 'replay' ? 'replay' : 'screenshot',
              created_at: (picture.kind === 'replay' ? c.replay : c.screenshot)?.createdAt ?? c.createdAt,
            })
            .onConflict((oc) => oc.doNothing())
            .executeTakeFirst();
      if (Number(result.numInsertedOrUpdatedRows ?? 0) === 0) {
        counts.present += 1;
        continue;
      }
      added += bytes.length;
      counts.added[picture.kind === 'image' ? 'images' : picture.kind === 'replay' ? 'replays' : 'screenshots'] += 1;
    }
  }
  // Counted by the triggers as every upload is (migration 0025): refused past the quota, the batch rolled back.
  if (added) await holdToQuota(trx, { rules }, workspaceId, added);
}
