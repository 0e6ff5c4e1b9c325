/**
 * An in-process cache of values whose truth is in the database, kept exact by the code
 * paths that change them: they delete the key after their transaction commits (and, on
 * PostgreSQL, every other process deletes it when the change feed tells it).
 *
 * A load that raced a change must not store what it read: a deletion of a key being loaded
 * marks it, and the load stores its value only if its key was not marked (nor everything
 * cleared) while it was reading. The mark is per key: with one mark for all keys, a hundred
 * writes a second to other keys kept voiding the loads of a database a few milliseconds away,
 * and every poll of a changed count went to the database again and again.
 */
export class CoherentCache<V> {
  private readonly entries = new Map<string, V>();
  /** Keys with loads in flight: how many, and how many times each was deleted meanwhile. */
  private readonly loading = new Map<string, { loads: number; deletions: number }>();
  private clears = 0;

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
    const clears = this.clears;
    const flight = this.loading.get(key) ?? { loads: 0, deletions: 0 };
    flight.loads++;
    this.loading.set(key, flight);
    const deletions = flight.deletions;
    let value: V | undefined;
    try {
      value = await read();
    } finally {
      if (--flight.loads === 0) this.loading.delete(key);
    }
    const unchanged = clears === this.clears && deletions === flight.deletions;
    if (value !== undefined && unchanged && this.coherent()) {
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
    const flight = this.loading.get(key);
    if (flight) flight.deletions++;
  }

  clear(): void {
    this.entries.clear();
    this.clears++;
  }

  get size(): number {
    return this.entries.size;
  }
}
