import type { Comment } from '@svc/contract';
import { croppedAround } from '@svc/contract/image-encoding';
import { h } from '../dom.js';
import type { Store } from '../store.js';

// Before and after, for the author asked to verify a fix: what they reported (the screenshot,
// cropped around the pinned element, marks and all) beside the element as it is now on this
// page, so that the verdict is given looking at both. The picture of now is kept and sent with
// the verdict (see panel-actions' verify).

/** Takes the picture of the comment's element as it is now on this page; null when it is not here. */
export type TakeNow = (id: string) => Promise<Blob | null>;

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

/** The picture of now the card showed, to send with the verdict; null when there is none. */
export async function nowShown(c: Pick<Comment, 'id' | 'commitSha'>): Promise<Blob | null> {
  return (await pictures.get(`now:${c.id}:${c.commitSha}`))?.blob ?? null;
}

/** The comment's screenshot, cropped around where its element was. */
async function before(store: Store, c: Comment): Promise<Blob | null> {
  const url = await store.screenshots.urlOf(c.id);
  if (!url) return null;
  const shot = await (await fetch(url)).blob();
  const box = c.context?.pinnedBox;
  return box && c.context ? croppedAround(shot, box, c.context.viewport.width) : shot;
}

/** Before and now, side by side; only for a fix that waits for this person's verdict. */
export function beforeAfter(store: Store, takeNow: TakeNow, c: Comment): Node | null {
  if (!c.can.verify || c.status !== 'applied' || c.verifiedAt) return null;
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
    side(
      t('verify.now'),
      picture(`now:${c.id}:${c.commitSha}`, () => takeNow(c.id)),
      t('verify.notHere'),
    ),
  );
}
