/// <reference lib="dom" />
// Images a person attaches, re-encoded by their browser before they leave it: only the pixels
// are drawn again, so nothing of the file's metadata (a phone photo's location, its camera,
// its time) is sent; the photo is turned upright as its EXIF said and made at most 2,000
// pixels a side, and encoded as every picture the clients send is (see encodedUnder).
// The server strips metadata from whatever reaches its API too.
import type { FetchApiClient } from './fetch-client.js';
import { IMAGE_MAX_BYTES, SCREENSHOT_MAX_BYTES } from './rules.js';

/** The longest side of an image as sent. */
const SIDE_MAX = 2000;

/** Why an image was not taken: not an image the browser can read, or too large even re-encoded. */
export type ImageRefusal = 'unreadable' | 'tooLarge';

/**
 * A canvas encoded as an image that fits in `maxBytes`: WebP, less finely if need be, then
 * JPEG; null when none fits. An engine without a WebP encoder (Safari's) answers PNG when asked
 * for WebP, which is taken when it fits. The one way every picture the clients send is encoded.
 */
export async function encodedUnder(canvas: HTMLCanvasElement, maxBytes: number): Promise<Blob | null> {
  for (const [type, quality] of [
    ['image/webp', 0.85],
    ['image/webp', 0.6],
    ['image/jpeg', 0.6],
    ['image/jpeg', 0.4],
  ] as const) {
    const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, type, quality));
    if (blob && blob.size <= maxBytes) return blob;
  }
  return null;
}

/** The image as it is sent: its pixels re-encoded, or why it cannot be. */
export async function reencodedImage(file: Blob): Promise<Blob | ImageRefusal> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(file, { imageOrientation: 'from-image' });
  } catch {
    return 'unreadable';
  }
  const scale = Math.min(1, SIDE_MAX / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.max(1, Math.round(bitmap.width * scale));
  canvas.height = Math.max(1, Math.round(bitmap.height * scale));
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  return (await encodedUnder(canvas, IMAGE_MAX_BYTES)) ?? 'tooLarge';
}

/** The image files among what was pasted or dropped. */
export function imageFiles(data: DataTransfer | null): File[] {
  return Array.from(data?.files ?? []).filter((file) => file.type.startsWith('image/'));
}

/** A box in CSS pixels of the window a picture was taken of. */
export interface WindowBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * The part of a picture of the window (`windowWidth` CSS pixels wide) around `box`, with room
 * around it: what a card shows of an element. Null when the picture cannot be read.
 */
export async function croppedAround(
  picture: Blob,
  box: WindowBox,
  windowWidth: number,
  room = 48,
): Promise<Blob | null> {
  let bitmap: ImageBitmap;
  try {
    bitmap = await createImageBitmap(picture);
  } catch {
    return null;
  }
  const scale = bitmap.width / windowWidth;
  const left = Math.max(0, Math.floor((box.x - room) * scale));
  const top = Math.max(0, Math.floor((box.y - room) * scale));
  const width = Math.max(1, Math.min(bitmap.width - left, Math.ceil((box.width + 2 * room) * scale)));
  const height = Math.max(1, Math.min(bitmap.height - top, Math.ceil((box.height + 2 * room) * scale)));
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  canvas.getContext('2d')?.drawImage(bitmap, left, top, width, height, 0, 0, width, height);
  bitmap.close();
  return encodedUnder(canvas, SCREENSHOT_MAX_BYTES);
}

/** Sends images to a comment (or to its reply `replyId`), one after the other; how many could not be stored. */
export async function sendImages(
  api: FetchApiClient,
  blobs: Blob[],
  commentId: string,
  replyId?: string,
): Promise<number> {
  let failed = 0;
  for (const blob of blobs) {
    const answer = await api
      .call('POST /api/comments/{id}/images', {
        params: { id: commentId },
        query: replyId ? { reply: replyId } : {},
        body: blob,
      })
      .catch(() => null);
    if (!answer?.ok) failed++;
  }
  return failed;
}
