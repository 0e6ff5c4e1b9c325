import type { Actor } from './actor.js';
import { CoherentCache } from './cache/coherent-cache.js';
import type { Database } from './db/dialect/index.js';

export interface Caches {
  /** Authenticated callers by credential hash: a poll costs no database read. */
  actors: CoherentCache<Actor>;
  /** Unread notification counts by user id, for the polled badge. */
  unreadCounts: CoherentCache<number>;
}

/** Bounds memory: past this many entries the oldest are dropped (and reloaded on demand). */
const MAX_ENTRIES = 200_000;

/** The in-process caches, kept exact by the changes every server process announces. */
export function createCaches(database: Database): Caches {
  const heard = () => database.changes.heard();
  const caches: Caches = {
    actors: new CoherentCache(MAX_ENTRIES, heard),
    unreadCounts: new CoherentCache(MAX_ENTRIES, heard),
  };
  database.changes.subscribe((change) => {
    if (change === 'reset') {
      caches.actors.clear();
      caches.unreadCounts.clear();
    } else if (change.kind === 'credential') {
      caches.actors.delete(change.key);
    } else if (change.kind === 'unread') {
      caches.unreadCounts.delete(change.key);
    }
  });
  return caches;
}
