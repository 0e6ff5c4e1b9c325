// Images on the console: a thread's (fetched with the session's token, as they are private)
// and those attached to a reply, picked, pasted or dropped, re-encoded by the browser at once
// so that nothing of a file's metadata leaves it.

import type { CommentImage, CommentWithReplies } from '@svc/contract';
import { croppedAround, imageFiles, reencodedImage } from '@svc/contract/image-encoding';
import { relativeTimeText } from '@svc/contract/time';
import { timelineSentence } from '@svc/contract/vocabulary';
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useState } from 'preact/hooks';
import { api } from './api.js';
import { intlLocale, t, tx } from './i18n.js';
import { Time } from './ui.js';

/** A picture's size in its own pixels, once loaded. */
interface PictureSize {
  width: number;
  height: number;
}

/**
 * A private image of the API, shown from a blob: URL; `alt` says what it is. `shaped` makes
 * what is shown of it (a crop around an element); `sized` hears of its size once loaded, and
 * `style` sizes it.
 */
export function PrivateImage({
  path,
  alt,
  className,
  shaped,
  sized,
  style,
}: {
  path: string;
  alt: string;
  className?: string;
  shaped?: (image: Blob) => Promise<Blob | null>;
  sized?: (size: PictureSize) => void;
  style?: string;
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
      <img
        class={className}
        src={url}
        alt={alt}
        style={style}
        onLoad={(event) =>
          sized?.({ width: event.currentTarget.naturalWidth, height: event.currentTarget.naturalHeight })
        }
      />
    </a>
  );
}

/** The tallest a pair's pictures are shown, in CSS pixels: both are made smaller alike past it. */
const PAIR_HEIGHT_MAX = 480;
/** How much a small picture is enlarged at most, so that a few pixels do not fill the column. */
const PAIR_ENLARGED_MAX = 2;

/** One side of a pair: a picture (with its caption), or the plain words of why there is none. */
interface Side {
  picture: { path: string; alt: string; shaped?: (image: Blob) => Promise<Blob | null> } | null;
  missing?: string;
  caption: ComponentChildren;
}

/**
 * Two pictures side by side at one scale: each as wide as its pixels say against the wider of
 * the two (which fills its column), both made smaller alike when the taller would pass
 * PAIR_HEIGHT_MAX. The before and after of one element are then compared as they were taken.
 */
function Pair({ label, sides }: { label: string; sides: [Side, Side] }) {
  const [sizes, setSizes] = useState<(PictureSize | undefined)[]>([]);
  const known = sizes.filter((size): size is PictureSize => size !== undefined);
  const widest = Math.max(...known.map((size) => size.width));
  const tallest = Math.max(...known.map((size) => size.height));
  const styleOf = (size: PictureSize | undefined) =>
    size
      ? `width:min(${(100 * size.width) / widest}%, ${(PAIR_HEIGHT_MAX * size.width) / tallest}px, ${PAIR_ENLARGED_MAX * size.width}px)`
      : undefined;
  const id = useId();
  return (
    <section class="before-after" aria-labelledby={id}>
      <h3 id={id}>{label}</h3>
      {sides.map((side, i) => (
        <figure key={String(i)}>
          {side.picture ? (
            <PrivateImage
              {...side.picture}
              style={styleOf(sizes[i])}
              sized={(size) =>
                setSizes((was) => {
                  const next = [...was];
                  next[i] = size;
                  return next;
                })
              }
            />
          ) : (
            <p class="missing">{side.missing}</p>
          )}
          <figcaption>{side.caption}</figcaption>
        </figure>
      ))}
    </section>
  );
}

/**
 * Before and after: for each verdict given (Verified, Not fixed), the screenshot cropped around
 * where the element was beside the element as the verdict's giver saw it then, or why there is
 * no such picture; while a fix waits for its verdict (applied or Live), beside the latest
 * picture of now its author's widget took for that fix, or a line saying none was taken yet.
 */
export function BeforeAfter({ comment }: { comment: CommentWithReplies }) {
  const verdicts = comment.timeline.filter((event) => event.kind === 'verified' || event.kind === 'not_fixed');
  const waits = comment.status === 'applied' && !comment.verifiedAt;
  if (!verdicts.length && !waits) return null;
  const { context, screenshot } = comment;
  const box = context?.pinnedBox;
  const crop = box && context ? (shot: Blob) => croppedAround(shot, box, context.viewport.width) : undefined;
  const before: Side = {
    picture: screenshot ? { path: screenshot.url, alt: t('verify.before'), shaped: crop } : null,
    missing: t('comment.noScreenshot'),
    caption: t('verify.before'),
  };
  // A picture of now taken for an earlier fix (before this apply) is not of this one, nor, once
  // the fix is Live, one taken before (the page did not have the fix yet).
  const since = comment.deployedAt ?? comment.appliedAt;
  const now = comment.images.find((image) => image.kind === 'now' && since !== null && image.createdAt >= since);
  const nowBy = now?.by?.name ?? comment.author.name;
  return (
    <>
      <h2>{t('comment.beforeAfter')}</h2>
      {verdicts.map((verdict) => {
        const after = comment.images.find((image) => image.kind === 'after' && image.eventId === verdict.id);
        const caption = timelineSentence(verdict, t);
        return (
          <Pair
            key={verdict.id}
            label={caption}
            sides={[
              before,
              {
                picture: after ? { path: after.url, alt: caption } : null,
                missing: t('comment.noAfter', { name: verdict.by?.name ?? comment.author.name }),
                caption: tx('comment.atVerdict', { when: <Time iso={verdict.at} /> }),
              },
            ]}
          />
        );
      })}
      {waits ? (
        <Pair
          label={t('comment.fixWaits', { author: comment.author.name })}
          sides={[
            before,
            {
              picture: now
                ? {
                    path: now.url,
                    alt: t('comment.nowBy', {
                      name: nowBy,
                      when: relativeTimeText(now.createdAt, Date.now(), intlLocale()),
                    }),
                  }
                : null,
              missing: t('comment.nowWaits', { author: comment.author.name }),
              caption: now ? tx('comment.nowBy', { name: nowBy, when: <Time iso={now.createdAt} /> }) : t('verify.now'),
            },
          ]}
        />
      ) : null}
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
