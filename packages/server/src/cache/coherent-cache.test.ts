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

  test('a change to another key leaves a racing load alone; clearing everything voids it', async () => {
    const cache = new CoherentCache<number>(10, () => true);
    const slow = pendingRead<number>();
    const loading = cache.load('a', slow.read);
    cache.delete('b');
    slow.release(1);
    await loading;
    assert.equal(cache.get('a'), 1, 'another key changed: what was read is still true');

    cache.delete('a');
    const again = pendingRead<number>();
    const reloading = cache.load('a', again.read);
    cache.clear();
    again.release(2);
    await reloading;
    assert.equal(cache.get('a'), undefined);
  });

  test('of two loads of one key, a change during either voids both; the next load stores again', async () => {
    const cache = new CoherentCache<number>(10, () => true);
    const first = pendingRead<number>();
    const second = pendingRead<number>();
    const loadingFirst = cache.load('a', first.read);
    const loadingSecond = cache.load('a', second.read);
    first.release(1);
    await loadingFirst;
    assert.equal(cache.get('a'), 1);
    cache.delete('a');
    second.release(1);
    await loadingSecond;
    assert.equal(cache.get('a'), undefined, 'the second read began before the change');
    await cache.load('a', async () => 2);
    assert.equal(cache.get('a'), 2);
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
