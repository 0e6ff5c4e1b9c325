import { invalidField } from '../errors.js';
import { ID_BODY_PATTERN } from '../ids.js';

export const DEFAULT_LIMIT = 20;

/** Cursors are the last id of a page, wrapped so that clients treat them as opaque. */
export function encodeCursor(lastId: string): string {
  return Buffer.from(lastId, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string | undefined): string | undefined {
  if (cursor === undefined) return undefined;
  const id = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!ID_BODY_PATTERN.test(id)) throw invalidField('/cursor', 'is not a cursor this API returned');
  return id;
}

/**
 * What a list request asks for: the page size, the keyset position (the id of the
 * previous page's last row), and how many rows to fetch (one more than the page, to see
 * whether another page follows).
 */
export function pageRequest(query: { limit?: number; cursor?: string }) {
  const limit = query.limit ?? DEFAULT_LIMIT;
  return { limit, after: decodeCursor(query.cursor), fetch: limit + 1 };
}

/** Rows were fetched with `limit + 1`, so a surplus row means there is another page. */
export function toPage<Row extends { id: string }, Item>(
  rows: Row[],
  limit: number,
  present: (row: Row) => Item,
): { items: Item[]; nextCursor: string | null } {
  const pageRows = rows.slice(0, limit);
  const last = pageRows[pageRows.length - 1];
  return {
    items: pageRows.map(present),
    nextCursor: rows.length > limit && last ? encodeCursor(last.id) : null,
  };
}
