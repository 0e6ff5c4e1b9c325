// The comments as a board: a column per state (open, completed, Live, verified), the filters
// of the list. A card moves by its "Move to" menu (keyboard, phones) or by dragging it to a
// column; either does only what the comment's lifecycle lets this person do now (the server's
// `can`), and the board reloads as the server answers.
import type { AnswerOf, CallOf } from '@svc/contract/endpoints';
import type { VocabularyId } from '@svc/contract/locales/en';
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { t } from '../i18n.js';
import { Link } from '../router.js';
import { assigneeName, FormError, LabelChips, Loading, PriorityPill, useAction, useLoad } from '../ui.js';

type Comment = AnswerOf<'GET /api/comments'>['items'][number];
type Query = NonNullable<CallOf<'GET /api/comments'>['query']>;

const COLUMNS = ['open', 'completed', 'live', 'verified'] as const;
type Column = (typeof COLUMNS)[number];
/** Where a card can go besides the columns. */
type Target = Column | 'archived';

const HEADINGS: Record<Target, VocabularyId> = {
  open: 'state.open',
  completed: 'state.completed',
  live: 'state.live',
  verified: 'state.verified',
  archived: 'state.archived',
};

/** The column a comment stands in: verified first, then Live, then completed. */
function columnOf(c: Comment): Column {
  if (c.status === 'open') return 'open';
  if (c.verifiedAt) return 'verified';
  return c.deployedAt ? 'live' : 'completed';
}

/** Where this person may move the card now, and the request that does it. */
function movesOf(c: Comment): Partial<Record<Target, () => ReturnType<typeof api.call>>> {
  const params = { params: { id: c.id } };
  const from = columnOf(c);
  const moves: Partial<Record<Target, () => ReturnType<typeof api.call>>> = {};
  // A fix recorded from the board has no commit yet: its page records one (apply again with it).
  if (from === 'open' && c.can.apply)
    moves.completed = () => api.call('POST /api/comments/{id}/apply', { ...params, body: {} });
  if (from !== 'open' && c.can.reopen) moves.open = () => api.call('POST /api/comments/{id}/reopen', params);
  if ((from === 'completed' || from === 'live') && c.can.verify) {
    const verdict = { ok: true, ...(c.commitSha ? { commitSha: c.commitSha } : {}) };
    moves.verified = () => api.call('POST /api/comments/{id}/verify', { ...params, body: verdict });
  }
  if (c.can.archive) moves.archived = () => api.call('POST /api/comments/{id}/archive', params);
  return moves;
}

export function Board({ query }: { query: Omit<Query, 'status' | 'cursor' | 'limit'> }) {
  const load = (status: 'open' | 'applied') =>
    api.call('GET /api/comments', { query: { ...query, status, limit: 100 } });
  const open = useLoad(() => load('open'), [JSON.stringify(query)]);
  const applied = useLoad(() => load('applied'), [JSON.stringify(query)]);
  const action = useAction();
  const [dragged, setDragged] = useState<Comment | null>(null);
  if (!open.data || !applied.data) return <Loading error={open.error || applied.error} />;
  const cards = [...open.data.items, ...applied.data.items];
  const move = async (c: Comment, to: Target) => {
    const request = movesOf(c)[to];
    if (!request || (await action.run(request as () => Promise<never>)) === null) return;
    open.reload();
    applied.reload();
  };
  return (
    <>
      <FormError message={action.error} />
      <div class="board">
        {COLUMNS.map((column) => {
          const here = cards.filter((c) => columnOf(c) === column);
          const droppable = dragged !== null && movesOf(dragged)[column] !== undefined;
          return (
            <section
              key={column}
              class={droppable ? 'column droppable' : 'column'}
              aria-labelledby={`board-${column}`}
              onDragOver={(event) => droppable && event.preventDefault()}
              onDrop={(event) => {
                event.preventDefault();
                if (dragged) void move(dragged, column);
                setDragged(null);
              }}
            >
              <h2 id={`board-${column}`}>
                {t(HEADINGS[column])} <span class="muted small">{here.length}</span>
              </h2>
              {here.map((c) => (
                <BoardCard
                  key={c.id}
                  comment={c}
                  pending={action.pending}
                  onMove={(to) => void move(c, to)}
                  onDrag={setDragged}
                />
              ))}
            </section>
          );
        })}
      </div>
    </>
  );
}

function BoardCard({
  comment: c,
  pending,
  onMove,
  onDrag,
}: {
  comment: Comment;
  pending: boolean;
  onMove: (to: Target) => void;
  onDrag: (c: Comment | null) => void;
}) {
  const targets = Object.keys(movesOf(c)) as Target[];
  return (
    <article
      class="card board-card"
      draggable={targets.length > 0}
      onDragStart={(event) => {
        event.dataTransfer?.setData('text/plain', c.id);
        onDrag(c);
      }}
      onDragEnd={() => onDrag(null)}
    >
      <Link href={`/comments/${encodeURIComponent(c.id)}`}>
        {c.body.length > 120 ? `${c.body.slice(0, 120)}…` : c.body}
      </Link>
      <div class="row small">
        <PriorityPill priority={c.priority} />
        <span class="muted">{c.assignee ? assigneeName(c.assignee) : t('comments.unassigned')}</span>
      </div>
      <LabelChips labels={c.labels} />
      {targets.length ? (
        <select
          aria-label={t('board.moveTo', { comment: c.body.slice(0, 40) })}
          value=""
          disabled={pending}
          onChange={(event) => {
            const to = (event.target as HTMLSelectElement).value as Target;
            if (to) onMove(to);
          }}
        >
          <option value="">{t('board.move')}</option>
          {targets.map((to) => (
            <option key={to} value={to}>
              {t(HEADINGS[to])}
            </option>
          ))}
        </select>
      ) : null}
    </article>
  );
}
