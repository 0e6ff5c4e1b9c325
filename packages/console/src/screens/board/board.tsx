// The comments as a board: a column per state (open, completed, Live, verified), with the list's
// filters. A card says at a glance what and where (its pin's number as the widget draws it, its
// page, its screenshot around the pinned element), who wrote it and when, and who is on it; the
// open column keeps what is new apart from what someone is on. A card moves by dragging (mouse,
// pen, or a finger on its handle) or by keyboard on its handle (→ and ← to the next column it
// may go to, Enter for a menu of them all), said by a live region; only where what the comment
// lets this person do now (the server's `can`) allows, and the board reloads as the server answers.

import type { ComponentChildren } from 'preact';
import { useEffect, useId, useRef, useState } from 'preact/hooks';
import { api } from '../../api.js';
import { t } from '../../i18n.js';
import { Loading, useAction, useLoad } from '../../loading.js';
import { FormError } from '../../ui.js';
import { BoardCard } from './card.js';
import {
  byUrgency,
  COLUMNS,
  type Column,
  type Comment,
  columnOf,
  EMPTY,
  excerpt,
  HEADINGS,
  movesOf,
  nextColumn,
  type Query,
  type Target,
} from './columns.js';

export function Board({ query }: { query: Omit<Query, 'status' | 'cursor' | 'limit'> }) {
  const load = (status: 'open' | 'applied') =>
    api.call('GET /api/comments', { query: { ...query, status, limit: 100 } });
  const open = useLoad(() => load('open'), [JSON.stringify(query)]);
  const applied = useLoad(() => load('applied'), [JSON.stringify(query)]);
  const action = useAction();
  const [said, setSaid] = useState('');
  /** Says `text` in the live region (said again when it is the same as the last). */
  const say = (text: string) => setSaid((was) => (was === text ? `${text}\u00a0` : text));
  // While a move is on its way, and until both lists are read again, the card stands where it
  // goes (back where it was if the move is refused); then the move is said, and the card may
  // move again (what it may do next is read with it).
  const [moving, setMoving] = useState<{ card: Comment; to: Target; lists?: unknown[]; said?: string } | null>(null);
  const [dragging, setDragging] = useState<{ card: Comment; over: Column | null } | null>(null);
  // What takes focus once the board is drawn again after a move by keyboard: the card's handle
  // in its new column, or its old column's heading when it left the board (archived).
  const refocus = useRef<string | null>(null);
  const board = useRef<HTMLDivElement>(null);
  const hintId = useId();

  const lists = open.data && applied.data ? [...open.data.items, ...applied.data.items] : null;
  // The moved card stays drawn while one list has been read again and the other not yet.
  const loaded =
    lists && moving && moving.to !== 'archived' && !lists.some((c) => c.id === moving.card.id)
      ? [...lists, moving.card]
      : lists;
  useEffect(() => {
    if (moving?.lists && open.data !== moving.lists[0] && applied.data !== moving.lists[1]) {
      setMoving(null);
      if (moving.said) say(moving.said);
    }
    const selector = refocus.current;
    if (!selector) return;
    const target = board.current?.querySelector<HTMLElement>(selector);
    if (target && document.activeElement !== target) target.focus();
    if (!moving) refocus.current = null;
  });
  if (!loaded) return <Loading error={open.error || applied.error} />;

  const move = async (c: Comment, to: Target, byKeyboard: boolean) => {
    const request = movesOf(c)[to];
    if (!request || moving) return;
    refocus.current = !byKeyboard
      ? null
      : to === 'archived'
        ? `#board-${columnOf(c)}`
        : `[data-handle="${CSS.escape(c.id)}"]`;
    setMoving({ card: c, to });
    if (!(await action.run(request as () => Promise<never>))) {
      setMoving(null);
      return;
    }
    const said = t('board.moved', { comment: excerpt(c, 60), column: t(HEADINGS[to]) });
    setMoving({ card: c, to, lists: [open.data, applied.data], said });
    open.reload();
    applied.reload();
  };
  const step = (c: Comment, forward: boolean) => {
    if (moving) return;
    const to = nextColumn(c, forward);
    if (to) void move(c, to, true);
    else say(t('board.noFurther', { comment: excerpt(c, 60) }));
  };
  const placed = (c: Comment): Target => (moving?.card.id === c.id ? moving.to : columnOf(c));
  const cardProps = (c: Comment) => ({
    comment: c,
    onMove: (to: Target, byKeyboard: boolean) => void move(c, to, byKeyboard),
    onStep: (forward: boolean) => step(c, forward),
    onDrag: (over: Column | null, dropped: boolean) => {
      if (dropped) {
        setDragging(null);
        if (over && over !== columnOf(c) && movesOf(c)[over]) void move(c, over, false);
      } else setDragging({ card: c, over });
    },
    hintId,
  });

  return (
    <>
      <p id={hintId} class="muted small">
        {t('board.hint')}
      </p>
      <p class="sr-only" role="status">
        {said}
      </p>
      <FormError message={action.error} />
      <div class={dragging ? 'board dragging' : 'board'} ref={board}>
        {COLUMNS.map((column) => {
          const here = loaded.filter((c) => placed(c) === column).sort(byUrgency);
          const allowed = dragging !== null && column !== columnOf(dragging.card) && !!movesOf(dragging.card)[column];
          const classes = ['column', allowed ? 'droppable' : '', allowed && dragging?.over === column ? 'over' : ''];
          // What is new (nobody on it) apart from what someone is on.
          const groups =
            column === 'open'
              ? ([
                  ['board.new', here.filter((c) => !c.assignee)],
                  ['board.taken', here.filter((c) => c.assignee)],
                ] as const)
              : null;
          return (
            <section
              key={column}
              class={classes.filter(Boolean).join(' ')}
              data-column={column}
              aria-labelledby={`board-${column}`}
            >
              <h2 id={`board-${column}`} tabIndex={-1}>
                {t(HEADINGS[column])} <span class="muted small">{here.length}</span>
              </h2>
              {here.length === 0 ? <p class="muted small column-empty">{t(EMPTY[column])}</p> : null}
              {groups
                ? groups.map(([heading, cards]) =>
                    cards.length ? (
                      <CardGroup key={heading} heading={t(heading)} count={cards.length}>
                        {cards.map((c) => (
                          <BoardCard key={c.id} {...cardProps(c)} />
                        ))}
                      </CardGroup>
                    ) : null,
                  )
                : here.map((c) => <BoardCard key={c.id} {...cardProps(c)} />)}
            </section>
          );
        })}
      </div>
    </>
  );
}

/** A named group of cards inside a column. */
function CardGroup({ heading, count, children }: { heading: string; count: number; children: ComponentChildren }) {
  return (
    <div class="card-group">
      <h3>
        {heading} <span class="muted">{count}</span>
      </h3>
      {children}
    </div>
  );
}
