import type { Comment } from '@svc/contract';
import { croppedAround } from '@svc/contract/image-encoding';
import { h, setStyles } from '../dom.js';
import { type Picture, screenshotPath } from '../images.js';
import { screenshotScale } from '../screenshot-scale.js';
import type { Store } from '../store.js';
import type { Actions } from './actions.js';

// Before and after, for the author asked to verify a fix: what they reported (the screenshot,
// cropped around the pinned element, marks and all) beside the element as it is now on this
// page, so that the verdict is given looking at both. The picture of now is kept and sent with
// the verdict (see panel-actions' verify); the author's is also kept on the server while the
// fix waits, so that the team sees what its author sees. What they hid on their screenshot is
// painted over in it too (see hidden-regions.ts), and the card says so, with a way to show it
// in this picture, and to hide it again.
// Both are drawn at one scale, the page's pixels as large in one as in the other (a phone's
// picture has three for each, a desktop's one), as large as the card allows but never so small
// that text cannot be read: what is wider scrolls. Full size shows both at the page's own size.

/** The picture of now is of one element at one fix: a new commit or a moved pin makes another. */
const nowKey = (c: Pick<Comment, 'id' | 'commitSha' | 'repinned'>) => `now:${c.id}:${c.commitSha}:${c.repinned?.at}`;

/** Whether the author chose to show what they hid in comment `c`'s picture of now (and its verdict's). */
export const isUncovered = (store: Store, c: Pick<Comment, 'id' | 'commitSha' | 'repinned'>) =>
  store.view.uncovered.has(nowKey(c));

/** The picture of now as it is shown (the Store's images keep it): what was hidden in it covered, or not. */
const nowPictureKey = (c: Pick<Comment, 'id' | 'commitSha' | 'repinned'>, uncovered: boolean) =>
  `${nowKey(c)}:${uncovered ? 'uncovered' : 'covered'}`;

/** Shows (or hides again) what the author hid, in `c`'s picture of now: taken again so, and kept so. */
export function uncover(store: Store, c: Pick<Comment, 'id' | 'commitSha' | 'repinned'>, shown: boolean): void {
  store.images.forgetPicture(nowPictureKey(c, shown));
  const uncovered = new Set(store.view.uncovered);
  if (shown) uncovered.add(nowKey(c));
  else uncovered.delete(nowKey(c));
  store.view.set({ uncovered });
}

/** The picture of now the card showed, to send with the verdict; null when there is none. */
export async function nowShown(store: Store, c: Pick<Comment, 'id' | 'commitSha' | 'repinned'>): Promise<Blob | null> {
  return (await store.images.made(nowPictureKey(c, isUncovered(store, c))))?.blob ?? null;
}

/** A fix that waits for this person's verdict: applied (Live or not: Live is applied and deployed), not yet verified. */
export const awaitsVerdict = (c: Comment) => c.can.verify && c.status === 'applied' && !c.verifiedAt;

/** A fix that waits for this person's verdict, whose element is not on its page any more: they may point at it again. */
export const elementGone = (store: Store, c: Comment) =>
  awaitsVerdict(c) && c.anchor !== null && c.pageUrl === store.page() && store.view.placements.get(c.id) === null;

/** The comment's screenshot, cropped around where its element was. */
async function before(store: Store, c: Comment): Promise<Blob | null> {
  const url = await store.images.urlOf(screenshotPath(c.id));
  if (!url) return null;
  const shot = await (await fetch(url)).blob();
  const box = c.context?.pinnedBox;
  return box && c.context ? croppedAround(shot, box, c.context.viewport.width) : shot;
}

/**
 * The element now, taken once the pin is found: once per comment, commit and pin in a page
 * visit (so the author's is kept on the server once, see `pictureNow`).
 */
const now = (store: Store, actions: Actions, c: Comment) =>
  store.images.picture(nowPictureKey(c, isUncovered(store, c)), () => actions.pictureNow(c.id));

/** Under a picture of now taken with hidden regions: that they stay hidden, or that they are shown, and the button that changes it. */
function hiddenNote(store: Store, actions: Actions, c: Comment): Node {
  const { t } = store.i18n;
  const shown = isUncovered(store, c);
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

/** The page's pixels are drawn at least this large: 16 px text reads at 12 px. Wider pictures scroll. */
const READABLE_SCALE = 0.75;

/**
 * Sizes the pictures at one scale once they are in (each one's `scale`: its pixels for a pixel of
 * the page): each as wide as the page it shows, times the scale that fits the widest in the
 * card, at most 1 and at least READABLE_SCALE (by CSS, which knows the card's width).
 */
async function atOneScale(pictures: { image: HTMLImageElement; scale: number }[]): Promise<void> {
  await Promise.all(pictures.map(({ image }) => image.decode().catch(() => {})));
  const shown = pictures.filter(({ image }) => image.naturalWidth > 0);
  const widths = shown.map(({ image, scale }) => image.naturalWidth / scale);
  const widest = Math.max(...widths);
  shown.forEach(({ image }, i) => {
    const width = widths[i] ?? widest;
    setStyles(image, {
      '--page': `${width}px`,
      '--readable': `${width * READABLE_SCALE}px`,
      '--fit': `${(100 * width) / widest}%`,
    });
  });
}

/** Before and now, one above the other at one scale; only for a fix that waits for this person's verdict. */
export function beforeAfter(store: Store, actions: Actions, c: Comment): Node | null {
  if (!awaitsVerdict(c)) return null;
  const { t } = store.i18n;
  const fullSize = store.view.fullSize.has(c.id);
  const pictures: { image: HTMLImageElement; scale: number }[] = [];
  const made: Promise<unknown>[] = [];
  const side = (caption: string, picture: Promise<Picture | null>, scale: number, missing: string) => {
    const image = h('img', { alt: caption });
    const figure = h('figure', null, h('figcaption', null, caption), image);
    pictures.push({ image, scale });
    made.push(
      picture.then((shown) => {
        if (shown) image.src = shown.url;
        else image.replaceWith(h('p', { class: 'muted' }, missing));
      }),
    );
    return figure;
  };
  const untaken = nowUntaken(store, actions, c);
  const context = c.context;
  const frames = h(
    'div',
    // Focusable: what is wider than the card scrolls, by keyboard too.
    { class: fullSize ? 'frames full' : 'frames', id: `svc-frames-${c.id}`, tabindex: '0' },
    c.screenshot
      ? side(
          t('verify.before'),
          store.images.picture(`before:${c.id}`, () => before(store, c)),
          context ? screenshotScale(context.devicePixelRatio, context.viewport.width) : 1,
          t('verify.noBefore'),
        )
      : null,
    untaken
      ? h('figure', null, h('figcaption', null, t('verify.now')), untaken)
      : side(t('verify.now'), now(store, actions, c), screenshotScale(devicePixelRatio, innerWidth), t('verify.noNow')),
  );
  void Promise.all(made).then(() => atOneScale(pictures));
  const zoom = pictures.length
    ? h(
        'button',
        {
          class: 'chip',
          type: 'button',
          id: `svc-full-size-${c.id}`,
          'aria-pressed': String(fullSize),
          onClick: () => store.view.toggle('fullSize', c.id),
        },
        t('verify.fullSize'),
      )
    : null;
  return h(
    'div',
    { class: 'before-after', role: 'group', 'aria-label': t('verify.compare') },
    frames,
    zoom,
    c.context?.hidden && !untaken ? hiddenNote(store, actions, c) : null,
  );
}
