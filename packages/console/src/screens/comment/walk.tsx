// Walking through the list the comment was opened from: Back, Previous and Next, J and K.

import { useEffect, useState } from 'preact/hooks';
import { t } from '../../i18n.js';
import { Link, navigate } from '../../router.js';
import { type ListWalk, moreOfList, walkOfHistory } from '../comments/list-walk.js';

/** Set when J or K walks to another comment: its page, once shown, takes the focus to its heading. */
let focusOnArrival = false;

/** On the page J or K walked to, the focus goes to its heading (once). */
export function useFocusOnArrival() {
  useEffect(() => {
    if (!focusOnArrival) return;
    focusOnArrival = false;
    const heading = document.querySelector<HTMLElement>('main h1');
    if (!heading) return;
    heading.tabIndex = -1;
    heading.focus();
  }, []);
}

/** Where the comment stands in the list it was opened from, and the way to its neighbours. */
export interface Walking {
  walk: ListWalk;
  index: number;
  previous: string | null;
  next: string | null;
  go: (id: string) => void;
}

/**
 * The list the page was opened from (none when it was opened otherwise: a link, the inbox); at
 * its last comment, the list's next page is read, so that Next goes on.
 */
export function useListWalk(id: string): Walking | null {
  const [, redraw] = useState(0);
  const walk = walkOfHistory();
  const index = walk ? walk.ids.indexOf(id) : -1;
  const atEnd = walk !== null && index === walk.ids.length - 1 && walk.next !== null;
  useEffect(() => {
    if (!atEnd || !walk) return;
    let live = true;
    void moreOfList(walk).then((more) => {
      if (!live || !more) return;
      history.replaceState({ ...history.state, walk: more }, '');
      redraw((n) => n + 1);
    });
    return () => {
      live = false;
    };
  }, [atEnd, walk?.next]);
  if (!walk || index < 0) return null;
  return {
    walk,
    index,
    previous: walk.ids[index - 1] ?? null,
    next: walk.ids[index + 1] ?? null,
    go: (to) => {
      focusOnArrival = true;
      navigate(commentPath(to), false, { walk });
    },
  };
}

const commentPath = (id: string) => `/comments/${encodeURIComponent(id)}`;

/** Whether a key pressed there is typing (a field, a menu), not a command. */
const typing = (target: EventTarget | null) =>
  target instanceof Element && target.closest('input, textarea, select, [contenteditable]') !== null;

/** J and K: the next and the previous comment of the list, unless a key is typed in a field or a dialog is open. */
export function useWalkKeys(walking: Walking | null) {
  useEffect(() => {
    if (!walking) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.isComposing) return;
      const to = event.key === 'j' ? walking.next : event.key === 'k' ? walking.previous : null;
      if (!to || typing(event.target) || document.querySelector('dialog[open]')) return;
      event.preventDefault();
      walking.go(to);
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [walking?.previous, walking?.next]);
}

/** Back to the list (its filters), the comment's place in it, Previous and Next. */
export function WalkNav({ walking }: { walking: Walking | null }) {
  const walk = walking?.walk;
  return (
    <nav class="walk" aria-label={t('comment.listNav')}>
      <Link href={walk?.from ?? '/comments'}>{walk ? t('comment.backToList') : t('comment.back')}</Link>
      {walking && walk ? (
        <span class="row">
          {walking.previous ? (
            <Link href={commentPath(walking.previous)} state={{ walk }} aria-keyshortcuts="k" class="button">
              {t('comment.previous')}
            </Link>
          ) : null}
          <span>
            {t('comment.position', {
              index: walking.index + 1,
              count: walk.ids.length,
              more: walk.next ? 'yes' : 'no',
            })}
          </span>
          {walking.next ? (
            <Link href={commentPath(walking.next)} state={{ walk }} aria-keyshortcuts="j" class="button">
              {t('comment.next')}
            </Link>
          ) : null}
          <span class="muted small hide-phone">{t('comment.keysHint')}</span>
        </span>
      ) : null}
    </nav>
  );
}
