// Images for the tests: small real files (made by Chromium's encoders, in ./fixtures) and the
// same with the metadata a phone or an editor writes into them: EXIF with a GPS position, XMP,
// IPTC, a comment (JPEG); text, EXIF and time chunks (PNG); EXIF and XMP chunks (WebP).
import fs from 'node:fs';
import { crc32, deflateSync, gzipSync, inflateSync } from 'node:zlib';
import { multiLocalized } from '../src/modules/comments/icc-profile.js';

const fixture = (name: string) => fs.readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

export const cleanJpeg = fixture('two-colours.jpg');
export const cleanPng = fixture('two-colours.png');
export const cleanWebp = fixture('two-colours.webp');

/** A replay as the widget sends it: rrweb's events (a full snapshot, a click on `label`), gzipped. */
export const replayOf = (label: string) =>
  gzipSync(
    JSON.stringify([
      { type: 4, timestamp: 1000, data: { href: 'https://app.example.test/pricing', width: 800, height: 600 } },
      { type: 2, timestamp: 1001, data: { node: { type: 0, childNodes: [], id: 1 }, initialOffset: {} } },
      { type: 3, timestamp: 1500, data: { source: 2, type: 2, id: 1, label } },
    ]),
  );

/** What the metadata says, to look for in what is stored: none of it may remain. */
export const SECRETS = ['52.5200 N', 'Phone-Cam 15 Pro', 'Exif', 'xap/1.0', 'Taken at home'];

/** A TIFF structure (little-endian) as EXIF holds it: a camera's make and a GPS position. */
function exifTiff(): Buffer {
  const make = Buffer.from('Phone-Cam 15 Pro\0', 'latin1');
  const place = Buffer.from('52.5200 N 13.4050 E\0', 'latin1');
  // IFD0 at 8: 2 entries (Make, GPS IFD pointer); GPS IFD after it: 1 entry (an ASCII area).
  const ifd0 = 8;
  const gps = ifd0 + 2 + 2 * 12 + 4;
  const makeAt = gps + 2 + 12 + 4;
  const placeAt = makeAt + make.length;
  const tiff = Buffer.alloc(placeAt + place.length);
  tiff.write('II', 0, 'latin1');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(ifd0, 4);
  tiff.writeUInt16LE(2, ifd0);
  const entry = (at: number, tag: number, type: number, count: number, value: number) => {
    tiff.writeUInt16LE(tag, at);
    tiff.writeUInt16LE(type, at + 2);
    tiff.writeUInt32LE(count, at + 4);
    tiff.writeUInt32LE(value, at + 8);
  };
  entry(ifd0 + 2, 0x010f, 2, make.length, makeAt);
  entry(ifd0 + 14, 0x8825, 4, 1, gps);
  tiff.writeUInt16LE(1, gps);
  entry(gps + 2, 0x001c, 7, place.length, placeAt);
  make.copy(tiff, makeAt);
  place.copy(tiff, placeAt);
  return tiff;
}

export const jpegSegment = (marker: number, payload: Buffer) => {
  const head = Buffer.alloc(4);
  head[0] = 0xff;
  head[1] = marker;
  head.writeUInt16BE(payload.length + 2, 2);
  return Buffer.concat([head, payload]);
};

const XMP = Buffer.from(
  'http://ns.adobe.com/xap/1.0/\0<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:Description exif:GPSLatitude="52.5200 N"/></x:xmpmeta>',
  'latin1',
);

/** The clean JPEG with EXIF (GPS), XMP, IPTC and a comment after its JFIF segment. */
export function jpegWithMetadata(jpeg = cleanJpeg): Buffer {
  const jfifEnd = 2 + 2 + jpeg.readUInt16BE(4);
  return Buffer.concat([
    jpeg.subarray(0, jfifEnd),
    jpegSegment(0xe1, Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), exifTiff()])),
    jpegSegment(0xe1, XMP),
    jpegSegment(0xed, Buffer.from('Photoshop 3.0\0 8BIM Taken at home', 'latin1')),
    jpegSegment(0xfe, Buffer.from('Taken at home', 'latin1')),
    jpeg.subarray(jfifEnd),
  ]);
}

/** A PNG chunk of `type` holding `data`, with its checksum. */
export const pngChunk = (type: string, data: Buffer) => {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
};

/** The clean PNG told apart by `n` (a density chunk, which a stored image keeps): for tests that match files. */
export function numberedPng(n: number, png = cleanPng): Buffer {
  const headerEnd = 8 + 12 + png.readUInt32BE(8);
  const density = Buffer.alloc(9);
  density.writeUInt32BE(n, 0);
  density.writeUInt32BE(n, 4);
  return Buffer.concat([png.subarray(0, headerEnd), pngChunk('pHYs', density), png.subarray(headerEnd)]);
}

/**
 * A whole PNG of `width` × `height` pixels of noise (the same for the same `seed`), which does not
 * compress: for tests that need an image of a given size, about 3 bytes a pixel.
 */
export function noisePng(width: number, height: number, seed = 1): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per channel
  header[9] = 2; // RGB
  const rows = Buffer.alloc((width * 3 + 1) * height);
  let state = seed;
  for (let at = 0; at < rows.length; at++) {
    // Each row starts with its filter (0, none); the rest is an LCG's bytes.
    state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
    rows[at] = at % (width * 3 + 1) === 0 ? 0 : state >>> 24;
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** A PNG declaring `width` × `height`, its pixel data a token few bytes. */
export function pngOf(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // RGB
  return Buffer.concat([
    cleanPng.subarray(0, 8),
    pngChunk('IHDR', header),
    pngChunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The clean PNG with text, EXIF and time chunks after its header. */
export function pngWithMetadata(png = cleanPng): Buffer {
  const headerEnd = 8 + 12 + png.readUInt32BE(8);
  return Buffer.concat([
    png.subarray(0, headerEnd),
    pngChunk('tEXt', Buffer.from('Comment\0Taken at home', 'latin1')),
    pngChunk('eXIf', exifTiff()),
    pngChunk('tIME', Buffer.from([0x07, 0xea, 11, 27, 12, 0, 0])),
    pngChunk('iTXt', Buffer.concat([Buffer.from('XML:com.adobe.xmp\0\0\0\0\0', 'latin1'), XMP])),
    png.subarray(headerEnd),
  ]);
}

export const webpChunk = (type: string, data: Buffer) => {
  const head = Buffer.alloc(8);
  head.write(type, 0, 'latin1');
  head.writeUInt32LE(data.length, 4);
  return Buffer.concat([head, data, data.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
};

/** The clean WebP (which has a VP8X header) with EXIF and XMP chunks, announced by its flags. */
export function webpWithMetadata(webp = cleanWebp): Buffer {
  const chunks = Buffer.from(webp.subarray(12));
  // VP8X's flags: EXIF (0x08) and XMP (0x04) present.
  chunks[8] = (chunks[8] as number) | 0x0c;
  return riff([chunks, webpChunk('EXIF', exifTiff()), webpChunk('XMP ', XMP)]);
}

/** A WebP file of `chunks`: the RIFF header, its size the chunks'. */
export function riff(chunks: Buffer[]): Buffer {
  const body = Buffer.concat(chunks);
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(body.length + 4, 4);
  header.write('WEBP', 8, 'latin1');
  return Buffer.concat([header, body]);
}

/** The chunks of a WebP file, by type, in order. */
export function webpChunks(webp: Buffer): string[] {
  const types: string[] = [];
  for (let at = 12; at + 8 <= webp.length; ) {
    const size = webp.readUInt32LE(at + 4);
    types.push(webp.subarray(at, at + 4).toString('latin1'));
    at += 8 + size + (size % 2);
  }
  return types;
}

// ICC colour profiles, as the fixtures' encoder (Skia) writes them and as they can be written
// with text and traces in them: for the tests of what a stored image keeps of its profile.

/** The tags of a profile, by signature: each tag's data. */
export function profileTags(profile: Buffer): Map<string, Buffer> {
  const tags = new Map<string, Buffer>();
  for (let i = 0; i < profile.readUInt32BE(128); i++) {
    const at = 132 + i * 12;
    const offset = profile.readUInt32BE(at + 4);
    tags.set(
      profile.subarray(at, at + 4).toString('latin1'),
      profile.subarray(offset, offset + profile.readUInt32BE(at + 8)),
    );
  }
  return tags;
}

/** A profile of `tags` under `header` (128 bytes), each tag's data on its own. */
export function iccProfile(header: Buffer, tags: [string, Buffer][]): Buffer {
  const table = 128 + 4 + tags.length * 12;
  const datas: Buffer[] = [];
  let at = table;
  const entries = tags.map(([signature, data]) => {
    const entry = Buffer.alloc(12);
    entry.write(signature, 0, 'latin1');
    entry.writeUInt32BE(at, 4);
    entry.writeUInt32BE(data.length, 8);
    const padded = Buffer.concat([data, Buffer.alloc((4 - (data.length % 4)) % 4)]);
    datas.push(padded);
    at += padded.length;
    return entry;
  });
  const head = Buffer.from(header.subarray(0, 128));
  head.writeUInt32BE(at, 0);
  const count = Buffer.alloc(4);
  count.writeUInt32BE(tags.length, 0);
  return Buffer.concat([head, count, ...entries, ...datas]);
}

/** The segments of a JPEG up to its first scan, each marker and payload. */
export function jpegSegments(jpeg: Buffer): { marker: number; payload: Buffer }[] {
  const segments: { marker: number; payload: Buffer }[] = [];
  for (let at = 2; at + 4 <= jpeg.length && jpeg[at + 1] !== 0xda; ) {
    const end = at + 2 + jpeg.readUInt16BE(at + 2);
    segments.push({ marker: jpeg[at + 1] as number, payload: jpeg.subarray(at + 4, end) });
    at = end;
  }
  return segments;
}

/** The ICC profile of a JPEG (its APP2 parts joined), of a PNG (iCCP, inflated) or of a WebP (ICCP), or null. */
export function profileOf(image: Buffer): Buffer | null {
  if (image[0] === 0xff) {
    const parts = jpegSegments(image).filter(
      (s) => s.marker === 0xe2 && s.payload.subarray(0, 12).toString('latin1') === 'ICC_PROFILE\0',
    );
    return parts.length ? Buffer.concat(parts.map((part) => part.payload.subarray(14))) : null;
  }
  if (image.subarray(0, 4).toString('latin1') === 'RIFF') {
    for (let at = 12; at + 8 <= image.length; ) {
      const size = image.readUInt32LE(at + 4);
      if (image.subarray(at, at + 4).toString('latin1') === 'ICCP') return image.subarray(at + 8, at + 8 + size);
      at += 8 + size + (size % 2);
    }
    return null;
  }
  for (let at = 8; at + 12 <= image.length; ) {
    const length = image.readUInt32BE(at);
    if (image.subarray(at + 4, at + 8).toString('latin1') === 'iCCP') {
      const data = image.subarray(at + 8, at + 8 + length);
      return inflateSync(data.subarray(data.indexOf(0) + 2));
    }
    at += 12 + length;
  }
  return null;
}

/**
 * A profile that shows colours wrongly unless a viewer applies it (the fixtures' sRGB with its
 * red and blue primaries swapped), holding text and traces: a description, a copyright, a
 * device's maker, model and description, a creator and a date of its own.
 */
export function tracedProfile(): Buffer {
  const skia = profileOf(cleanWebp) as Buffer;
  const tags = profileTags(skia);
  const header = Buffer.from(skia.subarray(0, 128));
  header.write('ADAM', 80, 'latin1');
  header.write('APPL', 48, 'latin1');
  header.write('MBP1', 52, 'latin1');
  header.writeUInt16BE(2025, 24);
  return iccProfile(header, [
    ['desc', multiLocalized("Ada's MacBook, Taken at home")],
    ['cprt', multiLocalized('Taken at home')],
    ['dmnd', multiLocalized('Phone-Cam 15 Pro')],
    ['dmdd', multiLocalized('52.5200 N')],
    ['rXYZ', tags.get('bXYZ') as Buffer],
    ['gXYZ', tags.get('gXYZ') as Buffer],
    ['bXYZ', tags.get('rXYZ') as Buffer],
    ['wtpt', tags.get('wtpt') as Buffer],
    ['rTRC', tags.get('rTRC') as Buffer],
    ['gTRC', tags.get('gTRC') as Buffer],
    ['bTRC', tags.get('bTRC') as Buffer],
  ]);
}

/** The clean JPEG with `profile` in place of its own, over `parts` APP2 segments. */
export function jpegWithProfile(profile: Buffer, parts = 1, jpeg = cleanJpeg): Buffer {
  const jfifEnd = 2 + 2 + jpeg.readUInt16BE(4);
  const rest: Buffer[] = [];
  for (let at = jfifEnd; ; ) {
    const marker = jpeg[at + 1] as number;
    const end = at + 2 + jpeg.readUInt16BE(at + 2);
    if (marker === 0xda) {
      rest.push(jpeg.subarray(at));
      break;
    }
    if (marker !== 0xe2) rest.push(jpeg.subarray(at, end));
    at = end;
  }
  const size = Math.ceil(profile.length / parts);
  const app2 = Array.from({ length: parts }, (_, i) =>
    jpegSegment(
      0xe2,
      Buffer.concat([
        Buffer.from('ICC_PROFILE\0', 'latin1'),
        Buffer.from([i + 1, parts]),
        profile.subarray(i * size, (i + 1) * size),
      ]),
    ),
  );
  return Buffer.concat([jpeg.subarray(0, jfifEnd), ...app2, ...rest]);
}

/** The clean WebP with `profile` in place of its own, and the chunks `extra` after its image. */
export function webpWith(profile: Buffer | null, extra: Buffer[] = [], webp = cleanWebp): Buffer {
  const chunks: Buffer[] = [];
  for (let at = 12; at + 8 <= webp.length; ) {
    const size = webp.readUInt32LE(at + 4);
    const type = webp.subarray(at, at + 4).toString('latin1');
    const next = at + 8 + size + (size % 2);
    if (type === 'ICCP') {
      if (profile) chunks.push(webpChunk('ICCP', profile));
    } else chunks.push(webp.subarray(at, next));
    at = next;
  }
  return riff([...chunks, ...extra]);
}

/** The clean PNG with `chunks` after its header (an iCCP of `profile` first, under `name`). */
export function pngWith(chunks: Buffer[], profile?: { profile: Buffer; name: string }, png = cleanPng): Buffer {
  const headerEnd = 8 + 12 + png.readUInt32BE(8);
  const iccp = profile
    ? [pngChunk('iCCP', Buffer.concat([Buffer.from(`${profile.name}\0\0`, 'latin1'), deflateSync(profile.profile)]))]
    : [];
  return Buffer.concat([png.subarray(0, headerEnd), ...iccp, ...chunks, png.subarray(headerEnd)]);
}
