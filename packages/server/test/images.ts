// Images for the tests: small real files (made by Chromium's encoders, in ./fixtures) and the
// same with the metadata a phone or an editor writes into them: EXIF with a GPS position, XMP,
// IPTC, a comment (JPEG); text, EXIF and time chunks (PNG); EXIF and XMP chunks (WebP).
import fs from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';

const fixture = (name: string) => fs.readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

export const cleanJpeg = fixture('two-colours.jpg');
export const cleanPng = fixture('two-colours.png');
export const cleanWebp = fixture('two-colours.webp');

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

const jpegSegment = (marker: number, payload: Buffer) => {
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

const webpChunk = (type: string, data: Buffer) => {
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
  const body = Buffer.concat([chunks, webpChunk('EXIF', exifTiff()), webpChunk('XMP ', XMP)]);
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
