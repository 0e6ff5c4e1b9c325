/**
 * What time it is, for the rules that depend on it (a session's idle timeout and lifetime).
 * The server reads the system's; tests pass one they can move forward instead of sleeping.
 */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
