// Images on the console: a thread's (fetched with the session's token, as they are private)
// and those attached to a reply, picked, pasted or dropped, re-encoded by the browser at once
// so that nothing of a file's metadata leaves it.

import type { CommentImage, CommentWithReplies, TimelineEvent } from '@svc/contract';
import { croppedAround, imageFiles, reencodedImage } from '@svc/contract/image-encoding';
import { relativeTimeText } from '@svc/contract/time';
import { timelineSentence } from '@svc/contract/vocabulary';
import type { ComponentChildren } from 'preact';
import { useEffect, useId, useState } from 'preact/hooks';
import { api } from './api.js';
import { intlLocale, t, tx } from './i18n.js';
import { Dialog, Time } from './ui.js';

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
/**
 * How much a small picture is enlarged at most, so that a few pixels do not fill the column:
 * twice, so that the 6 px text of a fine print reads as 12. The zoom goes further.
 */
const PAIR_ENLARGED_MAX = 2;
/** The zoom's scales: 0 fits the dialog, the others are a multiple of the pictures' pixels. */
const ZOOM_SCALES = [0, 1, 2, 4] as const;

/** One side of a pair: a picture (with its caption), or the plain words of why there is none. */
interface Side {
  picture: { path: string; alt: string; shaped?: (image: Blob) => Promise<Blob | null> } | null;
  missing?: string;
  caption: ComponentChildren;
}

/** The sizes of a pair's pictures as they load, and the widest and tallest of them. */
function usePairSizes() {
  const [sizes, setSizes] = useState<(PictureSize | undefined)[]>([]);
  const known = sizes.filter((size): size is PictureSize => size !== undefined);
  const heard = (i: number) => (size: PictureSize) =>
    setSizes((was) => {
      const next = [...was];
      next[i] = size;
      return next;
    });
  return {
    sizes,
    heard,
    widest: known.length ? Math.max(...known.map((size) => size.width)) : 0,
    tallest: known.length ? Math.max(...known.map((size) => size.height)) : 0,
  };
}

/**
 * Two pictures at one scale: each as wide as its pixels say against the wider of the two, the
 * wider filling its column up to twice its pixels, both made smaller alike when the taller
 * would pass PAIR_HEIGHT_MAX. Side by side where both fit so enlarged, else one above the
 * other (a strip of fine print is wider than half a column). **Zoom** opens them larger.
 */
function Pair({ label, sides }: { label: string; sides: [Side, Side] }) {
  const { sizes, heard, widest, tallest } = usePairSizes();
  const [zoom, setZoom] = useState(false);
  const styleOf = (size: PictureSize | undefined) =>
    size
      ? `width:min(${(100 * size.width) / widest}%, ${(PAIR_HEIGHT_MAX * size.width) / tallest}px, ${PAIR_ENLARGED_MAX * size.width}px)`
      : undefined;
  const id = useId();
  return (
    <section
      class="before-after"
      aria-labelledby={id}
      style={widest ? `--pair-column:${PAIR_ENLARGED_MAX * widest}px` : undefined}
    >
      <div class="pair-head">
        <h3 id={id}>{label}</h3>
        {sides.some((side) => side.picture) ? (
          <button type="button" aria-haspopup="dialog" onClick={() => setZoom(true)}>
            {t('comment.zoom')}
          </button>
        ) : null}
      </div>
      {sides.map((side, i) => (
        <figure key={String(i)}>
          {side.picture ? (
            <PrivateImage {...side.picture} style={styleOf(sizes[i])} sized={heard(i)} />
          ) : (
            <p class="missing">{side.missing}</p>
          )}
          <figcaption>{side.caption}</figcaption>
        </figure>
      ))}
      <Zoom label={label} sides={sides} open={zoom} onClose={() => setZoom(false)} />
    </section>
  );
}

/**
 * A pair in a dialog as wide as the window, fitted to it or at 1, 2 or 4 times the pictures'
 * pixels (both alike), one above the other in a box that the keyboard scrolls.
 */
function Zoom({
  label,
  sides,
  open,
  onClose,
}: {
  label: string;
  sides: [Side, Side];
  open: boolean;
  onClose: () => void;
}) {
  const [scale, setScale] = useState<(typeof ZOOM_SCALES)[number]>(2);
  const { sizes, heard, widest } = usePairSizes();
  const styleOf = (size: PictureSize | undefined) =>
    !size
      ? undefined
      : scale
        ? `width:${scale * size.width}px;max-width:none`
        : `width:${(100 * size.width) / widest}%`;
  return (
    <Dialog title={label} open={open} onClose={onClose} wide>
      <fieldset class="segmented">
        <legend class="skip">{t('comment.zoomScales')}</legend>
        {ZOOM_SCALES.map((option) => (
          <button key={option} type="button" aria-pressed={scale === option} onClick={() => setScale(option)}>
            {option ? t('comment.zoomScale', { scale: option }) : t('comment.zoomFit')}
          </button>
        ))}
      </fieldset>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: pictures wider than the dialog scroll, so the box must take focus to scroll by keyboard */}
      <section class="zoomed" tabIndex={0} aria-label={t('comment.zoomed')}>
        {sides.map((side, i) => (
          <figure key={String(i)}>
            {side.picture ? (
              <PrivateImage
                {...side.picture}
                className={scale > 1 ? 'zoom-picture whole-times' : 'zoom-picture'}
                style={styleOf(sizes[i])}
                sized={heard(i)}
              />
            ) : (
              <p class="missing">{side.missing}</p>
            )}
            <figcaption>{side.caption}</figcaption>
          </figure>
        ))}
      </section>
      <div class="row">
        <button type="button" onClick={onClose}>
          {t('ui.close')}
        </button>
      </div>
    </Dialog>
  );
}

/** What the author reported: the screenshot cropped around where the element was, or why there is none. */
function reportedSide(comment: CommentWithReplies): Side {
  const { context, screenshot } = comment;
  const box = context?.pinnedBox;
  const crop = box && context ? (shot: Blob) => croppedAround(shot, box, context.viewport.width) : undefined;
  return {
    picture: screenshot ? { path: screenshot.url, alt: t('verify.before'), shaped: crop } : null,
    missing: t('comment.noScreenshot'),
    caption: t('verify.before'),
  };
}

/** A verdict given (Verified, Not fixed): the reported picture beside the element as its giver saw it then. */
export function VerdictPair({ comment, verdict }: { comment: CommentWithReplies; verdict: TimelineEvent }) {
  const after = comment.images.find((image) => image.kind === 'after' && image.eventId === verdict.id);
  const caption = timelineSentence(verdict, t);
  return (
    <Pair
      label={caption}
      sides={[
        reportedSide(comment),
        {
          picture: after ? { path: after.url, alt: caption } : null,
          missing: t('comment.noAfter', { name: verdict.by?.name ?? comment.author.name }),
          caption: tx('comment.atVerdict', { when: <Time iso={verdict.at} /> }),
        },
      ]}
    />
  );
}

/**
 * While a fix waits for its author's verdict (applied, Live or not): the reported picture beside
 * the latest picture of now its author's widget took for that fix, or a line saying none was
 * taken yet. Nothing otherwise (each verdict's pair stays with it in the discussion).
 */
export function WaitingPair({ comment }: { comment: CommentWithReplies }) {
  if (comment.status !== 'applied' || comment.verifiedAt) return null;
  // A picture of now taken for an earlier fix (before this apply) is not of this one, nor, once
  // the fix is Live, one taken before (the page did not have the fix yet).
  const since = comment.deployedAt ?? comment.appliedAt;
  const now = comment.images.find((image) => image.kind === 'now' && since !== null && image.createdAt >= since);
  const nowBy = now?.by?.name ?? comment.author.name;
  return (
    <>
      <h2>{t('comment.beforeAfter')}</h2>
      <Pair
        label={t('comment.fixWaits', { author: comment.author.name })}
        sides={[
          reportedSide(comment),
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
