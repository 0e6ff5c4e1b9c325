import assert from 'node:assert/strict';
import { test } from 'node:test';
import { stepsToReproduce, timedSteps } from './steps.js';

const at = (second: number) => `2026-05-01T10:00:${String(second).padStart(2, '0')}.000Z`;

test('the steps with their times (what lets the console play a replay from one): a repeated press at its first, the pin without', () => {
  const source = {
    actions: [
      { kind: 'open' as const, at: at(1), path: '/pricing' },
      { kind: 'press' as const, at: at(3), name: 'Choose Team' },
      { kind: 'press' as const, at: at(4), name: 'Choose Team' },
      { kind: 'type' as const, at: at(6), name: 'E-mail' },
    ],
    requests: [{ method: 'POST', url: 'https://shop.test/missing', status: 404, durationMs: 12, at: at(5) }],
    errors: [],
  };
  const timed = timedSteps(source, null);
  assert.deepEqual(
    timed.map(({ step, at }) => [step.kind, at]),
    [
      ['opened', at(1)],
      ['pressed', at(3)],
      ['requestFailed', at(5)],
      ['typed', at(6)],
      ['pinned', null],
    ],
  );
  assert.equal(timed[1]?.step.kind === 'pressed' && timed[1].step.times, 2, 'the press said once, twice done');
  assert.deepEqual(
    stepsToReproduce(source, null),
    timed.map(({ step }) => step),
    'the same steps',
  );
});
