const MAX_BACKOFF_MS = 5 * 60_000;
/** Each wait is this much longer or shorter, at random: widgets restarted together drift apart. */
const JITTER = 0.1;

/** The piece of the browser's `document` the poller needs: whether the tab is visible, and when that changes. */
interface VisibilitySource extends EventTarget {
  visibilityState: string;
}
const page = () => (globalThis as unknown as { document: VisibilitySource }).document;

export interface PollResult {
  /** 'ok' (a count or 304), 'unauthorized' (stop), or 'error' (back off). */
  outcome: 'ok' | 'unauthorized' | 'error';
  /** The wait the server asked for (`X-Poll-Interval`); the poller never waits less. */
  intervalMs?: number | null;
  /** What the other tabs are told after a poll (the count and its ETag); see `PollSharing`. */
  shared?: unknown;
}

/**
 * One poller per browser: the tabs with the same key (one server, one user) elect a leader
 * with the Web Locks API; the leader polls and tells the others each result through a
 * BroadcastChannel, and a tab that becomes visible asks for the latest at once.
 */
export interface PollSharing {
  /** Who polls what, the same in every tab that may share (the server and the signed-in user). */
  key: () => string;
  /** A result another tab polled (`PollResult.shared`), for this tab to show. */
  receive: (shared: unknown) => void;
}

type Message = { kind: 'result'; shared: unknown; intervalMs: number | null } | { kind: 'ask' };

/** The pieces of the browser's BroadcastChannel the poller uses. */
interface Channel {
  postMessage(message: Message): void;
  close(): void;
  onmessage: ((event: { data: Message }) => void) | null;
}
const channelClass = () =>
  (globalThis as unknown as { BroadcastChannel?: new (name: string) => Channel }).BroadcastChannel ?? null;

interface Locks {
  request(name: string, options: { signal: AbortSignal }, callback: () => Promise<void>): Promise<void>;
}

/**
 * Polls while the tab is visible: every `intervalMs` (or longer when the server asks), at once
 * when the tab becomes visible again, never while hidden, never two at a time; each wait
 * varies by a tenth at random; on errors the delay doubles (with jitter) up to five minutes; a
 * refused session stops it until `start()` is called again. With `sharing`, only one visible
 * tab of the browser polls (see `PollSharing`); where the browser lacks Web Locks or
 * BroadcastChannel, each tab polls on its own.
 */
export class Poller {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private inFlight = false;
  private failures = 0;
  private running = false;
  private destroyed = false;
  /** The wait the server last asked for. */
  private serverIntervalMs = 0;
  private readonly locks: Locks | null = null;
  private channel: Channel | null = null;
  /** The key the channel was opened with. */
  private key = '';
  /** Set while this tab holds the lock or waits for it: aborting gives it up. */
  private election: AbortController | null = null;
  private leading = false;
  /** Releases the lock this tab holds. */
  private resign: (() => void) | null = null;
  private lastShared: Message | null = null;

  constructor(
    private readonly intervalMs: number,
    private readonly poll: () => Promise<PollResult>,
    private readonly sharing?: PollSharing,
  ) {
    page().addEventListener('visibilitychange', this.onVisibility);
    const locks = (globalThis as { navigator?: { locks?: Locks } }).navigator?.locks;
    if (sharing && locks && channelClass()) this.locks = locks;
  }

  start(): void {
    // A sign-in that completes after its widget was destroyed must not bring polling back.
    if (this.destroyed) return;
    this.running = true;
    this.failures = 0;
    this.connect();
    this.resume();
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
    this.abdicate();
  }

  destroy(): void {
    this.destroyed = true;
    this.stop();
    this.channel?.close();
    page().removeEventListener('visibilitychange', this.onVisibility);
  }

  /** Polls now (when visible and none is in flight), then resumes the cadence; a tab that does not lead asks the leader. */
  now(): void {
    if (!this.running) return;
    if (this.locks && !this.leading) this.channel?.postMessage({ kind: 'ask' });
    else void this.run();
  }

  /** The wait before the next poll: the longer of ours and the server's, give or take a tenth; after errors, the backoff. */
  nextDelayMs(): number {
    if (this.failures)
      return Math.min(this.intervalMs * 2 ** this.failures, MAX_BACKOFF_MS) * (0.5 + Math.random() / 2);
    return Math.max(this.intervalMs, this.serverIntervalMs) * (1 - JITTER + 2 * JITTER * Math.random());
  }

  private visible = () => page().visibilityState === 'visible';

  private onVisibility = () => {
    if (!this.visible()) {
      clearTimeout(this.timer);
      // A hidden tab leaves the polling to a visible one.
      this.abdicate();
    } else if (this.running) {
      this.resume();
      // The latest count at once: asked of the leader, or polled by this tab.
      this.now();
    }
  };

  /** Opens the channel of the current key (another user signed in: another channel). */
  private connect(): void {
    const key = this.sharing?.key() ?? '';
    if (!this.locks || key === this.key) return;
    this.abdicate();
    this.channel?.close();
    this.key = key;
    const Broadcast = channelClass() as new (name: string) => Channel;
    this.channel = new Broadcast(`svc-poll:${key}`);
    this.channel.onmessage = (event) => this.heard(event.data);
  }

  /** Polls on its own, or stands for leader among the tabs sharing the key. */
  private resume(): void {
    if (!this.locks) return void this.run();
    if (this.election || !this.visible()) return;
    const election = new AbortController();
    this.election = election;
    this.locks
      .request(`svc-poll:${this.key}`, { signal: election.signal }, () => {
        this.leading = true;
        void this.run();
        return new Promise<void>((resolve) => {
          this.resign = resolve;
        });
      })
      .catch(() => {})
      .finally(() => {
        if (this.election === election) this.election = null;
      });
  }

  /** Gives up the lock (or the place in its queue); another visible tab takes over. */
  private abdicate(): void {
    this.election?.abort();
    this.election = null;
    this.leading = false;
    this.resign?.();
    this.resign = null;
  }

  private heard(message: Message): void {
    if (message.kind === 'ask') {
      if (this.leading && this.lastShared) this.channel?.postMessage(this.lastShared);
      return;
    }
    if (message.intervalMs) this.serverIntervalMs = message.intervalMs;
    this.sharing?.receive(message.shared);
  }

  private async run(): Promise<void> {
    clearTimeout(this.timer);
    if (!this.running || this.inFlight || !this.visible() || (this.locks && !this.leading)) return;
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
    if (result.intervalMs) this.serverIntervalMs = result.intervalMs;
    if (result.outcome === 'ok' && this.channel && this.leading) {
      this.lastShared = { kind: 'result', shared: result.shared, intervalMs: result.intervalMs ?? null };
      this.channel.postMessage(this.lastShared);
    }
    if (!this.running || !this.visible() || (this.locks && !this.leading)) return;
    this.timer = setTimeout(() => void this.run(), this.nextDelayMs());
  }
}
