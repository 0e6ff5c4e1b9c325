// Screenshots by the browser: the visible tab as it painted it (canvases, videos, frames of other
// origins and fonts exactly as shown), rather than the page redrawn from its DOM. The widget is
// hidden for the moment of the capture; password fields and what the page marks
// `data-svc-mask` are painted over, the regions hidden on the comment too, and the pinned
// element outlined, before the picture leaves the content script. Where the browser will not
// capture (the tab not in front, no permission for it), the widget's own capture does.
import { encodedUnder } from '@svc/contract/image-encoding';
import type { CaptureOptions } from '../../widget/src/chunks.js';
import { paintCovers } from '../../widget/src/hidden-regions.js';
import { MASK_SELECTOR } from '../../widget/src/mask.js';
import { screenshotScale } from '../../widget/src/screenshot-scale.js';
import { browser } from './browser.js';

type Capture = (options: CaptureOptions) => Promise<Blob>;

const MAX_BYTES = 300 * 1024;
/** What a page keeps to itself: blank in every picture (as the widget's capture blanks it). */
const MASKED = `input[type=password i], ${MASK_SELECTOR}`;
/** The paint over a masked element: opaque, the pixels under it replaced. */
const MASK_FILL = '#d1d5db';

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(() => resolve(null)));

/** The boxes of what is masked and can be seen, in the window's CSS pixels. */
function maskedBoxes(): DOMRect[] {
  return [...document.querySelectorAll(MASKED)]
    .map((element) => element.getBoundingClientRect())
    .filter(
      (r) => r.width > 0 && r.height > 0 && r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth,
    );
}

/**
 * Hides the widget's element until the returned function is called: by a rule in its own shadow
 * root, as the widget styles itself. A style from outside would lose to its `:host` rules (the
 * shadow tree's `!important` wins), and its parts set their own visibility: opacity, which none
 * of them can undo, on the host.
 */
function hideWidget(host: Element): () => void {
  const root = host.shadowRoot;
  if (!root) return () => {};
  const sheet = new CSSStyleSheet();
  sheet.replaceSync(':host{opacity:0!important}');
  root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  return () => {
    root.adoptedStyleSheets = root.adoptedStyleSheets.filter((kept) => kept !== sheet);
  };
}

/** The tab as the browser painted it, the widget's element hidden meanwhile; null when the browser will not. */
async function paintedTab(exclude: Element): Promise<ImageBitmap | null> {
  const show = hideWidget(exclude);
  let picture: string | null = null;
  try {
    // Two frames: the hiding is painted before the browser takes the picture.
    await nextFrame();
    await nextFrame();
    picture = await browser.runtime.sendMessage<string | null>({ kind: 'capture' });
  } finally {
    show();
  }
  if (!picture) return null;
  return createImageBitmap(await (await fetch(picture)).blob());
}

/** A capture by the browser, falling back to `drawn` (the widget's) where the browser will not. */
export function browserCapture(drawn: Capture): Capture {
  // A Blob of this script's own: in Firefox a canvas's is the page's, which the API client
  // would not take for a Blob (and would send as JSON).
  return async (options) => {
    const blob = await captured(drawn, options);
    return new Blob([blob], { type: blob.type });
  };
}

/** The browser's picture, masked and outlined; the widget's where the browser will not take one. */
async function captured(drawn: Capture, options: CaptureOptions): Promise<Blob> {
  const { exclude, outline, cover, signal } = options;
  const masks = maskedBoxes();
  const tab = await paintedTab(exclude).catch(() => null);
  if (!tab) return drawn(options);
  if (signal.aborted) throw new DOMException('The screenshot took too long.', 'TimeoutError');
  const scale = screenshotScale(devicePixelRatio, innerWidth);
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(innerWidth * scale);
  canvas.height = Math.round(innerHeight * scale);
  const drawing = canvas.getContext('2d');
  if (!drawing) throw new Error('The screenshot cannot be drawn on.');
  drawing.drawImage(tab, 0, 0, canvas.width, canvas.height);
  tab.close();
  drawing.fillStyle = MASK_FILL;
  for (const r of masks) drawing.fillRect(r.left * scale, r.top * scale, r.width * scale, r.height * scale);
  if (outline) {
    drawing.strokeStyle = '#f59e0b';
    drawing.lineWidth = 3 * scale;
    const r = outline;
    drawing.strokeRect((r.left - 3) * scale, (r.top - 3) * scale, (r.width + 6) * scale, (r.height + 6) * scale);
  }
  // What was hidden on the comment stays hidden: over the outline too.
  paintCovers(drawing, cover, scale);
  const blob = await encodedUnder(canvas, MAX_BYTES);
  if (!blob) throw new Error('The screenshot stays over 300 KB.');
  return blob;
}
