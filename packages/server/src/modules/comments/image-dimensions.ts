// An image's size as its header declares it, read before anything draws or stores it: a
// compressed image of a hundred kilobytes can declare 100,000 × 100,000 pixels (40 GB once
// drawn), and whoever draws it later (the console, a browser, an agent) pays. PNG's IHDR,
// JPEG's start of frame, WebP's first chunk (VP8, VP8L or VP8X); an animation's frames lie
// inside its canvas, so the canvas is the size.
import { IMAGE_PIXELS_MAX, IMAGE_SIDE_MAX_PX } from '@svc/contract';
import { type ImageType, UnreadableImage } from './image-metadata.js';

export interface Dimensions {
  width: number;
  height: number;
}

/** Whether an image of this size is within both limits. */
export const withinLimits = ({ width, height }: Dimensions) =>
  width <= IMAGE_SIDE_MAX_PX && height <= IMAGE_SIDE_MAX_PX && width * height <= IMAGE_PIXELS_MAX;

/** The width and height the image's header declares; throws UnreadableImage when it has none. */
export function imageDimensions(bytes: Buffer, type: ImageType): Dimensions {
  switch (type) {
    case 'image/png':
      return pngDimensions(bytes);
    case 'image/jpeg':
      return jpegDimensions(bytes);
    case 'image/webp':
      return webpDimensions(bytes);
  }
}

const unreadable = (what: string): never => {
  throw new UnreadableImage(what);
};

/** PNG: the first chunk is IHDR, its width and height the first eight bytes of its data. */
function pngDimensions(bytes: Buffer): Dimensions {
  if (bytes.length < 24 || bytes.subarray(12, 16).toString('latin1') !== 'IHDR') {
    unreadable('a PNG does not start with its header');
  }
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/**
 * JPEG: the segments are walked up to the first scan; every start of frame (C0-CF but C4, C8
 * and CC, which are tables) declares height then width. A height of 0 (to be given after the
 * first scan, which nothing makes any more) is refused: the size must be known before drawing.
 */
function jpegDimensions(bytes: Buffer): Dimensions {
  let found: Dimensions | null = null;
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) unreadable('a JPEG segment does not start with a marker');
    const marker = bytes[at + 1] as number;
    if (marker === 0xff) {
      at++;
      continue;
    }
    if (marker === 0xda || marker === 0xd9) break;
    const length = bytes.readUInt16BE(at + 2);
    const isFrame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrame) {
      if (at + 9 > bytes.length) unreadable('a JPEG frame header is cut short');
      const frame = { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
      if (frame.height === 0 || frame.width === 0) unreadable('a JPEG does not declare its size in its frame header');
      found = found ?? frame;
      if (!withinLimits(frame)) return frame;
    }
    at += 2 + length;
  }
  return found ?? unreadable('a JPEG has no frame header before its image data');
}

/**
 * WebP: a simple file's one chunk is VP8 (lossy: 14-bit sizes after its start code) or VP8L
 * (lossless: 14-bit sizes less one, after its signature); an extended file's first chunk is
 * VP8X (24-bit canvas sizes less one).
 */
function webpDimensions(bytes: Buffer): Dimensions {
  if (bytes.length < 30) unreadable('a WebP file is cut short');
  const chunk = bytes.subarray(12, 16).toString('latin1');
  const data = 20;
  switch (chunk) {
    case 'VP8 ':
      if (bytes[data + 3] !== 0x9d || bytes[data + 4] !== 0x01 || bytes[data + 5] !== 0x2a) {
        unreadable('a WebP frame has no start code');
      }
      return { width: bytes.readUInt16LE(data + 6) & 0x3fff, height: bytes.readUInt16LE(data + 8) & 0x3fff };
    case 'VP8L': {
      if (bytes[data] !== 0x2f) unreadable('a lossless WebP has no signature');
      const bits = bytes.readUInt32LE(data + 1);
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    case 'VP8X':
      return { width: bytes.readUIntLE(data + 4, 3) + 1, height: bytes.readUIntLE(data + 7, 3) + 1 };
    default:
      return unreadable('a WebP file does not start with its image header');
  }
}
