import type { CommentImage } from '@svc/contract';
import { imageFiles, reencodedImage, sendImages as sendEach } from '@svc/contract/image-encoding';
import { h } from '../dom.js';
import type { Picture } from '../images.js';
import type { Store } from '../store.js';
import type { Attached } from '../view-state.js';

// Images attached when writing (a new comment, a reply): picked, pasted or dropped, re-encoded
// by the browser at once (so that nothing of a file's metadata leaves it), shown as thumbnails
// that can be taken off, and sent after the text; held by the view state until then. And the
// images of a thread, shown on its card (the Store's images fetch them once).

/** Keeps what form `key` holds (none: forgets it) in the view state, which announces it. */
function keep(store: Store, key: string, attached: Attached | null): void {
  const all = new Map(store.view.attached);
  if (attached) all.set(key, attached);
  else all.delete(key);
  store.view.set({ attached: all });
}

/** The images form `key` holds, to send. */
export const imagesToSend = (store: Store, key: string): Blob[] =>
  (store.view.attached.get(key)?.images ?? []).map((image) => image.blob);

/** Forgets what form `key` held (sent, or the form closed). */
export function forgetImages(store: Store, key: string): void {
  const attached = store.view.attached.get(key);
  if (!attached) return;
  for (const image of attached.images) URL.revokeObjectURL(image.url);
  keep(store, key, null);
}

/** Re-encodes `files` and adds them to form `key`'s images (what cannot be read or is too large, refused). */
async function add(store: Store, key: string, files: Blob[]) {
  const images: Picture[] = [];
  let refused: string | null = null;
  for (const file of files) {
    const image = await reencodedImage(file);
    if (typeof image === 'string')
      refused = store.i18n.t(image === 'tooLarge' ? 'images.tooLarge' : 'images.unreadable');
    else images.push({ blob: image, url: URL.createObjectURL(image) });
  }
  keep(store, key, { images: [...(store.view.attached.get(key)?.images ?? []), ...images], refused });
}

/**
 * The form's images: a button to pick some, the thumbnails (each with a button that takes it
 * off) and what was refused; `form` also takes images pasted into it or dropped on it.
 */
export function imageAttacher(store: Store, key: string, form: HTMLFormElement): Node {
  const { t } = store.i18n;
  const state = store.view.attached.get(key);
  form.addEventListener('paste', (event) => {
    const files = imageFiles((event as ClipboardEvent).clipboardData);
    if (!files.length) return;
    event.preventDefault();
    void add(store, key, files);
  });
  form.addEventListener('dragover', (event) => event.preventDefault());
  form.addEventListener('drop', (event) => {
    const files = imageFiles((event as DragEvent).dataTransfer);
    if (!files.length) return;
    event.preventDefault();
    void add(store, key, files);
  });
  const picker = h('input', {
    type: 'file',
    id: `svc-images-${key}`,
    class: 'sr-only',
    accept: 'image/png,image/jpeg,image/webp',
    multiple: true,
    onChange: (event: Event) => {
      const input = event.target as HTMLInputElement;
      void add(store, key, Array.from(input.files ?? []));
      input.value = '';
    },
  });
  return h(
    'div',
    { class: 'attach' },
    picker,
    h('label', { for: `svc-images-${key}`, class: 'btn' }, t('images.add')),
    state?.images.length
      ? h(
          'ul',
          { class: 'thumbs', 'aria-label': t('images.attached') },
          state.images.map((image, i) =>
            h(
              'li',
              null,
              h('img', { src: image.url, alt: t('images.number', { number: i + 1 }) }),
              h(
                'button',
                {
                  type: 'button',
                  class: 'unlabel',
                  id: `svc-unattach-${key}-${i}`,
                  'aria-label': t('images.remove', { number: i + 1 }),
                  onClick: () => {
                    URL.revokeObjectURL(image.url);
                    keep(store, key, { ...state, images: state.images.filter((other) => other !== image) });
                  },
                },
                '×',
              ),
            ),
          ),
        )
      : null,
    state?.refused ? h('p', { class: 'error', role: 'alert' }, state.refused) : null,
  );
}

/** Sends form `key`'s images to the comment (or its reply); how many could not be stored. */
export async function sendImages(store: Store, key: string, commentId: string, replyId?: string): Promise<number> {
  const failed = await sendEach(store.api, imagesToSend(store, key), commentId, replyId);
  forgetImages(store, key);
  return failed;
}

/** A thread's images as thumbnails; each opens full size. */
export function threadImages(store: Store, images: CommentImage[]): Node | null {
  if (!images.length) return null;
  const { t } = store.i18n;
  return h(
    'ul',
    { class: 'thumbs' },
    images.map((image, i) => {
      const img = h('img', { alt: t('images.number', { number: i + 1 }) });
      const open = h(
        'button',
        { type: 'button', class: 'shot', 'aria-label': t('images.open', { number: i + 1 }) },
        img,
      );
      void store.images.urlOf(image.url).then((src) => {
        if (!src) return open.remove();
        img.src = src;
        open.addEventListener('click', () => window.open(src, '_blank', 'noopener'));
      });
      return h('li', null, open);
    }),
  );
}
