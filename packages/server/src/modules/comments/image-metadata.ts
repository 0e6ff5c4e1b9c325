// An image as stored: PNG, JPEG or WebP by its bytes, without what it says of where, when and
// with what it was made (EXIF and its GPS position, XMP, IPTC, comments, text chunks, times,
// thumbnails). The widget re-encodes what a reviewer attaches, which leaves all of it behind;
// this is for whatever reaches the API. Each format is walked by its structure (segments,
// chunks), never searched for byte patterns, and a file whose structure does not hold is
// refused. What is kept is kept by an allow-list of what drawing needs (the pixels, their
// size, palette, transparency, colour and animation); anything else, known or made up, goes,
// and what is kept but could carry more is rewritten: JFIF's header without its thumbnail,
// Adobe's colour transform at its fixed size, an ICC profile as colour data alone
// (icc-profile.ts). The pixels are not touched (no re-encoding: no loss, and no decoder on the
// server's thread).
//
// Why not a library: the one made for this (exif-be-gone) searches the bytes for markers,
// leaves IPTC, comments and WebP's XMP in, and sizes WebP chunks without their header.

import { crc32, deflateSync, inflateSync } from 'node:zlib';
import { colourOnlyProfile } from './icc-profile.js';

export type ImageType = 'image/png' | 'image/jpeg' | 'image/webp';

/** Why an image was refused. */
export class UnreadableImage extends Error {}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The type an image's bytes say it is, or null. */
export function imageType(bytes: Buffer): ImageType | null {
  if (bytes.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP') {
    return 'image/webp';
  }
  return null;
}

/** The image without its metadata; throws UnreadableImage when its structure does not hold. */
export function withoutMetadata(bytes: Buffer, type: ImageType): Buffer {
  switch (type) {
    case 'image/png':
      return pngWithout(bytes);
    case 'image/jpeg':
      return jpegWithout(bytes);
    case 'image/webp':
      return webpWithout(bytes);
  }
}

const broken = (what: string): never => {
  throw new UnreadableImage(what);
};

/**
 * PNG: the chunks drawing needs are kept, by name: the critical ones the format defines, and
 * transparency, colour, density and animation; every other chunk goes (tEXt, zTXt, iTXt, eXIf,
 * tIME, a suggested palette's, whose name is text, and any a program made up). A critical chunk
 * the format does not define means no viewer can draw the image: it is refused. An ICC profile
 * (iCCP) is kept as colour data alone, under a neutral name.
 */
const PNG_CRITICAL = new Set(['IHDR', 'PLTE', 'IDAT', 'IEND']);
const PNG_KEPT = new Set([
  'tRNS',
  'gAMA',
  'cHRM',
  'sRGB',
  'cICP',
  'mDCv',
  'cLLi',
  'sBIT',
  'pHYs',
  'bKGD',
  'hIST',
  'acTL',
  'fcTL',
  'fdAT',
]);

/** A profile's compressed form is read up to this size: no real profile is near it. */
const ICC_MAX_BYTES = 4 * 1024 * 1024;

function pngWithout(bytes: Buffer): Buffer {
  const kept: Buffer[] = [PNG_SIGNATURE];
  let at = 8;
  let ended = false;
  while (at < bytes.length && !ended) {
    if (at + 12 > bytes.length) broken('a PNG chunk is cut short');
    const length = bytes.readUInt32BE(at);
    const type = bytes.subarray(at + 4, at + 8).toString('latin1');
    const end = at + 12 + length;
    if (!/^[A-Za-z]{4}$/.test(type) || end > bytes.length) broken('a PNG chunk is cut short');
    // A chunk whose name starts in upper case is critical: drawing needs it.
    const critical = type.charCodeAt(0) < 0x61;
    if (critical && !PNG_CRITICAL.has(type)) broken(`a PNG holds a critical chunk no viewer knows (${type})`);
    if (critical || PNG_KEPT.has(type)) kept.push(bytes.subarray(at, end));
    else if (type === 'iCCP') {
      const profile = pngProfile(bytes.subarray(at + 8, end - 4));
      if (profile) kept.push(pngChunk('iCCP', profile));
    }
    ended = type === 'IEND';
    at = end;
  }
  if (!ended) broken('a PNG has no end');
  return Buffer.concat(kept);
}

/** An iCCP chunk's data (a name, then the profile compressed) as kept: a neutral name, the profile's colour data; null to drop it. */
function pngProfile(data: Buffer): Buffer | null {
  const nameEnd = data.indexOf(0);
  if (nameEnd < 1 || nameEnd > 79 || data[nameEnd + 1] !== 0) return null;
  let profile: Buffer;
  try {
    profile = inflateSync(data.subarray(nameEnd + 2), { maxOutputLength: ICC_MAX_BYTES });
  } catch {
    return null;
  }
  const colour = colourOnlyProfile(profile);
  return colour && Buffer.concat([Buffer.from('ICC profile\0\0', 'latin1'), deflateSync(colour)]);
}

/** A PNG chunk of `type` holding `data`, with its checksum. */
function pngChunk(type: string, data: Buffer): Buffer {
  const chunk = Buffer.alloc(12 + data.length);
  chunk.writeUInt32BE(data.length, 0);
  chunk.write(type, 4, 'latin1');
  data.copy(chunk, 8);
  chunk.writeUInt32BE(crc32(chunk.subarray(4, 8 + data.length)), 8 + data.length);
  return chunk;
}

/**
 * JPEG: the segments drawing needs are kept, by marker: frames, Huffman and quantization
 * tables, arithmetic conditioning, restart intervals, line counts, the hierarchical ones and
 * the scans; JFIF's header (APP0) without its thumbnail, Adobe's colour transform (APP14) at
 * its fixed size and the ICC profile (APP2, in as many segments as it takes) as colour data
 * alone. Every other segment goes: the other application segments (EXIF and XMP in APP1, a
 * JFIF extension's thumbnail, IPTC in APP13, a multi-picture index…), comments, and markers
 * the standard reserves. Segments are walked, the scans' data copied as it is (their 0xFF
 * bytes are stuffed or restart markers); nothing after the end of the image is kept.
 */
function jpegWithout(bytes: Buffer): Buffer {
  const kept: Buffer[] = [bytes.subarray(0, 2)];
  const profile: Buffer[] = [];
  /** Where the profile goes: where its first segment was. */
  let profileAt = -1;
  let at = 2;
  let inScan = false;
  let scanFrom = 0;
  while (at < bytes.length) {
    if (inScan) {
      // Scan data until a marker that is neither stuffing (FF 00) nor a restart (FF D0-D7).
      const next = bytes.indexOf(0xff, at);
      if (next < 0 || next + 1 >= bytes.length) broken('a JPEG has no end');
      const marker = bytes[next + 1] as number;
      if (marker === 0x00 || (marker >= 0xd0 && marker <= 0xd7) || marker === 0xff) {
        at = next + (marker === 0xff ? 1 : 2);
        continue;
      }
      kept.push(bytes.subarray(scanFrom, next));
      inScan = false;
      at = next;
      continue;
    }
    if (bytes[at] !== 0xff) broken('a JPEG segment does not start with a marker');
    // Fill bytes before a marker.
    while (bytes[at + 1] === 0xff) at++;
    const marker = bytes[at + 1];
    if (marker === undefined) return broken('a JPEG has no end');
    if (marker === 0xd9) {
      kept.push(bytes.subarray(at, at + 2));
      if (profileAt >= 0) kept.splice(profileAt, 0, ...jpegProfile(profile));
      return Buffer.concat(kept);
    }
    // A marker without a length (TEM, a restart outside a scan) holds nothing to keep.
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (at + 4 > bytes.length) broken('a JPEG segment is cut short');
    const end = at + 2 + bytes.readUInt16BE(at + 2);
    if (end > bytes.length || end < at + 4) broken('a JPEG segment is cut short');
    const payload = bytes.subarray(at + 4, end);
    if (marker === 0xe2 && startsWith(payload, 'ICC_PROFILE\0')) {
      if (profileAt < 0) profileAt = kept.length;
      profile.push(payload);
    } else {
      const segment = jpegSegmentKept(marker, payload);
      if (segment) kept.push(jpegSegment(marker, segment));
    }
    at = end;
    if (marker === 0xda) {
      inScan = true;
      scanFrom = at;
    }
  }
  return broken('a JPEG has no end');
}

const startsWith = (payload: Buffer, text: string) => payload.subarray(0, text.length).toString('latin1') === text;

/** The markers of segments drawing needs, as they are: frames (but C8, reserved), tables, scans, restarts, line counts. */
const isDrawingMarker = (marker: number) =>
  (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc8) || (marker >= 0xda && marker <= 0xdf);

/** A segment's payload as kept (JFIF's and Adobe's rewritten), or null when it goes. */
function jpegSegmentKept(marker: number, payload: Buffer): Buffer | null {
  if (isDrawingMarker(marker)) return payload;
  // JFIF: identifier, version, density units and density; its thumbnail's size set to none.
  if (marker === 0xe0 && startsWith(payload, 'JFIF\0') && payload.length >= 14) {
    const header = Buffer.from(payload.subarray(0, 14));
    header[12] = 0;
    header[13] = 0;
    return header;
  }
  // Adobe: identifier, version, two flag words and the colour transform, which says how to read the channels.
  if (marker === 0xee && startsWith(payload, 'Adobe') && payload.length >= 12) return payload.subarray(0, 12);
  return null;
}

const jpegSegment = (marker: number, payload: Buffer) => {
  const head = Buffer.from([0xff, marker, 0, 0]);
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
};

/** ICC_PROFILE\0, a segment's number (from 1) and the count: before each part of a profile in APP2. */
const ICC_SEGMENT_HEAD = 14;
/** A segment's length is 16 bits, itself included. */
const ICC_PART_MAX = 0xffff - 2 - ICC_SEGMENT_HEAD;

/** The APP2 segments of a profile kept as colour data alone, or none when its parts do not make one. */
function jpegProfile(parts: Buffer[]): Buffer[] {
  const count = parts[0]?.[ICC_SEGMENT_HEAD - 1];
  if (!count || parts.length !== count) return [];
  const ordered: Buffer[] = [];
  for (const part of parts) {
    const number = part[ICC_SEGMENT_HEAD - 2] as number;
    if (number < 1 || number > count || part[ICC_SEGMENT_HEAD - 1] !== count || ordered[number - 1]) return [];
    ordered[number - 1] = part.subarray(ICC_SEGMENT_HEAD);
  }
  const colour = colourOnlyProfile(Buffer.concat(ordered));
  if (!colour) return [];
  const total = Math.ceil(colour.length / ICC_PART_MAX);
  return Array.from({ length: total }, (_, i) =>
    jpegSegment(
      0xe2,
      Buffer.concat([
        Buffer.from('ICC_PROFILE\0', 'latin1'),
        Buffer.from([i + 1, total]),
        colour.subarray(i * ICC_PART_MAX, (i + 1) * ICC_PART_MAX),
      ]),
    ),
  );
}

/**
 * WebP: the chunks drawing needs are kept, by name: the extended header (VP8X), the image
 * (VP8, VP8L) and its transparency (ALPH), animation (ANIM) and its frames (ANMF, each with its
 * own image chunks alone); an ICC profile (ICCP) as colour data alone. Every other chunk goes
 * (EXIF, XMP, and any a program made up), and the header's flags say what is left.
 */
const WEBP_IMAGE = new Set(['VP8 ', 'VP8L', 'ALPH']);

/** VP8X's flags: ICC profile, EXIF, XMP. */
const VP8X_ICC = 0x20;
const VP8X_METADATA = 0x0c;

function webpWithout(bytes: Buffer): Buffer {
  if (bytes.length < 12 || bytes.readUInt32LE(4) + 8 > bytes.length) broken('a WebP file is cut short');
  const kept: Buffer[] = [];
  let header: Buffer | null = null;
  let profile = false;
  for (const { type, data } of webpChunksOf(bytes, 12, bytes.readUInt32LE(4) + 8)) {
    if (type === 'VP8X') {
      header = Buffer.from(data);
      kept.push(header);
    } else if (type === 'ICCP') {
      const colour = colourOnlyProfile(data);
      if (colour) kept.push(webpChunk('ICCP', colour));
      profile ||= colour !== null;
    } else if (type === 'ANMF') kept.push(webpChunk('ANMF', webpFrame(data)));
    else if (WEBP_IMAGE.has(type) || type === 'ANIM') kept.push(webpChunk(type, data));
  }
  // The header's flags say what is left: no EXIF, no XMP, a profile only if one was kept.
  if (header) header[0] = ((header[0] as number) & ~(VP8X_METADATA | VP8X_ICC)) | (profile ? VP8X_ICC : 0);
  const body = Buffer.concat(kept.map((chunk) => (chunk === header ? webpChunk('VP8X', chunk) : chunk)));
  const riff = Buffer.alloc(12);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(body.length + 4, 4);
  riff.write('WEBP', 8, 'latin1');
  return Buffer.concat([riff, body]);
}

/** An animation frame's data as kept: its 16 bytes of position, size and timing, then its image chunks alone. */
function webpFrame(data: Buffer): Buffer {
  if (data.length < 16) broken('a WebP frame is cut short');
  const images = webpChunksOf(data, 16, data.length).filter(({ type }) => WEBP_IMAGE.has(type));
  return Buffer.concat([data.subarray(0, 16), ...images.map(({ type, data: image }) => webpChunk(type, image))]);
}

/** The chunks of a RIFF body from `at` to `end`: each type and data (without its padding). */
function webpChunksOf(bytes: Buffer, at: number, end: number): { type: string; data: Buffer }[] {
  const chunks: { type: string; data: Buffer }[] = [];
  while (at < end) {
    if (at + 8 > end) broken('a WebP chunk is cut short');
    const type = bytes.subarray(at, at + 4).toString('latin1');
    const size = bytes.readUInt32LE(at + 4);
    const next = at + 8 + size + (size % 2);
    if (next > end) broken('a WebP chunk is cut short');
    chunks.push({ type, data: bytes.subarray(at + 8, at + 8 + size) });
    at = next;
  }
  return chunks;
}

const webpChunk = (type: string, data: Buffer) => {
  const head = Buffer.alloc(8);
  head.write(type, 0, 'latin1');
  head.writeUInt32LE(data.length, 4);
  return Buffer.concat([head, data, data.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
};
