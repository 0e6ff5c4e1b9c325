// An image as stored: PNG, JPEG or WebP by its bytes, without what it says of where, when and
// with what it was made (EXIF and its GPS position, XMP, IPTC, comments, text chunks, times).
// The widget re-encodes what a reviewer attaches, which leaves all of it behind; this is for
// whatever reaches the API. Each format is walked by its structure (segments, chunks), never
// searched for byte patterns, and a file whose structure does not hold is refused. The pixels
// are not touched (no re-encoding: no loss, and no decoder on the server's thread).
//
// Why not a library: the one made for this (exif-be-gone) searches the bytes for markers,
// leaves IPTC, comments and WebP's XMP in, and sizes WebP chunks without their header.

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
 * PNG: the chunks an image needs to be drawn as made (critical ones, transparency, colour,
 * density, animation) are kept; every other ancillary chunk goes (tEXt, zTXt, iTXt, eXIf,
 * tIME, and any a program made up).
 */
const PNG_KEPT = new Set([
  'tRNS',
  'gAMA',
  'cHRM',
  'sRGB',
  'iCCP',
  'cICP',
  'mDCv',
  'cLLi',
  'sBIT',
  'pHYs',
  'bKGD',
  'hIST',
  'sPLT',
  'acTL',
  'fcTL',
  'fdAT',
]);

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
    if (critical || PNG_KEPT.has(type)) kept.push(bytes.subarray(at, end));
    ended = type === 'IEND';
    at = end;
  }
  if (!ended) broken('a PNG has no end');
  return Buffer.concat(kept);
}

/**
 * JPEG: application segments go but JFIF's (APP0), an ICC colour profile (APP2) and Adobe's
 * colour transform (APP14), which drawing needs; comments (COM) go. Segments are walked, the
 * scans' data copied as it is (their 0xFF bytes are stuffed or restart markers).
 */
function jpegWithout(bytes: Buffer): Buffer {
  const kept: Buffer[] = [bytes.subarray(0, 2)];
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
    if (marker === undefined) broken('a JPEG has no end');
    if (marker === 0xd9) {
      kept.push(bytes.subarray(at, at + 2));
      return Buffer.concat(kept);
    }
    if (at + 4 > bytes.length) broken('a JPEG segment is cut short');
    const end = at + 2 + bytes.readUInt16BE(at + 2);
    if (end > bytes.length) broken('a JPEG segment is cut short');
    const payload = bytes.subarray(at + 4, end);
    if (jpegSegmentKept(marker as number, payload)) kept.push(bytes.subarray(at, end));
    at = end;
    if (marker === 0xda) {
      inScan = true;
      scanFrom = at;
    }
  }
  return broken('a JPEG has no end');
}

function jpegSegmentKept(marker: number, payload: Buffer): boolean {
  const starts = (text: string) => payload.subarray(0, text.length).toString('latin1') === text;
  if (marker === 0xe0) return starts('JFIF\0');
  if (marker === 0xe2) return starts('ICC_PROFILE\0');
  if (marker === 0xee) return starts('Adobe');
  // The other application segments (EXIF and XMP in APP1, IPTC in APP13…) and comments.
  return !(marker >= 0xe1 && marker <= 0xef) && marker !== 0xfe;
}

/** WebP: its EXIF and XMP chunks go, and the header stops announcing them. */
function webpWithout(bytes: Buffer): Buffer {
  if (bytes.length < 12 || bytes.readUInt32LE(4) + 8 > bytes.length) broken('a WebP file is cut short');
  const end = bytes.readUInt32LE(4) + 8;
  const kept: Buffer[] = [];
  let at = 12;
  while (at < end) {
    if (at + 8 > end) broken('a WebP chunk is cut short');
    const type = bytes.subarray(at, at + 4).toString('latin1');
    const size = bytes.readUInt32LE(at + 4);
    const next = at + 8 + size + (size % 2);
    if (next > end) broken('a WebP chunk is cut short');
    if (type === 'VP8X') {
      const chunk = Buffer.from(bytes.subarray(at, next));
      // Its flags: EXIF (0x08) and XMP (0x04) no longer present.
      chunk[8] = (chunk[8] as number) & ~0x0c;
      kept.push(chunk);
    } else if (type !== 'EXIF' && type !== 'XMP ') kept.push(bytes.subarray(at, next));
    at = next;
  }
  const body = Buffer.concat(kept);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(body.length + 4, 4);
  header.write('WEBP', 8, 'latin1');
  return Buffer.concat([header, body]);
}
