import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Browser, chromium } from 'playwright-core';
import {
  cleanJpeg,
  cleanPng,
  cleanWebp,
  jpegSegment,
  jpegSegments,
  jpegWithProfile,
  pngChunk,
  pngWith,
  profileOf,
  profileTags,
  riff,
  SECRETS,
  tracedProfile,
  webpChunk,
  webpChunks,
  webpWith,
} from '../../../test/images.js';
import { type ImageType, UnreadableImage, withoutMetadata } from './image-metadata.js';

// What a stored image keeps is an allow-list of what drawing needs; each case below is a file
// crafted with something else in it, where metadata hides past a naive stripper.

/** None of the metadata's words, in any encoding a format writes text in, is left. */
const noSecret = (stored: Buffer) => {
  for (const secret of [...SECRETS, "Ada's MacBook"]) {
    for (const encoded of [Buffer.from(secret, 'latin1'), Buffer.from(secret, 'utf16le').swap16()]) {
      assert.equal(stored.includes(encoded), false, `"${secret}" is gone`);
    }
  }
};

/** The colour tags of the crafted profile, as a stored profile must keep them. */
const COLOUR = ['rXYZ', 'gXYZ', 'bXYZ', 'wtpt', 'rTRC', 'gTRC', 'bTRC'];

describe('image metadata: kept by an allow-list of what drawing needs', () => {
  test("a JPEG's JFIF thumbnail and its JFIF extension (JFXX) go; its density stays", () => {
    const jfif = jpegSegments(cleanJpeg)[0]?.payload as Buffer;
    // JFIF's header with a 13 × 1 thumbnail: 39 bytes of RGB that say what the photo showed.
    const withThumbnail = Buffer.concat([
      jfif.subarray(0, 12),
      Buffer.from([13, 1]),
      Buffer.from('Taken at home'.repeat(3), 'latin1'),
    ]);
    const extension = Buffer.concat([Buffer.from('JFXX\0\x10', 'latin1'), Buffer.from('Phone-Cam 15 Pro', 'latin1')]);
    const rest = cleanJpeg.subarray(6 + jfif.length);
    const crafted = Buffer.concat([
      cleanJpeg.subarray(0, 2),
      jpegSegment(0xe0, withThumbnail),
      jpegSegment(0xe0, extension),
      rest,
    ]);
    const stored = withoutMetadata(crafted, 'image/jpeg');
    noSecret(stored);
    const app0 = jpegSegments(stored).filter((segment) => segment.marker === 0xe0);
    assert.equal(app0.length, 1, 'one APP0: JFIF, without its extension');
    assert.deepEqual(
      app0[0]?.payload,
      Buffer.concat([jfif.subarray(0, 12), Buffer.from([0, 0])]),
      'density kept, no thumbnail',
    );
  });

  test('JPEG segments the standard reserves, a multi-picture index and what trails Adobe’s colour transform go', () => {
    const jfifEnd = 4 + cleanJpeg.readUInt16BE(4);
    const adobe = Buffer.concat([
      Buffer.from('Adobe\0\x64\0\0\0\0\x01', 'latin1'),
      Buffer.from('Taken at home', 'latin1'),
    ]);
    const crafted = Buffer.concat([
      cleanJpeg.subarray(0, jfifEnd),
      jpegSegment(0xf0, Buffer.from('JPG0: Taken at home', 'latin1')),
      jpegSegment(0xc8, Buffer.from('JPG: Phone-Cam 15 Pro', 'latin1')),
      jpegSegment(0x4f, Buffer.from('reserved: 52.5200 N', 'latin1')),
      jpegSegment(0xe2, Buffer.from('MPF\0II*\0 Taken at home', 'latin1')),
      jpegSegment(0xee, adobe),
      cleanJpeg.subarray(jfifEnd),
      Buffer.from('after the end: Taken at home', 'latin1'),
    ]);
    const stored = withoutMetadata(crafted, 'image/jpeg');
    noSecret(stored);
    const markers = jpegSegments(stored).map((segment) => segment.marker);
    for (const gone of [0xf0, 0xc8, 0x4f]) assert.ok(!markers.includes(gone), `marker ${gone.toString(16)} gone`);
    const kept = jpegSegments(stored).find((segment) => segment.marker === 0xee);
    assert.deepEqual(kept?.payload, adobe.subarray(0, 12), 'the colour transform, at its size');
    assert.deepEqual(stored.subarray(-2), Buffer.from([0xff, 0xd9]), 'nothing after the end of the image');
  });

  test('an ICC profile keeps its colour and loses its text, in a JPEG (over three segments), a PNG and a WebP', () => {
    const profile = tracedProfile();
    const crafted: [Buffer, ImageType][] = [
      [jpegWithProfile(profile, 3), 'image/jpeg'],
      [pngWith([], { profile, name: "Ada's MacBook" }), 'image/png'],
      [webpWith(profile), 'image/webp'],
    ];
    const sent = profileTags(profile);
    for (const [image, type] of crafted) {
      assert.ok(image.includes(Buffer.from('APPL')) || type === 'image/png', 'the file sent holds it');
      const stored = withoutMetadata(image, type);
      noSecret(stored);
      const kept = profileOf(stored);
      assert.ok(kept, `${type}: a profile is kept`);
      noSecret(kept);
      const tags = profileTags(kept);
      assert.deepEqual([...tags.keys()].sort(), [...COLOUR, 'desc'].sort(), `${type}: colour tags and a description`);
      for (const signature of COLOUR)
        assert.deepEqual(tags.get(signature), sent.get(signature), `${type}: ${signature}`);
      assert.ok(tags.get('desc')?.includes(Buffer.from('ICC profile', 'utf16le').swap16()), 'a neutral description');
      // The header: what the numbers mean kept; who made it, with what and when, zeroed.
      assert.deepEqual(kept.subarray(8, 24), profile.subarray(8, 24), 'version, class, colour spaces');
      assert.deepEqual(kept.subarray(24, 36), Buffer.alloc(12), 'no date');
      assert.deepEqual(kept.subarray(48, 56), Buffer.alloc(8), 'no maker or model');
      assert.deepEqual(kept.subarray(80, 84), Buffer.alloc(4), 'no creator');
      assert.equal(kept.readUInt32BE(0), kept.length, "the profile's size is its own");
      if (type === 'image/jpeg') {
        const parts = jpegSegments(stored).filter((segment) => segment.marker === 0xe2);
        assert.equal(parts.length, 1, 'the three parts joined, in one segment');
        assert.deepEqual([...(parts[0]?.payload.subarray(12, 14) ?? [])], [1, 1]);
      }
      if (type === 'image/png')
        assert.ok(stored.includes(Buffer.from('iCCPICC profile\0', 'latin1')), 'a neutral name');
      // Stripped again, nothing changes.
      assert.deepEqual(withoutMetadata(stored, type), stored);
    }
  });

  test('a profile that does not read as one is dropped whole, and a WebP then says it has none', () => {
    const broken = Buffer.concat([Buffer.from('not a profile: Taken at home', 'latin1'), Buffer.alloc(200)]);
    const webp = withoutMetadata(webpWith(broken), 'image/webp');
    assert.equal(profileOf(webp), null);
    assert.equal((webp[20] as number) & 0x20, 0, 'VP8X no longer announces a profile');
    noSecret(webp);
    assert.equal(profileOf(withoutMetadata(jpegWithProfile(broken), 'image/jpeg')), null);
    // One part of three missing: no profile to read.
    const partial = jpegWithProfile(tracedProfile(), 3);
    const second = jpegSegments(partial).findIndex((s) => s.marker === 0xe2 && s.payload[12] === 2);
    const segments = jpegSegments(partial);
    const cut = segments.slice(0, second).reduce((n, s) => n + 4 + s.payload.length, 2);
    const without = Buffer.concat([
      partial.subarray(0, cut),
      partial.subarray(cut + 4 + (segments[second]?.payload.length ?? 0)),
    ]);
    assert.equal(profileOf(withoutMetadata(without, 'image/jpeg')), null);
  });

  test("WebP: chunks a program made up go, in the file and in an animation's frames; the header's flags say what is left", () => {
    const secret = Buffer.from('Taken at home, 52.5200 N', 'latin1');
    const stored = withoutMetadata(
      webpWith(tracedProfile(), [webpChunk('SECR', secret), webpChunk('XYZW', secret)]),
      'image/webp',
    );
    noSecret(stored);
    assert.deepEqual(webpChunks(stored), ['VP8X', 'ICCP', 'VP8 ']);
    // An animation of one frame: its frame holds its image and a chunk of its own.
    const image = chunksOf(cleanWebp).find((chunk) => chunk.type === 'VP8 ')?.data as Buffer;
    const frame = Buffer.concat([Buffer.alloc(16), webpChunk('VP8 ', image), webpChunk('SECR', secret)]);
    const header = Buffer.from(chunksOf(cleanWebp).find((chunk) => chunk.type === 'VP8X')?.data as Buffer);
    header[0] = 0x02;
    const animated = riff([webpChunk('VP8X', header), webpChunk('ANIM', Buffer.alloc(6)), webpChunk('ANMF', frame)]);
    const kept = withoutMetadata(animated, 'image/webp');
    noSecret(kept);
    assert.deepEqual(webpChunks(kept), ['VP8X', 'ANIM', 'ANMF']);
    const keptFrame = chunksOf(kept).find((chunk) => chunk.type === 'ANMF')?.data as Buffer;
    assert.deepEqual(webpChunks(riff([keptFrame.subarray(16)])), ['VP8 ']);
  });

  test('PNG: a suggested palette goes with its name; a critical chunk no viewer knows is refused', () => {
    const palette = Buffer.concat([Buffer.from('Taken at home\0\x08', 'latin1'), Buffer.alloc(6)]);
    const stored = withoutMetadata(pngWith([pngChunk('sPLT', palette)]), 'image/png');
    noSecret(stored);
    assert.deepEqual(stored, cleanPng);
    assert.throws(
      () => withoutMetadata(pngWith([pngChunk('SECR', Buffer.from('Taken at home', 'latin1'))]), 'image/png'),
      (error: Error) =>
        error instanceof UnreadableImage && /critical chunk no viewer knows \(SECR\)/.test(error.message),
    );
  });
});

describe('image metadata: what is kept still draws, in the colours its profile says (Chromium)', () => {
  let browser: Browser;
  before(async () => {
    // Debian's Chromium, as the browser tests of the widget and the console launch it.
    browser = await chromium.launch({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run'],
    });
  });
  after(() => browser.close());

  /** In the page: each image drawn on a canvas, the colour a quarter across and halfway down read back (as sRGB). */
  const DRAW = `async (sources) => Promise.all(sources.map(async (source) => {
    const image = new Image();
    image.src = source;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.naturalWidth;
    canvas.height = image.naturalHeight;
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0);
    return [...context.getImageData(Math.floor(canvas.width / 4), Math.floor(canvas.height / 2), 1, 1).data];
  }))`;

  /** The colour Chromium draws of each image. */
  async function drawn(images: [Buffer, ImageType][]): Promise<number[][]> {
    const page = await browser.newPage();
    try {
      const sources = images.map(([bytes, type]) => `data:${type};base64,${bytes.toString('base64')}`);
      return (await page.evaluate(`(${DRAW})(${JSON.stringify(sources)})`)) as number[][];
    } finally {
      await page.close();
    }
  }

  test('each format with the crafted profile: drawn the same sent and stored, and not as it would be without the profile', async () => {
    const profile = tracedProfile();
    for (const [sent, type, plain] of [
      [jpegWithProfile(profile, 3), 'image/jpeg', cleanJpeg],
      [pngWith([], { profile, name: "Ada's MacBook" }), 'image/png', cleanPng],
      [webpWith(profile), 'image/webp', cleanWebp],
    ] as const) {
      const [asSent, asStored, asPlain] = await drawn([
        [sent, type],
        [withoutMetadata(sent, type), type],
        [plain, type],
      ]);
      assert.deepEqual(asStored, asSent, `${type}: drawn as sent`);
      assert.notDeepEqual(asSent, asPlain, `${type}: the profile changes the colour, so keeping it matters`);
    }
  });
});

/** A WebP's chunks from `at`: each type and data. */
function chunksOf(webp: Buffer, at = 12): { type: string; data: Buffer }[] {
  const chunks: { type: string; data: Buffer }[] = [];
  while (at + 8 <= webp.length) {
    const size = webp.readUInt32LE(at + 4);
    chunks.push({ type: webp.subarray(at, at + 4).toString('latin1'), data: webp.subarray(at + 8, at + 8 + size) });
    at += 8 + size + (size % 2);
  }
  return chunks;
}
