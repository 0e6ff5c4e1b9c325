// A card of the board: what and where at a glance, its screenshot around the pinned element, and
// its handle, which moves it by dragging or by keyboard (with a menu of where it may go).

import { croppedAround } from '@svc/contract/image-encoding';
import { useEffect, useId, useLayoutEffect, useRef, useState } from 'preact/hooks';
import { api } from '../../api.js';
import { assigneeName, DuePill, LabelChips, PriorityPill, pageName } from '../../comment-pills.js';
import { t } from '../../i18n.js';
import { Link } from '../../router.js';
import { Time } from '../../ui.js';
import { type Column, type Comment, columnOf, excerpt, HEADINGS, movesOf, type Target } from './columns.js';

/** How far (CSS pixels) a pointer travels before a press becomes a drag rather than a click. */
const DRAG_THRESHOLD = 6;
/** How near (CSS pixels) the window's top or bottom edge a drag scrolls the page, and by how much a frame. */
const SCROLL_EDGE = 56;
const SCROLL_STEP = 14;
/** How much of a long comment a card shows. */
const EXCERPT_CHARS = 160;

/**
 * The screenshot around the pinned element, small; read once the card is near the window (a
 * board of a hundred cards does not fetch a hundred pictures at once). Decorative: the card's
 * words say what it is about.
 */
function Thumbnail({ comment: c }: { comment: Comment }) {
  const [url, setUrl] = useState<string | null>(null);
  const box = useRef<HTMLDivElement>(null);
  const shot = c.screenshot;
  useEffect(() => {
    const element = box.current;
    if (!shot || !element) return;
    let objectUrl: string | null = null;
    let live = true;
    const read = async () => {
      const picture = await api.blob(shot.url);
      const pinned = c.context?.pinnedBox;
      const shown =
        picture && pinned && c.context
          ? ((await croppedAround(picture, pinned, c.context.viewport.width)) ?? picture)
          : picture;
      if (!live || !shown) return;
      objectUrl = URL.createObjectURL(shown);
      setUrl(objectUrl);
    };
    const seen = new IntersectionObserver(
      (entries) => {
        if (!entries.some((entry) => entry.isIntersecting)) return;
        seen.disconnect();
        void read();
      },
      { rootMargin: '400px' },
    );
    seen.observe(element);
    return () => {
      live = false;
      seen.disconnect();
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [shot?.url]);
  if (!shot) return null;
  return (
    <div class="thumb" ref={box}>
      {url ? <img src={url} alt="" draggable={false} /> : null}
    </div>
  );
}

export function BoardCard({
  comment: c,
  onMove,
  onStep,
  onDrag,
  hintId,
}: {
  comment: Comment;
  onMove: (to: Target, byKeyboard: boolean) => void;
  onStep: (forward: boolean) => void;
  /** Where a drag of it is over (null: no column it may go to); `dropped` once released. */
  onDrag: (over: Column | null, dropped: boolean) => void;
  hintId: string;
}) {
  const targets = Object.keys(movesOf(c)) as Target[];
  const [menu, setMenu] = useState<'closed' | 'pointer' | 'keyboard'>('closed');
  const card = useRef<HTMLElement>(null);
  const handle = useRef<HTMLButtonElement>(null);
  const dragged = useRef(false);
  const titleId = useId();
  const menuId = useId();
  const name = excerpt(c, 40);

  /** Follows a press on the card: past DRAG_THRESHOLD it drags, the card under the pointer, the page scrolling at its edges. */
  const press = (down: PointerEvent) => {
    dragged.current = false;
    if (!targets.length || down.button !== 0) return;
    const target = down.target as Element;
    // A finger drags by the handle only: elsewhere it scrolls the page, as it should.
    if (down.pointerType === 'touch' && !target.closest('.handle')) return;
    if (target.closest('[role="menu"]')) return;
    const element = card.current;
    if (!element) return;
    // A mouse drag is no text selection (a button still takes focus, a link still opens on click).
    if (down.pointerType === 'mouse' && !target.closest('button')) down.preventDefault();
    const start = { x: down.clientX, y: down.clientY, scroll: window.scrollY };
    let at = { x: down.clientX, y: down.clientY };
    let over: Column | null = null;
    let frame = 0;
    const columnAt = (x: number, y: number): Column | null => {
      for (const section of document.querySelectorAll<HTMLElement>('.board .column')) {
        const r = section.getBoundingClientRect();
        if (x >= r.left && x <= r.right && y >= r.top && y <= r.bottom) return section.dataset.column as Column;
      }
      return null;
    };
    const follow = () => {
      element.style.transform = `translate(${at.x - start.x}px, ${at.y - start.y + window.scrollY - start.scroll}px)`;
      const now = columnAt(at.x, at.y);
      const allowed = now && now !== columnOf(c) && targets.includes(now) ? now : null;
      if (allowed !== over) {
        over = allowed;
        onDrag(over, false);
      }
    };
    // Near the window's top or bottom, the page scrolls under the card (a phone's columns stand one above the other).
    const scroll = () => {
      const edge = at.y < SCROLL_EDGE ? -1 : at.y > window.innerHeight - SCROLL_EDGE ? 1 : 0;
      if (edge) {
        window.scrollBy(0, edge * SCROLL_STEP);
        follow();
      }
      frame = requestAnimationFrame(scroll);
    };
    const moved = (event: PointerEvent) => {
      if (event.pointerId !== down.pointerId) return;
      at = { x: event.clientX, y: event.clientY };
      if (!dragged.current) {
        if (Math.hypot(at.x - start.x, at.y - start.y) < DRAG_THRESHOLD) return;
        dragged.current = true;
        element.classList.add('lifted');
        window.getSelection()?.removeAllRanges();
        onDrag(null, false);
        frame = requestAnimationFrame(scroll);
      }
      event.preventDefault();
      follow();
    };
    const end = (event: PointerEvent) => {
      if (event.pointerId !== down.pointerId) return;
      window.removeEventListener('pointermove', moved);
      window.removeEventListener('pointerup', end);
      window.removeEventListener('pointercancel', end);
      window.removeEventListener('keydown', onEscape);
      cancelAnimationFrame(frame);
      element.style.transform = '';
      element.classList.remove('lifted');
      if (!dragged.current) return;
      onDrag(event.type === 'pointerup' ? over : null, true);
      // The click that may follow the release (same task) is the drag's, not the link's or the handle's.
      setTimeout(() => {
        dragged.current = false;
      });
    };
    const onEscape = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      over = null;
      end(new PointerEvent('pointercancel', { pointerId: down.pointerId }));
    };
    window.addEventListener('pointermove', moved, { passive: false });
    window.addEventListener('pointerup', end);
    window.addEventListener('pointercancel', end);
    window.addEventListener('keydown', onEscape);
  };

  const rtl = () => getComputedStyle(card.current ?? document.body).direction === 'rtl';
  const closeMenu = (refocusHandle: boolean) => {
    setMenu('closed');
    if (refocusHandle) handle.current?.focus();
  };

  return (
    <article
      ref={card}
      class="card board-card"
      aria-labelledby={titleId}
      onPointerDown={(event) => press(event as unknown as PointerEvent)}
      // A click that ended a drag is not a click on the link or the handle under it.
      onClickCapture={(event) => {
        if (!dragged.current) return;
        event.preventDefault();
        event.stopPropagation();
      }}
    >
      <Thumbnail comment={c} />
      <div class="card-title">
        {c.pin !== null ? (
          <span class={c.status === 'applied' ? 'pin-number fixed' : 'pin-number'}>
            <span aria-hidden="true">{c.pin}</span>
            <span class="sr-only">{t('board.pin', { number: c.pin })}</span>
          </span>
        ) : null}
        <Link id={titleId} href={`/comments/${encodeURIComponent(c.id)}`} draggable={false}>
          {excerpt(c, EXCERPT_CHARS)}
        </Link>
        {targets.length ? (
          <span class="move">
            <button
              ref={handle}
              type="button"
              class="handle"
              data-handle={c.id}
              aria-label={t('board.moveCard', { comment: name })}
              aria-describedby={hintId}
              aria-haspopup="menu"
              aria-expanded={menu !== 'closed'}
              aria-controls={menu !== 'closed' ? menuId : undefined}
              onClick={(event) => {
                setMenu(menu === 'closed' ? (event.detail === 0 ? 'keyboard' : 'pointer') : 'closed');
              }}
              onKeyDown={(event) => {
                if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
                event.preventDefault();
                onStep((event.key === 'ArrowRight') !== rtl());
              }}
            >
              <span aria-hidden="true">⠿</span>
            </button>
            {menu !== 'closed' ? (
              <MoveMenu
                id={menuId}
                label={t('board.moveCard', { comment: name })}
                targets={targets}
                focusFirst={menu === 'keyboard'}
                onChoose={(to) => {
                  closeMenu(false);
                  onMove(to, menu === 'keyboard');
                }}
                onClose={closeMenu}
              />
            ) : null}
          </span>
        ) : null}
      </div>
      {/* Who wrote it, when, and where: each dot kept with what it leads, a long page cut short. */}
      <div class="card-meta muted small">
        <span class="card-author">{c.author.name}</span>{' '}
        <span>
          <span aria-hidden="true">· </span>
          <Time iso={c.createdAt} />
        </span>{' '}
        <span class="card-page" title={c.pageUrl}>
          <span aria-hidden="true">· </span>
          <bdi>{pageName(c.pageUrl)}</bdi>
        </span>
      </div>
      {c.priority !== 'none' || c.dueOn || c.assignee || c.labels.length ? (
        <div class="pills">
          <PriorityPill priority={c.priority} />
          <DuePill comment={c} />
          {c.assignee ? <span class="pill assignee">{assigneeName(c.assignee)}</span> : null}
          <LabelChips labels={c.labels} />
        </div>
      ) : null}
    </article>
  );
}

/**
 * The places a card may go, as a menu (the ARIA menu button pattern): ↑ ↓ Home End move between
 * them, Enter chooses, Escape or Tab closes, as does a press elsewhere.
 */
function MoveMenu({
  id,
  label,
  targets,
  focusFirst,
  onChoose,
  onClose,
}: {
  id: string;
  label: string;
  targets: Target[];
  focusFirst: boolean;
  onChoose: (to: Target) => void;
  /** `refocus`: give focus back to the handle (Escape), not where the press went. */
  onClose: (refocus: boolean) => void;
}) {
  const list = useRef<HTMLDivElement>(null);
  const items = () => [...(list.current?.querySelectorAll<HTMLButtonElement>('[role="menuitem"]') ?? [])];
  // Before it is painted: a key pressed as soon as it shows is already the menu's.
  useLayoutEffect(() => {
    if (focusFirst) items()[0]?.focus();
    const away = (event: PointerEvent) => {
      if (!list.current?.parentElement?.contains(event.target as Node)) onClose(false);
    };
    document.addEventListener('pointerdown', away);
    return () => document.removeEventListener('pointerdown', away);
  }, []);
  return (
    <div
      ref={list}
      id={id}
      role="menu"
      aria-label={label}
      class="move-menu"
      onKeyDown={(event) => {
        const all = items();
        const at = all.indexOf(document.activeElement as HTMLButtonElement);
        const go = (i: number) => all[(i + all.length) % all.length]?.focus();
        if (event.key === 'ArrowDown') go(at + 1);
        else if (event.key === 'ArrowUp') go(at - 1);
        else if (event.key === 'Home') go(0);
        else if (event.key === 'End') go(all.length - 1);
        else if (event.key === 'Escape') onClose(true);
        else if (event.key === 'Tab') onClose(false);
        else return;
        if (event.key !== 'Tab') event.preventDefault();
      }}
    >
      {targets.map((to) => (
        <button key={to} type="button" role="menuitem" tabIndex={-1} onClick={() => onChoose(to)}>
          {t(HEADINGS[to])}
        </button>
      ))}
    </div>
  );
}
