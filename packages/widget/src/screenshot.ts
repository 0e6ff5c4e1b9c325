// The screenshot chunk: loaded by the widget (a second script) only when someone attaches a
// screenshot, so the widget's first load stays small. It captures the visible viewport, the
// widget itself left out, password fields and [data-svc-mask] blanked, the pinned element
// outlined, at most 1600 px wide, encoded under 300 KB.
import { domToCanvas } from 'modern-screenshot';

const MAX_WIDTH = 1600;
const MAX_BYTES = 300 * 1024;

const MASK = `input[type=password]{color:transparent!important;text-shadow:none!important}
[data-svc-mask]{background:#d1d5db!important;color:transparent!important}
[data-svc-mask] *{visibility:hidden!important}`;

async function capture(options: { exclude: Element; outline: DOMRect | null }): Promise<Blob> {
  const mask = document.createElement('style');
  mask.textContent = MASK;
  document.head.append(mask);
  try {
    const scale = Math.min(devicePixelRatio, MAX_WIDTH / innerWidth);
    const canvas = await domToCanvas(document.documentElement, {
      width: innerWidth,
      height: innerHeight,
      scale,
      style: { transform: `translate(${-scrollX}px, ${-scrollY}px)` },
      filter: (node) => node !== options.exclude,
      font: false,
      timeout: 5000,
    });
    if (options.outline) {
      const context = canvas.getContext('2d');
      const r = options.outline;
      if (context) {
        context.strokeStyle = '#f59e0b';
        context.lineWidth = 3 * scale;
        context.strokeRect((r.left - 3) * scale, (r.top - 3) * scale, (r.width + 6) * scale, (r.height + 6) * scale);
      }
    }
    for (const [type, quality] of [
      ['image/webp', 0.85],
      ['image/webp', 0.6],
      ['image/jpeg', 0.6],
      ['image/jpeg', 0.4],
    ] as const) {
      const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, type, quality));
      if (blob && blob.size <= MAX_BYTES) return blob;
    }
    throw new Error('The screenshot stays over 300 KB.');
  } finally {
    mask.remove();
  }
}

(window as unknown as { __svcScreenshot: typeof capture }).__svcScreenshot = capture;
