// The board's columns and the moves between them: where a comment stands, where this person may
// move it now (the server's `can`), and the request that moves it.

import type { AnswerOf, CallOf } from '@svc/contract/endpoints';
import type { VocabularyId } from '@svc/contract/locales/en';
import { api } from '../../api.js';
import type { MessageId } from '../../i18n.js';

export type Comment = AnswerOf<'GET /api/comments'>['items'][number];
export type Query = NonNullable<CallOf<'GET /api/comments'>['query']>;

export const COLUMNS = ['open', 'completed', 'live', 'verified'] as const;
export type Column = (typeof COLUMNS)[number];
/** Where a card can go besides the columns. */
export type Target = Column | 'archived';

export const HEADINGS: Record<Target, VocabularyId> = {
  open: 'state.open',
  completed: 'state.completed',
  live: 'state.live',
  verified: 'state.verified',
  archived: 'state.archived',
};

/** What an empty column says lands in it. */
export const EMPTY: Record<Column, MessageId> = {
  open: 'board.emptyOpen',
  completed: 'board.emptyCompleted',
  live: 'board.emptyLive',
  verified: 'board.emptyVerified',
};

/** The column a comment stands in: its stage, as the server says it (the board lists no archived one). */
export const columnOf = (c: Comment): Column => (c.stage === 'archived' ? 'open' : c.stage);

/** The request of each action a move is made by. */
const MOVE_BY: Record<Comment['can']['moves'][number]['by'], (c: Comment) => ReturnType<typeof api.call>> = {
  apply: (c) => api.call('POST /api/comments/{id}/apply', { params: { id: c.id }, body: {} }),
  reopen: (c) => api.call('POST /api/comments/{id}/reopen', { params: { id: c.id } }),
  verify: (c) =>
    api.call('POST /api/comments/{id}/verify', {
      params: { id: c.id },
      body: { ok: true, ...(c.commitSha ? { commitSha: c.commitSha } : {}) },
    }),
  archive: (c) => api.call('POST /api/comments/{id}/archive', { params: { id: c.id } }),
};

/** Where this person may move the card now (the comment's `can.moves`), and the request that does it. */
export function movesOf(c: Comment): Partial<Record<Target, () => ReturnType<typeof api.call>>> {
  return Object.fromEntries(c.can.moves.map((move) => [move.to, () => MOVE_BY[move.by](c)]));
}

/** The next column `c` may go to, one way or the other along the board (none: null). */
export function nextColumn(c: Comment, forward: boolean): Column | null {
  const moves = movesOf(c);
  const from = COLUMNS.indexOf(columnOf(c));
  const ahead = forward ? COLUMNS.slice(from + 1) : COLUMNS.slice(0, from).reverse();
  return ahead.find((column) => moves[column]) ?? null;
}

export const excerpt = (c: Comment, chars: number) => (c.body.length > chars ? `${c.body.slice(0, chars)}…` : c.body);

/** The board's columns, cards in the order they are read: the most urgent first, then the newest. */
export function byUrgency(a: Comment, b: Comment) {
  const urgency = ['none', 'low', 'medium', 'high', 'urgent'];
  return urgency.indexOf(b.priority) - urgency.indexOf(a.priority) || (a.createdAt < b.createdAt ? 1 : -1);
}
