// The screenshot chunk: loaded by the widget (a second script) only when someone attaches a
// screenshot, so the widget's first load stays small. It captures the visible viewport, the
// widget itself left out, what the page masks blanked (see mask.ts), the pinned element
// outlined, the regions a reviewer hid on the comment painted over (see hidden-regions.ts),
// at most 1600 px wide, encoded under 300 KB.
//
// Only what can be seen is cloned (see `planCapture`): on a page of ten thousand elements,
// cloning each with its computed style would hold the main thread for seconds. The cloning
// yields to the page every few milliseconds, and nothing is written to the page but the
// blank frame the library reads default styles from.

import { encodedUnder } from '@svc/contract/image-encoding';
import { createContext, destroyContext, domToCanvas } from 'modern-screenshot';
import type { CaptureOptions } from './chunks.js';
import { paintCovers } from './hidden-regions.js';
import { isMasked, isPasswordField } from './mask.js';
import { screenshotScale } from './screenshot-scale.js';

const MAX_BYTES = 300 * 1024;
/** How long the cloning runs before it lets the page have the main thread. */
const SLICE_MS = 12;

/** The colour the page is painted on: the root's background, else the body's, else white. */
function pageBackground(): string {
  for (const element of [document.documentElement, document.body]) {
    if (!element) continue;
    const colour = getComputedStyle(element).backgroundColor;
    if (colour && colour !== 'transparent' && !/^rgba\(.*,\s*0\)$/.test(colour)) return colour;
  }
  return '#ffffff';
}

interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const hasArea = (r: DOMRect) => r.width > 0 && r.height > 0;
const union = (a: Box | null, b: Box): Box =>
  a
    ? {
        left: Math.min(a.left, b.left),
        top: Math.min(a.top, b.top),
        right: Math.max(a.right, b.right),
        bottom: Math.max(a.bottom, b.bottom),
      }
    : b;

/** The element's children, an open shadow root's instead when it has one (as the clone reads them). */
function childElements(el: Element): Element[] {
  return [...(el.shadowRoot ?? el).children];
}

/**
 * Where each element and everything in it reaches, in viewport coordinates: its own box and
 * its descendants' (a child may overflow into view from a parent that is out of it). Null for
 * what has no box at all. Measured children first, yielding to the page between slices.
 */
async function measureReach(root: Element): Promise<Map<Element, Box | null>> {
  const reach = new Map<Element, Box | null>();
  // Depth first, each element after its children: a stack of [element, children visited].
  const stack: [Element, boolean][] = [[root, false]];
  let sliceStart = performance.now();
  while (stack.length) {
    const top = stack[stack.length - 1] as [Element, boolean];
    const [el, visited] = top;
    if (!visited) {
      top[1] = true;
      for (const child of childElements(el)) stack.push([child, false]);
      continue;
    }
    stack.pop();
    const own = el.getBoundingClientRect();
    let box: Box | null = hasArea(own) ? own : null;
    for (const child of childElements(el)) {
      const inner = reach.get(child);
      if (inner) box = union(box, inner);
    }
    reach.set(el, box);
    if (performance.now() - sliceStart > SLICE_MS) {
      await yieldToPage();
      sliceStart = performance.now();
    }
  }
  return reach;
}

const px = (n: number) => `${n}px`;

function pinBox(el: HTMLElement | SVGElement, width: number, height: number): void {
  el.style.setProperty('box-sizing', 'border-box', 'important');
  el.style.setProperty('width', px(width), 'important');
  el.style.setProperty('height', px(height), 'important');
  el.style.setProperty('min-width', '0', 'important');
  el.style.setProperty('min-height', '0', 'important');
  el.style.setProperty('max-width', 'none', 'important');
  el.style.setProperty('max-height', 'none', 'important');
}

/** Sets the clone where the original is on the page, in document coordinates, out of any flow. */
function placeFixed(el: HTMLElement | SVGElement, r: DOMRect): void {
  pinBox(el, r.width, r.height);
  for (const [name, value] of [
    ['position', 'fixed'],
    ['left', px(r.left + scrollX)],
    ['top', px(r.top + scrollY)],
    ['right', 'auto'],
    ['bottom', 'auto'],
    ['margin', '0'],
    ['transform', 'none'],
  ]) {
    el.style.setProperty(name as string, value as string, 'important');
  }
}

/** Whether an element takes its place among its siblings (not out of the flow, not without a box). */
function inFlow(el: Element): boolean {
  const style = getComputedStyle(el);
  return style.display !== 'none' && style.display !== 'contents' && !/^(absolute|fixed)$/.test(style.position);
}

/**
 * What the clone keeps of the page. An element whose reach is wholly out of the viewport
 * draws nothing there, but may push what is in it: one out of the flow (absolute, fixed,
 * hidden) is left out; one in the flow becomes an empty box of its size, and a run of such
 * siblings one box as tall as the run, so everything in view stays where it is. Table cells in
 * view keep their width (the rows left out no longer size their columns). Fixed elements are
 * set at their place in the document, which the clone shows shifted by the scroll; sticky ones
 * are shown where they stick, over an invisible copy holding their place in the flow.
 * Password fields lose their value and masked elements their content, in the clone only.
 */
async function planCapture(exclude: Element, signal: AbortSignal) {
  const viewport: Box = { left: 0, top: 0, right: innerWidth, bottom: innerHeight };
  const reach = await measureReach(document.documentElement);
  const inView = (box: Box | null | undefined) =>
    !!box &&
    box.left < viewport.right &&
    box.right > viewport.left &&
    box.top < viewport.bottom &&
    box.bottom > viewport.top;

  /** Originals whose content is left out: placeholders, and masked elements (never drawn). */
  const emptied = new Set<Node>(document.querySelectorAll('[data-svc-mask]'));
  /** Originals of the elements being cloned, innermost last: the library clones depth first. */
  const stack: Element[] = [];
  /** The current run of out-of-view siblings: its first element, its placeholder's clone, its extent. */
  let run: { parent: Node | null; first: Element; clone: HTMLElement | null; box: Box; stacked: boolean } | null = null;
  const overlays: Element[] = [];
  /** The clone of each element copied whole, for its scrolled parent to shift. */
  const cloneOf = new Map<Element, HTMLElement>();
  let sliceStart = performance.now();

  const parentOf = (node: Node) => {
    const parent = node.parentNode;
    return parent instanceof ShadowRoot ? parent.host : parent;
  };
  const keep = (el: Element) => {
    stack.push(el);
    return true;
  };

  const filter = (node: Node): boolean => {
    if (signal.aborted) throw new DOMException('The screenshot took too long.', 'TimeoutError');
    const parent = parentOf(node);
    if (parent && emptied.has(parent)) return false;
    if (!(node instanceof Element)) return true;
    if (node === exclude) return false;
    const box = reach.get(node);
    if (inView(box)) {
      run = null;
      return keep(node);
    }
    const style = getComputedStyle(node);
    if (!box || style.display === 'none' || style.position === 'absolute' || style.position === 'fixed') return false;
    if (/^(inline|contents)$/.test(style.display)) {
      // Inline content flows with its line; kept whole (it is rarely much).
      run = null;
      return keep(node);
    }
    const own = node.getBoundingClientRect();
    const parentStyle = parent instanceof Element ? getComputedStyle(parent) : null;
    const inGrid = /grid/.test(parentStyle?.display ?? '');
    // In a column of blocks, the gap to the block before and after it is kept as margins:
    // a child's margin collapsing through it (a heading's) would go with its content.
    const stacked =
      style.float === 'none' &&
      /^(block|flow-root|list-item|flex|grid|table)$/.test(style.display) &&
      /^(block|flow-root|list-item)$/.test(parentStyle?.display ?? '');
    if (run?.clone && run.parent === parent && !inGrid) {
      // One placeholder for the whole run, as tall as it.
      run.box = union(run.box, own);
      sizePlaceholder(run.clone, run.box);
      if (stacked) run.clone.style.setProperty('margin-bottom', px(gapAfter(node, own)), 'important');
      return false;
    }
    emptied.add(node);
    run = { parent, first: node, clone: null, box: own, stacked };
    return keep(node);
  };

  /** The gap between an element and the in-flow block before it (or its parent's content edge). */
  const gapBefore = (el: Element, own: DOMRect): number => {
    let previous = el.previousElementSibling;
    while (previous && !inFlow(previous)) previous = previous.previousElementSibling;
    if (previous) return own.top - previous.getBoundingClientRect().bottom;
    const parent = el.parentElement;
    if (!parent) return 0;
    const ps = getComputedStyle(parent);
    return (
      own.top -
      (parent.getBoundingClientRect().top + Number.parseFloat(ps.borderTopWidth) + Number.parseFloat(ps.paddingTop))
    );
  };
  /** The gap between an element and the in-flow block after it; its own margin when it is the last. */
  const gapAfter = (el: Element, own: DOMRect): number => {
    let next = el.nextElementSibling;
    while (next && !inFlow(next)) next = next.nextElementSibling;
    return next ? next.getBoundingClientRect().top - own.bottom : Number.parseFloat(getComputedStyle(el).marginBottom);
  };

  const sizePlaceholder = (clone: HTMLElement, box: Box) => {
    pinBox(clone, box.right - box.left, box.bottom - box.top);
    clone.style.setProperty('visibility', 'hidden', 'important');
  };

  const onCloneEachNode = async (clone: Node): Promise<void> => {
    if (!(clone instanceof Element)) return;
    const original = stack.pop();
    if (original && clone instanceof HTMLElement) finish(original, clone);
    if (performance.now() - sliceStart > SLICE_MS) {
      await yieldToPage();
      sliceStart = performance.now();
    }
  };

  const finish = (original: Element, clone: HTMLElement) => {
    if (run?.first === original) {
      run.clone = clone;
      sizePlaceholder(clone, run.box);
      if (run.stacked) {
        const own = original.getBoundingClientRect();
        clone.style.setProperty('margin-top', px(gapBefore(original, own)), 'important');
        clone.style.setProperty('margin-bottom', px(gapAfter(original, own)), 'important');
      }
      return;
    }
    if (isMasked(original)) {
      clone.replaceChildren();
      clone.style.setProperty('background', '#d1d5db', 'important');
      clone.style.setProperty('color', 'transparent', 'important');
    } else if (isPasswordField(original)) {
      clone.setAttribute('value', '');
      (clone as HTMLInputElement).value = '';
    }
    const style = getComputedStyle(original);
    const r = original.getBoundingClientRect();
    if (style.display === 'table-cell') pinBox(clone, r.width, r.height);
    if (style.position === 'fixed') placeFixed(clone, r);
    else if (style.position === 'sticky') {
      const copy = clone.cloneNode(true) as HTMLElement;
      placeFixed(copy, r);
      overlays.push(copy);
      clone.style.setProperty('visibility', 'hidden', 'important');
    }
    cloneOf.set(original, clone);
    if (original !== document.scrollingElement && (original.scrollTop || original.scrollLeft)) {
      // Content scrolled inside its box, shown as scrolled; fixed children stay where they are.
      for (const child of childElements(original)) {
        const copy = cloneOf.get(child);
        const childStyle = getComputedStyle(child);
        if (!copy || childStyle.position === 'fixed') continue;
        const own = childStyle.transform === 'none' ? '' : childStyle.transform;
        copy.style.setProperty(
          'transform',
          `translate(${-original.scrollLeft}px, ${-original.scrollTop}px) ${own}`,
          'important',
        );
      }
    }
  };

  /** Fixed copies of sticky elements go last in the clone, over the content they stick above. */
  const onCloneNode = (root: Node) => {
    if (root instanceof Element) root.append(...overlays);
  };

  return { filter, onCloneEachNode, onCloneNode };
}

/** Lets the page run: the browser's scheduler where it has one, else a task of its own. */
function yieldToPage(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => resolve();
    channel.port2.postMessage(null);
  });
}

/**
 * A blank frame for the library's default styles, made without a markup string (Trusted
 * Types), inside the widget's own element: added to the page's body, it would have the
 * browser lay out the whole page again (hundreds of milliseconds on a large table).
 */
function blankFrame(container: ParentNode): HTMLIFrameElement {
  const frame = document.createElement('iframe');
  frame.width = '0';
  frame.height = '0';
  frame.tabIndex = -1;
  frame.setAttribute('aria-hidden', 'true');
  frame.style.setProperty('visibility', 'hidden');
  frame.style.setProperty('position', 'fixed');
  container.append(frame);
  return frame;
}

async function capture({ exclude, outline, cover, signal }: CaptureOptions): Promise<Blob> {
  const scale = screenshotScale(devicePixelRatio, innerWidth);
  const plan = await planCapture(exclude, signal);
  const context = await createContext(document.documentElement, {
    width: innerWidth,
    height: innerHeight,
    scale,
    style: { transform: `translate(${-scrollX}px, ${-scrollY}px)` },
    filter: plan.filter,
    onCloneEachNode: plan.onCloneEachNode,
    onCloneNode: plan.onCloneNode,
    // Flattened: a transparent page is unreadable on a dark background.
    backgroundColor: pageBackground(),
    font: false,
    timeout: 5000,
    // Safari alone needs its images drawn again after a pause; elsewhere it only waits.
    features: { fixSvgXmlDecode: /^((?!chrome|android).)*safari/i.test(navigator.userAgent) },
  });
  context.sandbox = blankFrame(exclude.shadowRoot ?? document.body);
  try {
    const canvas = await domToCanvas(context);
    if (signal.aborted) throw new DOMException('The screenshot took too long.', 'TimeoutError');
    const drawing = canvas.getContext('2d');
    if (!drawing) throw new Error('The screenshot cannot be drawn on.');
    if (outline) {
      const r = outline;
      drawing.strokeStyle = '#f59e0b';
      drawing.lineWidth = 3 * scale;
      drawing.strokeRect((r.left - 3) * scale, (r.top - 3) * scale, (r.width + 6) * scale, (r.height + 6) * scale);
    }
    // What was hidden stays hidden: over the outline too.
    paintCovers(drawing, cover, scale);
    const blob = await encodedUnder(canvas, MAX_BYTES);
    if (!blob) throw new Error('The screenshot stays over 300 KB.');
    return blob;
  } finally {
    destroyContext(context);
  }
}

(window as unknown as { __svcScreenshot: typeof capture }).__svcScreenshot = capture;
