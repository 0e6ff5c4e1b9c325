// How long a screenshot may take before a comment goes without it: the loader keeps to it,
// the store tells the reviewer.

/** Past this, a comment is left without its screenshot (the reviewer may try again). */
export const SCREENSHOT_BUDGET_MS = 5_000;

/** Why a screenshot was not taken: it took longer than the budget. */
export class ScreenshotTooSlow extends Error {}
