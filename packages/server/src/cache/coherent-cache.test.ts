import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CoherentCache } from './coherent-cache.js';

/** A read whose answer the test releases when it chooses: the race made deterministic. */
function pendingRead<V>() {
  let release: (value: V) => void = () => {};
  const read = () => new Promise<V>((resolve) => (release = resolve));
  return { read, release: (value: V) => release(value) };
}

describe('CoherentCache', () => {
  test('a load that raced a change does not store what it read', async () => {
    const cache = new CoherentCache<number>(10, () => true);
    const slow = pendingRead<number>();
    const loading = cache.load('user', slow.read);
    // The write commits (and drops the key) while the load is still reading the old value.
    cache.delete('user');
    slow.release(3);
    assert.equal(await loading, 3, 'the reader still gets what it read');
    assert.equal(cache.get('user'), undefined, 'but it is not kept: the next reader reloads');
    assert.equal(await cache.load('user', async () => 4), 4);
    assert.equal(cache.get('user'), 4);
  });

  test('a change to another key also voids a racing load (the guard is coarse, never stale)', async () => {
    const cache = new CoherentCache<number>(10, () => true);
    const slow = pendingRead<number>();
    const loading = cache.load('a', slow.read);
    cache.clear();
    slow.release(1);
    await loading;
    assert.equal(cache.get('a'), undefined);
  });

  test('nothing is stored while changes of other processes may be missed; oldest entries go first past the bound', async () => {
    let heard = false;
    const cache = new CoherentCache<number>(2, () => heard);
    await cache.load('a', async () => 1);
    assert.equal(cache.get('a'), undefined);
    heard = true;
    for (const key of ['a', 'b', 'c']) await cache.load(key, async () => 1);
    assert.equal(cache.get('a'), undefined);
    assert.equal(cache.size, 2);
  });
});
