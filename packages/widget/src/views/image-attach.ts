import type { CommentImage } from '@svc/contract';
import { imageFiles, reencodedImage, sendImages as sendEach } from '@svc/contract/image-encoding';
import { h } from '../dom.js';
import type { Store } from '../store.js';

// Images attached when writing (a new comment, a reply): picked, pasted or dropped, re-encoded
// by the browser at once (so that nothing of a file's metadata leaves it), shown as thumbnails
// that can be taken off, and sent after the text. And the images of a thread, shown on its card.

interface Pending {
  images: { blob: Blob; url: string }[];
  refused: string | null;
}

/** What each form holds, by its key (`new`, or `reply-<comment id>`): kept across redraws. */
const pending = new Map<string, Pending>();

const held = (key: string): Pending => {
  let state = pending.get(key);
  if (!state) {
    state = { images: [], refused: null };
    pending.set(key, state);
  }
  return state;
};

/** The images form `key` holds, to send. */
export const imagesToSend = (key: string): Blob[] => (pending.get(key)?.images ?? []).map((image) => image.blob);

/** Forgets what form `key` held (sent, or the form closed). */
export function forgetImages(key: string): void {
  for (const image of pending.get(key)?.images ?? []) URL.revokeObjectURL(image.url);
  pending.delete(key);
}

async function add(store: Store, key: string, files: Blob[]) {
  const state = held(key);
  state.refused = null;
  for (const file of files) {
    const image = await reencodedImage(file);
    if (typeof image === 'string')
      state.refused = store.i18n.t(image === 'tooLarge' ? 'images.tooLarge' : 'images.unreadable');
    else state.images.push({ blob: image, url: URL.createObjectURL(image) });
  }
  store.view.set({});
}

/**
 * The form's images: a button to pick some, the thumbnails (each with a button that takes it
 * off) and what was refused; `form` also takes images pasted into it or dropped on it.
 */
export function imageAttacher(store: Store, key: string, form: HTMLFormElement): Node {
  const { t } = store.i18n;
  const state = pending.get(key);
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
                    state.images.splice(i, 1);
                    store.view.set({});
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
  const failed = await sendEach(store.api, imagesToSend(key), commentId, replyId);
  forgetImages(key);
  return failed;
}

/** Object URLs of a thread's images, fetched once each with the session's token. */
const shown = new Map<string, Promise<string | null>>();

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
      let url = shown.get(image.id);
      if (!url) {
        url = store.api.blob(image.url).then((blob) => (blob ? URL.createObjectURL(blob) : null));
        shown.set(image.id, url);
      }
      void url.then((src) => {
        if (!src) return open.remove();
        img.src = src;
        open.addEventListener('click', () => window.open(src, '_blank', 'noopener'));
      });
      return h('li', null, open);
    }),
  );
}
