import type { ChangeFeed } from '../../db/dialect/index.js';

/**
 * Requests waiting for a workspace's comments to change (the long poll of agents and
 * `svc-cli comments --watch`). A waiter costs a timer and a closure: woken by the write that
 * concerns it, in this process or (PostgreSQL) another, through the change feed; nothing
 * polls the database meanwhile.
 */
export class CommentWatch {
  private readonly waiters = new Map<string, Set<() => void>>();
  /** True once the server is closing: waiters answer at once. */
  closed = false;

  constructor(changes: ChangeFeed) {
    changes.subscribe((change) => {
      if (change === 'reset') this.wakeAll();
      else if (change.kind === 'comments') this.wake(change.key);
    });
  }

  /** Resolves when a comment of the workspace changes, after `ms`, when `abort` fires, or at once once closed. */
  wait(workspaceId: string, ms: number, abort: AbortSignal): Promise<void> {
    if (this.closed || abort.aborted) return Promise.resolve();
    return new Promise((resolve) => {
      const waiters = this.waiters.get(workspaceId) ?? new Set();
      this.waiters.set(workspaceId, waiters);
      const done = () => {
        clearTimeout(timer);
        abort.removeEventListener('abort', done);
        waiters.delete(done);
        if (waiters.size === 0) this.waiters.delete(workspaceId);
        resolve();
      };
      const timer = setTimeout(done, ms);
      abort.addEventListener('abort', done);
      waiters.add(done);
    });
  }

  /** How many requests are waiting (for metrics and tests). */
  get size(): number {
    let size = 0;
    for (const set of this.waiters.values()) size += set.size;
    return size;
  }

  private wake(workspaceId: string): void {
    for (const done of [...(this.waiters.get(workspaceId) ?? [])]) done();
  }

  private wakeAll(): void {
    for (const workspaceId of [...this.waiters.keys()]) this.wake(workspaceId);
  }

  close(): void {
    this.closed = true;
    this.wakeAll();
  }
}
