/**
 * Where the process is in its life, for load balancers (GET /readyz) and for the requests
 * that arrive before the database is ready: migrating (listening, every route but the probes
 * answers 503), serving, or draining (shutting down; requests in flight finish).
 */
export class Readiness {
  phase: 'migrating' | 'serving' | 'draining' = 'migrating';
  private startServing: () => void = () => {};
  /** Settles once the database is migrated: work that needs the schema (pruning) waits for it. */
  readonly serving = new Promise<void>((resolve) => {
    this.startServing = resolve;
  });

  /** The database is migrated: requests are served. */
  serve(): void {
    this.phase = 'serving';
    this.startServing();
  }

  /** Why the process is not ready, or null when it serves. */
  get notReadyBecause(): string | null {
    if (this.phase === 'migrating') return 'The server is starting: the database is being migrated.';
    if (this.phase === 'draining') return 'The server is shutting down.';
    return null;
  }
}
