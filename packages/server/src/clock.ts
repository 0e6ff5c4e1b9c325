/**
 * What time it is, for every rule that compares times (sessions, links, rate limits, challenges).
 * The server reads the system's; tests pass one they can move forward instead of sleeping.
 */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
