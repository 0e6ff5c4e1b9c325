// Work done in steps, so that finding pins on a large page can stop when its time is up and
// go on in the next frame.

/** Work that can stop between two of its steps: it yields when its time is up, and returns its result. */
export type Steps<T> = Generator<void, T, void>;

/** Runs `steps` to their end at once. */
export function finish<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * When looking must stop for now: past `at` (a `performance.now()` time; never unless one is
 * set). The clock is read every few elements only.
 */
export class Deadline {
  at = Number.POSITIVE_INFINITY;
  private calls = 0;

  due(): boolean {
    if (this.at === Number.POSITIVE_INFINITY) return false;
    this.calls += 1;
    return this.calls % 16 === 0 && performance.now() > this.at;
  }
}
