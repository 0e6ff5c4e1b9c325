// Where what a reviewer hid is painted over in a later picture of the comment: wherever it may
// be now, the page having changed (hidden-regions.ts). The pixels themselves are checked in
// the browsers (markup, Firefox and WebKit tests).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { coversNow, keptRegions } from '../src/hidden-regions.js';

describe('hidden regions in later pictures', () => {
  // A card at (100, 200), 300 × 150, a name hidden 20 px in and 10 down, the page scrolled 50 down then.
  const context = {
    pinnedBox: { x: 100, y: 200, width: 300, height: 150 },
    hidden: { regions: [{ x: 120, y: 210, width: 80, height: 20 }], scroll: { x: 0, y: 50 } },
  };
  const has = (covers: ReturnType<typeof coversNow>, box: { x: number; y: number; width: number; height: number }) =>
    covers.some((c) => Math.abs(c.x - box.x) + Math.abs(c.y - box.y) + Math.abs(c.width - box.width) < 0.01);

  test('its element moved and grew twice as wide: covered as far from its corner as it was, and scaled with it; and where it was in the page and in the window', () => {
    const covers = coversNow(context, { x: 40, y: 500, width: 600, height: 150 }, { x: 0, y: 0 });
    assert.ok(has(covers, { x: 60, y: 510, width: 80, height: 20 }), 'from its corner');
    assert.ok(has(covers, { x: 80, y: 510, width: 160, height: 20 }), 'scaled with it');
    assert.ok(has(covers, { x: 120, y: 260, width: 80, height: 20 }), 'in the page, scrolled back to the top since');
    assert.ok(has(covers, { x: 120, y: 210, width: 80, height: 20 }), 'in the window (a fixed bar)');
  });

  test('its element not found, or a comment about the whole page: where it was in the page and in the window', () => {
    for (const ctx of [context, { ...context, pinnedBox: undefined }]) {
      const covers = coversNow(ctx, null, { x: 0, y: 80 });
      assert.deepEqual(covers, [
        { x: 120, y: 210, width: 80, height: 20 },
        { x: 120, y: 180, width: 80, height: 20 },
      ]);
    }
  });

  test('nothing hidden, nothing covered', () => {
    assert.deepEqual(coversNow({ pinnedBox: context.pinnedBox }, context.pinnedBox, { x: 0, y: 0 }), []);
    assert.deepEqual(coversNow(null, null, { x: 0, y: 0 }), []);
  });

  test('more regions than a comment keeps: those beyond are joined into one box that covers them all', () => {
    const regions = Array.from({ length: 60 }, (_, i) => ({ x: i * 10, y: i, width: 5, height: 5 }));
    const kept = keptRegions(regions);
    assert.equal(kept.length, 50);
    assert.deepEqual(kept.slice(0, 49), regions.slice(0, 49));
    assert.deepEqual(kept[49], { x: 490, y: 49, width: 105, height: 15 });
  });
});
