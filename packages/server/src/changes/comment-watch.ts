import { CHANGES_WAITS_PER_CREDENTIAL, CHANGES_WAITS_PER_USER } from '@svc/contract';
import type { ChangeFeed } from '../db/dialect/index.js';
import { AppError } from '../errors.js';

/** How a change of a project's comments is named on the change feed: `<workspace>/<project>`. */
export const commentChangeKey = (where: { workspaceId: string; projectId: string }) =>
  `${where.workspaceId}/${where.projectId}`;

/** Who waits: to count their waits. */
export interface Waiter {
  userId: string;
  credentialId: string;
}

/**
 * Requests waiting for comments to change (the long poll of agents and `svc-cli comments
 * --watch`): for one project, or for every project of the workspace. A waiter costs a timer
 * and a closure: woken by the write that concerns it (a change of its project), in this
 * process or (PostgreSQL) another, through the change feed; nothing polls the database
 * meanwhile. One user may hold a few waits at once, not a socket per loop of a runaway script.
 */
export class CommentWatch {
  /** By workspace id (waits for any project) and by `<workspace>/<project>`. */
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly held = new Map<string, number>();
  /** True once the server is closing: waiters answer at once. */
  closed = false;

  constructor(changes: ChangeFeed) {
    changes.subscribe((change) => {
      if (change === 'reset') this.wakeAll();
      else if (change.kind === 'comments') {
        const [workspaceId = ''] = change.key.split('/');
        this.wake(workspaceId);
        this.wake(change.key);
      }
    });
  }

  /**
   * Resolves when a comment of the project (of any project of the workspace, without one)
   * changes, after `ms`, when `abort` fires, or at once once closed. Refused (429) past the
   * waits one user, or one credential, may hold at once.
   */
  wait(
    where: { workspaceId: string; projectId: string | null },
    who: Waiter,
    ms: number,
    abort: AbortSignal,
  ): Promise<void> {
    if (this.closed || abort.aborted) return Promise.resolve();
    const counted = [`user:${who.userId}`, `credential:${who.credentialId}`];
    if ((this.held.get(counted[0] as string) ?? 0) >= CHANGES_WAITS_PER_USER) {
      throw tooMany(`At most ${CHANGES_WAITS_PER_USER} waits at once per user: let one answer before the next.`);
    }
    if ((this.held.get(counted[1] as string) ?? 0) >= CHANGES_WAITS_PER_CREDENTIAL) {
      throw tooMany(`At most ${CHANGES_WAITS_PER_CREDENTIAL} waits at once per session or API key.`);
    }
    for (const key of counted) this.held.set(key, (this.held.get(key) ?? 0) + 1);
    const key =
      where.projectId === null
        ? where.workspaceId
        : commentChangeKey(where as { workspaceId: string; projectId: string });
    return new Promise((resolve) => {
      const waiters = this.waiters.get(key) ?? new Set();
      this.waiters.set(key, waiters);
      const done = () => {
        clearTimeout(timer);
        abort.removeEventListener('abort', done);
        waiters.delete(done);
        if (waiters.size === 0) this.waiters.delete(key);
        for (const name of counted) {
          const left = (this.held.get(name) ?? 1) - 1;
          if (left > 0) this.held.set(name, left);
          else this.held.delete(name);
        }
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

  private wake(key: string): void {
    for (const done of [...(this.waiters.get(key) ?? [])]) done();
  }

  private wakeAll(): void {
    for (const key of [...this.waiters.keys()]) this.wake(key);
  }

  close(): void {
    this.closed = true;
    this.wakeAll();
  }
}

function tooMany(detail: string): AppError {
  return new AppError('rate_limited', detail, undefined, { 'retry-after': '5' });
}
