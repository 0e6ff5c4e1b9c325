import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, mock, test } from 'node:test';

// The poller reads the tab's visibility from `document`: a stand-in the test controls, the
// one piece of the browser the poller needs (its browser behaviour is in widget.test.ts).
const page = Object.assign(new EventTarget(), { visibilityState: 'visible' as 'visible' | 'hidden' });
Object.assign(globalThis, { document: page });
const { Poller } = await import('./poller.js');
type PollResult = import('./poller.js').PollResult;

function setVisibility(state: 'visible' | 'hidden') {
  page.visibilityState = state;
  page.dispatchEvent(new Event('visibilitychange'));
}

/** Lets the poll's promise settle (fake timers leave microtasks alone). */
const settle = async () => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

describe('the badge poller (fake timers)', () => {
  let polls: number;
  let answer: () => Promise<PollResult>;
  beforeEach(() => {
    mock.timers.enable({ apis: ['setTimeout'] });
    // No jitter unless a test asks for it: the waits are then exactly the interval.
    mock.method(Math, 'random', () => 0.5);
    page.visibilityState = 'visible';
    polls = 0;
    answer = async () => ({ outcome: 'ok' });
  });
  afterEach(() => {
    mock.timers.reset();
    mock.restoreAll();
  });

  const poller = (intervalMs = 1_000) =>
    new Poller(intervalMs, () => {
      polls++;
      return answer();
    });

  test('polls at once, then every interval, and not before', async () => {
    const p = poller(1_000);
    p.start();
    await settle();
    assert.equal(polls, 1);
    mock.timers.tick(999);
    await settle();
    assert.equal(polls, 1);
    mock.timers.tick(1);
    await settle();
    assert.equal(polls, 2);
    mock.timers.tick(3_000);
    await settle();
    assert.equal(polls, 3, 'one timer at a time: a tick past several intervals polls once, then re-arms');
    p.destroy();
  });

  test('never while hidden; once at once when visible again', async () => {
    const p = poller(1_000);
    p.start();
    await settle();
    setVisibility('hidden');
    for (let i = 0; i < 10; i++) {
      mock.timers.tick(1_000);
      await settle();
    }
    assert.equal(polls, 1);
    setVisibility('visible');
    await settle();
    assert.equal(polls, 2);
    p.destroy();
  });

  test('never two in flight: a poll asked for while one runs is skipped', async () => {
    let release: (result: PollResult) => void = () => {};
    answer = () => new Promise((resolve) => (release = resolve));
    const p = poller(1_000);
    p.start();
    p.now();
    setVisibility('visible');
    p.now();
    await settle();
    assert.equal(polls, 1);
    release({ outcome: 'ok' });
    await settle();
    mock.timers.tick(1_000);
    await settle();
    assert.equal(polls, 2);
    p.destroy();
  });

  test('errors back off exponentially with jitter, up to five minutes; a success restores the cadence', async () => {
    answer = async () => ({ outcome: 'error' });
    const random = mock.method(Math, 'random', () => 1);
    const p = poller(1_000);
    p.start();
    await settle();
    // With jitter at its top, failure n waits interval * 2^n: 2 s, 4 s, 8 s …
    for (const wait of [2_000, 4_000, 8_000, 16_000]) {
      const before = polls;
      mock.timers.tick(wait - 1);
      await settle();
      assert.equal(polls, before, `not before ${wait} ms`);
      mock.timers.tick(1);
      await settle();
      assert.equal(polls, before + 1, `at ${wait} ms`);
    }
    for (let i = 0; i < 10; i++) {
      mock.timers.tick(5 * 60_000);
      await settle();
    }
    const before = polls;
    mock.timers.tick(5 * 60_000);
    await settle();
    assert.equal(polls, before + 1, 'capped at five minutes');
    answer = async () => ({ outcome: 'ok' });
    random.mock.mockImplementation(() => 0.5);
    mock.timers.tick(5 * 60_000);
    await settle();
    const recovered = polls;
    mock.timers.tick(1_000);
    await settle();
    assert.equal(polls, recovered + 1, 'back to the interval');
    p.destroy();
  });

  test('the server sets the pace: a longer wait it asks for is followed, a shorter one never goes below our own', async () => {
    let asked: number | null = 5_000;
    answer = async () => ({ outcome: 'ok', intervalMs: asked });
    const p = poller(1_000);
    p.start();
    await settle();
    mock.timers.tick(4_999);
    await settle();
    assert.equal(polls, 1, 'the server asked for 5 s: not after our 1 s');
    mock.timers.tick(1);
    await settle();
    assert.equal(polls, 2);
    asked = 200;
    mock.timers.tick(5_000);
    await settle();
    assert.equal(polls, 3);
    mock.timers.tick(999);
    await settle();
    assert.equal(polls, 3, 'the server lowered its pace to 200 ms: our own 1 s is the floor');
    mock.timers.tick(1);
    await settle();
    assert.equal(polls, 4);
    p.destroy();
  });

  test('each wait varies by a tenth at random, so widgets started together drift apart', () => {
    const p = poller(10_000);
    const waits = [0, 0.25, 1].map((r) => {
      (Math.random as unknown as ReturnType<typeof mock.fn>).mock.mockImplementation(() => r);
      return p.nextDelayMs();
    });
    assert.deepEqual(waits, [9_000, 9_500, 11_000]);
    p.destroy();
  });

  test('a refused session stops polling until started again', async () => {
    answer = async () => ({ outcome: 'unauthorized' });
    const p = poller(1_000);
    p.start();
    await settle();
    mock.timers.tick(60_000);
    await settle();
    assert.equal(polls, 1);
    answer = async () => ({ outcome: 'ok' });
    p.start();
    await settle();
    assert.equal(polls, 2);
    p.destroy();
  });

  test('destroyed, it stays stopped: a start() that arrives later (a sign-in finishing) polls nothing', async () => {
    const p = poller(1_000);
    p.destroy();
    p.start();
    p.now();
    setVisibility('visible');
    await settle();
    mock.timers.tick(10_000);
    await settle();
    assert.equal(polls, 0);
  });
});
