import type { Comment } from '@svc/contract';
import { croppedAround } from '@svc/contract/image-encoding';
import { h } from '../dom.js';
import type { Store } from '../store.js';
import type { Actions } from './actions.js';

// Before and after, for the author asked to verify a fix: what they reported (the screenshot,
// cropped around the pinned element, marks and all) beside the element as it is now on this
// page, so that the verdict is given looking at both. The picture of now is kept and sent with
// the verdict (see panel-actions' verify); the author's is also kept on the server while the
// fix waits, so that the team sees what its author sees. What they hid on their screenshot is
// painted over in it too (see hidden-regions.ts), and the card says so, with a way to show it
// in this picture, and to hide it again.

/** Object URLs of the pictures shown, by comment, commit and side: made once each. */
const pictures = new Map<string, Promise<{ blob: Blob; url: string } | null>>();

const picture = (key: string, make: () => Promise<Blob | null>) => {
  let made = pictures.get(key);
  if (!made) {
    made = make()
      .catch(() => null)
      .then((blob) => (blob ? { blob, url: URL.createObjectURL(blob) } : null));
    pictures.set(key, made);
  }
  return made;
};

/** The picture of now is of one element at one fix: a new commit or a moved pin makes another. */
const nowKey = (c: Pick<Comment, 'id' | 'commitSha' | 'repinned'>) => `now:${c.id}:${c.commitSha}:${c.repinned?.at}`;

/** The pictures of now in which their author chose to show what they had hidden (by `nowKey`): those alone. */
const uncovered = new Set<string>();

/** Whether the author chose to show what they hid in comment `c`'s picture of now (and its verdict's). */
export const isUncovered = (c: Pick<Comment, 'id' | 'commitSha' | 'repinned'>) => uncovered.has(nowKey(c));

/** The picture of now as it is shown: what was hidden in it covered, or not. */
const nowPictureKey = (c: Pick<Comment, 'id' | 'commitSha' | 'repinned'>) =>
  `${nowKey(c)}:${isUncovered(c) ? 'uncovered' : 'covered'}`;

/** Shows (or hides again) what the author hid, in `c`'s picture of now: taken again so, and kept so. */
export function uncover(c: Pick<Comment, 'id' | 'commitSha' | 'repinned'>, shown: boolean): void {
  if (shown) uncovered.add(nowKey(c));
  else uncovered.delete(nowKey(c));
  pictures.delete(nowPictureKey(c));
}

/** The picture of now the card showed, to send with the verdict; null when there is none. */
export async function nowShown(c: Pick<Comment, 'id' | 'commitSha' | 'repinned'>): Promise<Blob | null> {
  return (await pictures.get(nowPictureKey(c)))?.blob ?? null;
}

/** A fix that waits for this person's verdict: applied (Live or not: Live is applied and deployed), not yet verified. */
export const awaitsVerdict = (c: Comment) => c.can.verify && c.status === 'applied' && !c.verifiedAt;

/** A fix that waits for this person's verdict, whose element is not on its page any more: they may point at it again. */
export const elementGone = (store: Store, c: Comment) =>
  awaitsVerdict(c) && c.anchor !== null && c.pageUrl === store.page() && store.view.placements.get(c.id) === null;

/** The comment's screenshot, cropped around where its element was. */
async function before(store: Store, c: Comment): Promise<Blob | null> {
  const url = await store.screenshots.urlOf(c.id);
  if (!url) return null;
  const shot = await (await fetch(url)).blob();
  const box = c.context?.pinnedBox;
  return box && c.context ? croppedAround(shot, box, c.context.viewport.width) : shot;
}

/**
 * The element now, taken once the pin is found: once per comment, commit and pin in a page
 * visit (so the author's is kept on the server once, see `pictureNow`).
 */
const now = (actions: Actions, c: Comment) => picture(nowPictureKey(c), () => actions.pictureNow(c.id));

/** Under a picture of now taken with hidden regions: that they stay hidden, or that they are shown, and the button that changes it. */
function hiddenNote(store: Store, actions: Actions, c: Comment): Node {
  const { t } = store.i18n;
  const shown = isUncovered(c);
  return h(
    'p',
    { class: 'hidden-note' },
    t(shown ? 'verify.hiddenShown' : 'verify.hiddenStay'),
    ' ',
    h(
      'button',
      { class: 'link', type: 'button', id: `svc-uncover-${c.id}`, onClick: () => actions.uncover(c.id, !shown) },
      t(shown ? 'verify.hideAgain' : 'verify.uncover'),
    ),
  );
}

/** What stands for the picture of now when there is none to take: why, in the reader's words. */
function nowUntaken(store: Store, actions: Actions, c: Comment): Node | null {
  const { t } = store.i18n;
  if (c.pageUrl !== store.page()) return h('p', { class: 'muted' }, t('verify.notHere'));
  if (!c.anchor) return null;
  const placed = store.view.placements.get(c.id);
  // Not looked for yet (the pins load after the cards): taken when it is found.
  if (placed === undefined) return h('p', { class: 'muted' }, t('verify.looking'));
  if (placed) return null;
  return h(
    'div',
    { class: 'gone' },
    h('p', null, t('verify.gone')),
    c.can.repin
      ? h(
          'button',
          { class: 'btn', type: 'button', id: `svc-point-again-${c.id}`, onClick: () => actions.repin(c.id) },
          t('verify.pointAgain'),
        )
      : null,
  );
}

/** Before and now, side by side; only for a fix that waits for this person's verdict. */
export function beforeAfter(store: Store, actions: Actions, c: Comment): Node | null {
  if (!awaitsVerdict(c)) return null;
  const { t } = store.i18n;
  const side = (caption: string, made: Promise<{ url: string } | null>, missing: string) => {
    const image = h('img', { alt: caption });
    const figure = h('figure', null, image, h('figcaption', null, caption));
    void made.then((shown) => {
      if (shown) image.src = shown.url;
      else image.replaceWith(h('p', { class: 'muted' }, missing));
    });
    return figure;
  };
  const untaken = nowUntaken(store, actions, c);
  return h(
    'div',
    { class: 'before-after', role: 'group', 'aria-label': t('verify.compare') },
    c.screenshot
      ? side(
          t('verify.before'),
          picture(`before:${c.id}`, () => before(store, c)),
          t('verify.noBefore'),
        )
      : null,
    untaken
      ? h('figure', null, untaken, h('figcaption', null, t('verify.now')))
      : side(t('verify.now'), now(actions, c), t('verify.noNow')),
    c.context?.hidden && !untaken ? hiddenNote(store, actions, c) : null,
  );
}
