// How long a screenshot may take before a comment goes without it: the loader keeps to it,
// the store tells the reviewer.

/** Past this, a comment is left without its screenshot (the reviewer may try again). */
export const SCREENSHOT_BUDGET_MS = 5_000;

/**
 * Why a screenshot was not taken: it took longer than the budget. Told by its name, not by
 * `instanceof`: the loader that throws it is in the first load, the panel's chunk that reads it
 * carries a class of its own.
 */
export class ScreenshotTooSlow extends Error {
  override name = 'ScreenshotTooSlow';
}

/** Whether `error` is a screenshot past its budget, whichever script made it. */
export const tookTooLong = (error: unknown) => error instanceof Error && error.name === 'ScreenshotTooSlow';
