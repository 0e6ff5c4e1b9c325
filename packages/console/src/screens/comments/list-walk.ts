// The list a comment was opened from, carried to its page so that it goes on to the next of them.

import { api } from '../../api.js';
import { filtersOf, listQuery } from './query.js';

/**
 * The list a comment was opened from, kept with the comment page's history entry: the list's
 * address (its filters), its comments in order, and the cursor of the page after them.
 */
export interface ListWalk {
  from: string;
  ids: string[];
  next: string | null;
}

/** The list the current history entry was opened from, if any (see `Link`'s state). */
export function walkOfHistory(): ListWalk | null {
  const walk = (history.state as { walk?: ListWalk } | null)?.walk;
  return walk && typeof walk.from === 'string' && Array.isArray(walk.ids) ? walk : null;
}

/** The walk with the list's next page added, or null when it cannot be read. */
export async function moreOfList(walk: ListWalk): Promise<ListWalk | null> {
  if (!walk.next) return null;
  const filters = filtersOf(new URLSearchParams(walk.from.split('?')[1] ?? ''));
  const answer = await api.call('GET /api/comments', { query: { ...listQuery(filters), cursor: walk.next } });
  if (!answer.ok) return null;
  const ids = answer.data.items.map((c) => c.id).filter((id) => !walk.ids.includes(id));
  return { ...walk, ids: [...walk.ids, ...ids], next: answer.data.nextCursor };
}
