import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { setTimeout as wait } from 'node:timers/promises';
import { PACE_STEPS_S, PollPace } from './poll-pace.js';

/** Holds the event loop `ms` at a time, `times` times, letting it turn in between: a saturated process. */
async function busy(ms: number, times: number): Promise<void> {
  for (let i = 0; i < times; i++) {
    await new Promise((resolve) => setImmediate(resolve));
    const end = performance.now() + ms;
    while (performance.now() < end) {
      // the event loop is held
    }
  }
}

describe('the pace of polling (X-Poll-Interval)', () => {
  test('the floor while calm; a step up for each busy sample, and back down step by step once calm', async () => {
    // Sampled by the test alone: the pace's own timer, late on a loaded machine, would add samples between these.
    const pace = new PollPace(2, true, 0);
    // Read afresh each time: an assertion on it would otherwise narrow its type for good.
    const now = (): number => pace.seconds;
    try {
      // Calm: the floor. A process waiting for a core (a loaded machine) may read busy once; it
      // reads calm again within a few samples.
      for (let i = 0; i < 20; i++) {
        await wait(50);
        pace.sample();
        if (now() === 2) break;
      }
      assert.equal(pace.seconds, 2, 'calm: the floor');
      // Busy: each busy sample one step up (on a loaded machine a sample may also read calm:
      // the paces seen until the second step, each change one step up).
      const rising = [now()];
      for (let i = 0; i < 20 && now() !== PACE_STEPS_S[2]; i++) {
        await busy(100, 8);
        pace.sample();
        if (now() !== rising[rising.length - 1]) rising.push(now());
      }
      assert.deepEqual(rising, [2, PACE_STEPS_S[1], PACE_STEPS_S[2]]);
      // Calm again: the event loop answers its timer on time, and the pace walks back down to
      // the floor. The delay is the process's real one: on a loaded machine a sample may read
      // calm late, or even busy (the process waited for a core), so each change is checked to
      // be one step, up or down, and the walk to end at the floor by way of each step below.
      const seen = [now()];
      for (let i = 0; i < 150 && now() !== 2; i++) {
        await wait(100);
        pace.sample();
        if (now() !== seen[seen.length - 1]) seen.push(now());
      }
      const step = (seconds: number) => (seconds === 2 ? 0 : PACE_STEPS_S.indexOf(seconds as never));
      for (let i = 1; i < seen.length; i++) {
        assert.equal(Math.abs(step(seen[i] as number) - step(seen[i - 1] as number)), 1, `one step at a time: ${seen}`);
      }
      assert.deepEqual(seen.slice(-3), [PACE_STEPS_S[2], PACE_STEPS_S[1], 2], `down to the floor: ${seen}`);
    } finally {
      pace.close();
    }
  });

  test('never below the floor, never past the last step', async () => {
    const pace = new PollPace(600, true, 0);
    try {
      assert.equal(pace.seconds, 600);
      for (let i = 0; i < PACE_STEPS_S.length + 2; i++) {
        await busy(100, 6);
        pace.sample();
      }
      assert.equal(pace.seconds, 600, 'the last step (300 s) is under this floor');
    } finally {
      pace.close();
    }
  });
});
