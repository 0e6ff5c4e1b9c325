// The screenshot as the widget took it before it cloned only what is in view: the whole
// document, each element with its computed style, drawn shifted by the scroll. Kept here as
// the benchmark's baseline.
import { domToCanvas } from 'modern-screenshot';

window.__wholeDocument = async () => {
  const canvas = await domToCanvas(document.documentElement, {
    width: innerWidth,
    height: innerHeight,
    scale: 1,
    style: { transform: `translate(${-scrollX}px, ${-scrollY}px)` },
    backgroundColor: '#ffffff',
    font: false,
    timeout: 5000,
  });
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/webp', 0.85));
};
