// The pace the server asks of the widgets and consoles polling the unread count: the
// `X-Poll-Interval` header (seconds, GitHub's convention) of every unread-count answer. It is
// the configured floor while the server is calm, and steps up while the event loop lags (the
// measure of a Node process too busy to answer on time): every open tab then polls less often,
// which is what relieves it. The median delay of a sample is the measure: one long garbage
// collection or a slow start-up does not move it, a saturated process does. Clients never
// poll faster than their own interval either.
import { type IntervalHistogram, monitorEventLoopDelay } from 'node:perf_hooks';

/** The waits asked for as the server gets busier, in seconds (0: no more than the floor). */
export const PACE_STEPS_S = [0, 10, 30, 60, 120, 300] as const;
/** Above this median event-loop delay over a sample, the server is busy: one step up. */
export const BUSY_DELAY_MS = 50;
/** Below this, it is calm again: one step down. */
export const CALM_DELAY_MS = 20;
/** How often the delay is sampled. */
export const PACE_SAMPLE_MS = 2_000;

export class PollPace {
  private step = 0;
  private readonly histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });
  private readonly timer: ReturnType<typeof setInterval> | undefined;

  /**
   * Not `adaptive`: always the floor (the browser tests, whose cadences are what they test).
   * `sampleEveryMs` 0: only the caller samples (a test that times its own samples).
   */
  constructor(
    private readonly floorSeconds: number,
    adaptive = true,
    sampleEveryMs: number = PACE_SAMPLE_MS,
  ) {
    if (!adaptive) return;
    this.histogram.enable();
    if (!sampleEveryMs) return;
    this.timer = setInterval(() => this.sample(), sampleEveryMs);
    this.timer.unref();
  }

  /** The wait to ask for, in seconds. */
  get seconds(): number {
    return Math.max(this.floorSeconds, PACE_STEPS_S[this.step] ?? 0);
  }

  /** Reads the event loop's delay since the last sample: busy, a step up; calm, a step down. */
  sample(): void {
    const medianMs = this.histogram.percentile(50) / 1e6;
    this.histogram.reset();
    if (medianMs > BUSY_DELAY_MS) this.step = Math.min(this.step + 1, PACE_STEPS_S.length - 1);
    else if (medianMs < CALM_DELAY_MS) this.step = Math.max(this.step - 1, 0);
  }

  close(): void {
    clearInterval(this.timer);
    this.histogram.disable();
  }
}
