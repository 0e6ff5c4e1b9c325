import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { IMAGE_PIXELS_MAX, IMAGE_SIDE_MAX_PX } from '@svc/contract';
import {
  addMember,
  call,
  createComment,
  createProject,
  createTestApp,
  type Member,
  signUp,
  type TestApp,
} from '../../../test/helpers.js';
import { cleanJpeg, cleanPng, cleanWebp, pngOf } from '../../../test/images.js';

// Decompression bombs: a file of a few hundred bytes whose header declares more pixels than
// anything should draw. Each is whole by its structure (the metadata walk would take it); only
// its declared size refuses it.

/** The clean JPEG with its start of frame saying `width` × `height`. */
function jpegOf(width: number, height: number): Buffer {
  const jpeg = Buffer.from(cleanJpeg);
  for (let at = 2; at < jpeg.length; at += 2 + jpeg.readUInt16BE(at + 2)) {
    const marker = jpeg[at + 1] as number;
    if (marker >= 0xc0 && marker <= 0xc2) {
      jpeg.writeUInt16BE(height, at + 5);
      jpeg.writeUInt16BE(width, at + 7);
      return jpeg;
    }
  }
  throw new Error('the fixture has no start of frame');
}

const riff = (chunks: Buffer) => {
  const header = Buffer.alloc(12);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(chunks.length + 4, 4);
  header.write('WEBP', 8, 'latin1');
  return Buffer.concat([header, chunks]);
};

/** The clean (extended) WebP with its canvas saying `width` × `height`. */
function webpOf(width: number, height: number): Buffer {
  const webp = Buffer.from(cleanWebp);
  webp.writeUIntLE(width - 1, 24, 3);
  webp.writeUIntLE(height - 1, 27, 3);
  return webp;
}

/** A simple lossless WebP (one VP8L chunk) declaring `width` × `height` (at most 16,384 a side). */
function losslessWebpOf(width: number, height: number): Buffer {
  const data = Buffer.alloc(10);
  data[0] = 0x2f;
  data.writeUInt32LE(((width - 1) | ((height - 1) << 14)) >>> 0, 1);
  const head = Buffer.alloc(8);
  head.write('VP8L', 0, 'latin1');
  head.writeUInt32LE(data.length, 4);
  return riff(Buffer.concat([head, data]));
}

/** A simple lossy WebP (one VP8 chunk) declaring `width` × `height` (at most 16,383 a side). */
function lossyWebpOf(width: number, height: number): Buffer {
  const data = Buffer.alloc(10);
  data.set([0x9d, 0x01, 0x2a], 3);
  data.writeUInt16LE(width, 6);
  data.writeUInt16LE(height, 8);
  const head = Buffer.alloc(8);
  head.write('VP8 ', 0, 'latin1');
  head.writeUInt32LE(data.length, 4);
  return riff(Buffer.concat([head, data]));
}

describe('images that declare more pixels than may be drawn are refused before anything is stored', () => {
  let t: TestApp;
  let member: Member;
  let project: { key: string; id: string };
  before(async () => {
    t = await createTestApp();
    const admin = await signUp(t.app);
    member = await addMember(t.app, admin);
    project = await createProject(t.app, admin);
  });
  after(() => t.close());

  const upload = (how: 'image' | 'screenshot', commentId: string, bytes: Buffer, type: string) =>
    t.app.inject({
      method: how === 'image' ? 'POST' : 'PUT',
      url: `/api/comments/${commentId}/${how === 'image' ? 'images' : 'screenshot'}`,
      headers: { authorization: `Bearer ${member.token}`, 'content-type': type },
      payload: bytes,
    });

  const bombs: [string, Buffer, string][] = [
    ['a PNG of 30,000 × 30,000', pngOf(30_000, 30_000), 'image/png'],
    ['a PNG of 100,000 × 100,000', pngOf(100_000, 100_000), 'image/png'],
    ['a PNG one pixel wider than the limit', pngOf(IMAGE_SIDE_MAX_PX + 1, 10), 'image/png'],
    ['a PNG within each side but over the pixels', pngOf(8_000, 7_000), 'image/png'],
    ['a JPEG of 30,000 × 30,000', jpegOf(30_000, 30_000), 'image/jpeg'],
    ['a JPEG of 65,535 × 1,000', jpegOf(65_535, 1_000), 'image/jpeg'],
    ['an extended WebP of 100,000 × 100,000', webpOf(100_000, 100_000), 'image/webp'],
    ['a lossless WebP of 16,384 × 16,384', losslessWebpOf(16_384, 16_384), 'image/webp'],
    ['a lossy WebP of 16,383 × 16,383', lossyWebpOf(16_383, 16_383), 'image/webp'],
  ];

  for (const [what, bytes, type] of bombs) {
    test(`${what} (${bytes.length} bytes) is 413 naming the limit, as an image and as a screenshot; nothing stored`, async () => {
      assert.ok(bytes.length < 1024, 'a bomb is small');
      const { id } = await createComment(t.app, member, project.key, `A bomb: ${what}`);
      for (const how of ['image', 'screenshot'] as const) {
        const refused = await upload(how, id, bytes, type);
        assert.equal(refused.statusCode, 413, refused.body);
        const problem = refused.json();
        assert.equal(problem.code, 'payload_too_large');
        assert.match(
          problem.detail,
          /at most 16,384 pixels a side and 50 megapixels; this one declares [\d,]+ × [\d,]+/,
        );
      }
      const comment = await call(t.app, 'GET', `/api/comments/${id}`, { token: member.token });
      assert.deepEqual(comment.body.images, [], 'no image stored');
      assert.equal(comment.body.screenshot, null, 'no screenshot stored');
      const shot = await call(t.app, 'GET', `/api/comments/${id}/screenshot`, { token: member.token });
      assert.equal(shot.status, 404, 'no screenshot stored');
    });
  }

  test('real pictures and the largest sizes within the limits are stored: a tall phone screenshot, 16,384 a side, 50 megapixels', async () => {
    const { id } = await createComment(t.app, member, project.key, 'Within the limits');
    const within: [Buffer, string][] = [
      [cleanPng, 'image/png'],
      [cleanJpeg, 'image/jpeg'],
      [cleanWebp, 'image/webp'],
      // A phone held upright at three device pixels to the CSS pixel: 1,170 × 2,532.
      [pngOf(1_170, 2_532), 'image/png'],
      [pngOf(IMAGE_SIDE_MAX_PX, Math.floor(IMAGE_PIXELS_MAX / IMAGE_SIDE_MAX_PX)), 'image/png'],
      [jpegOf(1_600, 16_384), 'image/jpeg'],
      [webpOf(10_000, 5_000), 'image/webp'],
      [losslessWebpOf(4_000, 3_000), 'image/webp'],
    ];
    for (const [bytes, type] of within) {
      const stored = await upload('image', id, bytes, type);
      assert.equal(stored.statusCode, 201, stored.body);
      const shot = await upload('screenshot', id, bytes, type);
      assert.equal(shot.statusCode, 200, shot.body);
    }
    const comment = await call(t.app, 'GET', `/api/comments/${id}`, { token: member.token });
    assert.equal(comment.body.images.length, within.length);
  });
});
