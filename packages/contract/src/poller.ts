const MAX_BACKOFF_MS = 5 * 60_000;

/** The piece of the browser's `document` the poller needs: whether the tab is visible, and when that changes. */
interface VisibilitySource extends EventTarget {
  visibilityState: string;
}
const page = () => (globalThis as unknown as { document: VisibilitySource }).document;

export interface PollResult {
  /** 'ok' (a count or 304), 'unauthorized' (stop), or 'error' (back off). */
  outcome: 'ok' | 'unauthorized' | 'error';
}

/**
 * Polls while the tab is visible: every `intervalMs`, at once when the tab becomes visible
 * again, never while hidden, never two at a time; on errors the delay doubles (with jitter)
 * up to five minutes; a refused session stops it until `start()` is called again.
 */
export class Poller {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private inFlight = false;
  private failures = 0;
  private running = false;
  private destroyed = false;

  constructor(
    private readonly intervalMs: number,
    private readonly poll: () => Promise<PollResult>,
  ) {
    page().addEventListener('visibilitychange', this.onVisibility);
  }

  start(): void {
    // A sign-in that completes after its widget was destroyed must not bring polling back.
    if (this.destroyed) return;
    this.running = true;
    this.failures = 0;
    void this.run();
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
  }

  destroy(): void {
    this.destroyed = true;
    this.stop();
    page().removeEventListener('visibilitychange', this.onVisibility);
  }

  /** Polls now (when visible and none is in flight), then resumes the cadence. */
  now(): void {
    if (this.running) void this.run();
  }

  private onVisibility = () => {
    if (page().visibilityState === 'visible') this.now();
    else clearTimeout(this.timer);
  };

  private async run(): Promise<void> {
    clearTimeout(this.timer);
    if (!this.running || this.inFlight || page().visibilityState !== 'visible') return;
    this.inFlight = true;
    let result: PollResult;
    try {
      result = await this.poll();
    } catch {
      result = { outcome: 'error' };
    }
    this.inFlight = false;
    if (result.outcome === 'unauthorized') return this.stop();
    this.failures = result.outcome === 'error' ? this.failures + 1 : 0;
    if (!this.running || page().visibilityState !== 'visible') return;
    const delay = this.failures
      ? Math.min(this.intervalMs * 2 ** this.failures, MAX_BACKOFF_MS) * (0.5 + Math.random() / 2)
      : this.intervalMs;
    this.timer = setTimeout(() => void this.run(), delay);
  }
}
