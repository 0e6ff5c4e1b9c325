// Images on the console: a thread's (fetched with the session's token, as they are private)
// and those attached to a reply, picked, pasted or dropped, re-encoded by the browser at once
// so that nothing of a file's metadata leaves it.

import type { CommentImage, CommentWithReplies } from '@svc/contract';
import { croppedAround, imageFiles, reencodedImage } from '@svc/contract/image-encoding';
import { useEffect, useId, useState } from 'preact/hooks';
import { api } from './api.js';
import { t } from './i18n.js';

/**
 * A private image of the API, shown from a blob: URL; `alt` says what it is. `shaped` makes
 * what is shown of it (a crop around an element).
 */
export function PrivateImage({
  path,
  alt,
  className,
  shaped,
}: {
  path: string;
  alt: string;
  className?: string;
  shaped?: (image: Blob) => Promise<Blob | null>;
}) {
  const [url, setUrl] = useState<string | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let objectUrl: string | null = null;
    void api.blob(path).then(async (fetched) => {
      const blob = fetched && shaped ? ((await shaped(fetched)) ?? fetched) : fetched;
      if (!blob) return setFailed(true);
      objectUrl = URL.createObjectURL(blob);
      setUrl(objectUrl);
    });
    return () => {
      if (objectUrl) URL.revokeObjectURL(objectUrl);
    };
  }, [path]);
  if (failed) return <p class="muted">{t('images.failed')}</p>;
  if (!url) return <p class="muted">{t('ui.loading')}</p>;
  return (
    <a href={url} target="_blank" rel="noopener noreferrer">
      <img class={className} src={url} alt={alt} />
    </a>
  );
}

/**
 * Before and after, for each verdict given with a picture: the screenshot cropped around
 * where the element was, beside the element as the verdict's giver saw it then.
 */
export function BeforeAfter({
  comment,
  caption,
}: {
  comment: CommentWithReplies;
  caption: (eventId: string) => string;
}) {
  const afters = comment.images.filter((image) => image.kind === 'after' && image.eventId);
  if (!afters.length || !comment.screenshot) return null;
  const { context } = comment;
  const box = context?.pinnedBox;
  const crop = box && context ? (shot: Blob) => croppedAround(shot, box, context.viewport.width) : undefined;
  return (
    <>
      <h2>{t('comment.beforeAfter')}</h2>
      {afters.map((after) => (
        <div class="before-after" key={after.id}>
          <figure>
            <PrivateImage path={comment.screenshot?.url ?? ''} alt={t('verify.before')} shaped={crop} />
            <figcaption>{t('verify.before')}</figcaption>
          </figure>
          <figure>
            <PrivateImage path={after.url} alt={caption(after.eventId ?? '')} />
            <figcaption>{caption(after.eventId ?? '')}</figcaption>
          </figure>
        </div>
      ))}
    </>
  );
}

/** Images of a thread as thumbnails, each opening full size. */
export function ImageList({ images }: { images: CommentImage[] }) {
  if (!images.length) return null;
  return (
    <ul class="thumbs">
      {images.map((image, i) => (
        <li key={image.id}>
          <PrivateImage path={image.url} alt={t('images.number', { number: i + 1 })} />
        </li>
      ))}
    </ul>
  );
}

export interface Attaching {
  images: { blob: Blob; url: string }[];
  refused: string;
}

/** Holds the images a form will send: add (re-encoded), take one off, clear once sent. */
export function useAttaching() {
  const [state, setState] = useState<Attaching>({ images: [], refused: '' });
  const add = async (files: Blob[]) => {
    const images: Attaching['images'] = [];
    let refused = '';
    for (const file of files) {
      const image = await reencodedImage(file);
      if (typeof image === 'string') refused = t(image === 'tooLarge' ? 'images.tooLarge' : 'images.unreadable');
      else images.push({ blob: image, url: URL.createObjectURL(image) });
    }
    setState((was) => ({ images: [...was.images, ...images], refused }));
  };
  const remove = (index: number) =>
    setState((was) => {
      const gone = was.images[index];
      if (gone) URL.revokeObjectURL(gone.url);
      return { images: was.images.filter((_, i) => i !== index), refused: '' };
    });
  const clear = () =>
    setState((was) => {
      for (const image of was.images) URL.revokeObjectURL(image.url);
      return { images: [], refused: '' };
    });
  /** What a form takes when an image is pasted into it or dropped on it. */
  const receivers = {
    onPaste: (event: ClipboardEvent) => {
      const files = imageFiles(event.clipboardData);
      if (!files.length) return;
      event.preventDefault();
      void add(files);
    },
    onDragOver: (event: DragEvent) => event.preventDefault(),
    onDrop: (event: DragEvent) => {
      const files = imageFiles(event.dataTransfer);
      if (!files.length) return;
      event.preventDefault();
      void add(files);
    },
  };
  return { state, add, remove, clear, receivers };
}

/** The button that picks images, the thumbnails of those to send (each can be taken off), and what was refused. */
export function ImagePicker({ attaching }: { attaching: ReturnType<typeof useAttaching> }) {
  const id = useId();
  const { state, add, remove } = attaching;
  return (
    <div class="attach">
      <input
        id={id}
        class="sr-only"
        type="file"
        accept="image/png,image/jpeg,image/webp"
        multiple
        onChange={(event) => {
          const input = event.currentTarget;
          void add(Array.from(input.files ?? []));
          input.value = '';
        }}
      />
      <label for={id} class="button">
        {t('images.add')}
      </label>
      {state.images.length ? (
        <ul class="thumbs" aria-label={t('images.attached')}>
          {state.images.map((image, i) => (
            <li key={image.url}>
              <img src={image.url} alt={t('images.number', { number: i + 1 })} />
              <button
                type="button"
                class="link"
                aria-label={t('images.remove', { number: i + 1 })}
                onClick={() => remove(i)}
              >
                ×
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {state.refused ? (
        <p class="error" role="alert">
          {state.refused}
        </p>
      ) : null}
    </div>
  );
}
