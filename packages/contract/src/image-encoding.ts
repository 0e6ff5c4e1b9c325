/// <reference lib="dom" />
// Images a person attaches, re-encoded by their browser before they leave it: only the pixels
// are drawn again, so nothing of the file's metadata (a phone photo's location, its camera,
// its time) is sent; the photo is turned upright as its EXIF said and made at most 2,000
// pixels a side. WebP where the browser encodes it, JPEG where it does not (Safari's engine).
// The server strips metadata from whatever reaches its API too.
import { IMAGE_MAX_BYTES } from './rules.js';

/** The longest side of an image as sent. */
const SIDE_MAX = 2000;

/** Why an image was not taken: not an image the browser can read, or too large even re-encoded. */
export type ImageRefusal = 'unreadable' | 'tooLarge';

function encoded(canvas: HTMLCanvasElement, type: string, quality: number): Promise<Blob | null> {
  return new Promise((resolve) => canvas.toBlob(resolve, type, quality));
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
  let blob = await encoded(canvas, 'image/webp', 0.85);
  // An engine without a WebP encoder answers PNG: JPEG is far smaller for a photo.
  if (blob?.type !== 'image/webp') blob = await encoded(canvas, 'image/jpeg', 0.85);
  if (!blob) return 'unreadable';
  return blob.size > IMAGE_MAX_BYTES ? 'tooLarge' : blob;
}

/** The image files among what was pasted or dropped. */
export function imageFiles(data: DataTransfer | null): File[] {
  return Array.from(data?.files ?? []).filter((file) => file.type.startsWith('image/'));
}
