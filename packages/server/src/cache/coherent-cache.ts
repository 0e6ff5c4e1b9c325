/**
 * An in-process cache of values whose truth is in the database, kept exact by the code
 * paths that change them: they delete the key after their transaction commits (and, on
 * PostgreSQL, every other process deletes it when the change feed tells it).
 *
 * A load that raced a change must not store what it read: every deletion bumps an epoch,
 * and a load stores its value only if the epoch did not move while it was reading.
 */
export class CoherentCache<V> {
  private readonly entries = new Map<string, V>();
  private epoch = 0;

  constructor(
    private readonly maxEntries: number,
    /** False while changes from other processes might be missed: then nothing is stored. */
    private readonly coherent: () => boolean,
  ) {}

  get(key: string): V | undefined {
    return this.entries.get(key);
  }

  /** Loads a missing value and keeps it, unless the key changed meanwhile. */
  async load(key: string, read: () => Promise<V | undefined>): Promise<V | undefined> {
    const epoch = this.epoch;
    const value = await read();
    if (value !== undefined && epoch === this.epoch && this.coherent()) {
      if (this.entries.size >= this.maxEntries) {
        // Oldest first: a Map iterates in insertion order.
        const oldest = this.entries.keys().next();
        if (!oldest.done) this.entries.delete(oldest.value);
      }
      this.entries.set(key, value);
    }
    return value;
  }

  delete(key: string): void {
    this.entries.delete(key);
    this.epoch++;
  }

  clear(): void {
    this.entries.clear();
    this.epoch++;
  }

  get size(): number {
    return this.entries.size;
  }
}
