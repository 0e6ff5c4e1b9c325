// Keeps the pins of a page on their elements while the page lives: content that arrives late
// gets its pin when its element appears, a re-render that replaces the element is followed, a
// pin hides while its element is hidden or scrolled out of its container, and every pin moves
// with layout changes, scrolling and resizing. The page is watched through one
// MutationObserver whose records are not read, only counted as "something changed": the work
// is done once per animation frame at most, and looking for elements that are missing is
// spaced out further, backing off when it is slow, so that a page that changes all the time
// pays nearly nothing for the widget.
import type { Anchor } from '@svc/contract';
import { boxInTop, overlaps } from '../geometry.js';
import { textOf } from './features.js';
import { pinSpot, type Spot } from './pin-spot.js';
import { type Confidence, type Resolution, Resolver } from './resolve.js';
import { first } from './selectors.js';
import type { Steps } from './steps.js';

/** Where a pin points (beside its element's content, see pin-spot.ts), relative to the widget's host, and whether it shows. */
export interface Placement {
  x: number;
  y: number;
  confidence: Confidence;
  /** False while its element is hidden, or scrolled out of the container that holds it. */
  visible: boolean;
}

interface Lookup {
  id: string;
  anchor: Anchor;
  resolver: Resolver;
  steps: Steps<Resolution | null>;
  /** Time spent in it so far, in ms, over all frames. */
  spent: number;
  /** Whether the page changed while it read it. */
  pageChanged: boolean;
}

interface Found {
  element: Element;
  confidence: Confidence;
  /** What the element said when found: a framework that reuses it for other content changes this. */
  signature: string;
  /** Its ancestors that clip what overflows them (scrolling containers). */
  clippers: Element[];
  /** Where its pin points, measured for a box of this size; null: to measure (the page changed). */
  spot: (Spot & { width: number; height: number }) | null;
}

/** Looking again for missing elements that may be back waits at least this long, and up to the longer when it is slow. */
const RETRY_MS = 500;
const RETRY_MAX_MS = 8000;
/** A pass of looking taking longer than this is slow. */
const SLOW_MS = 16;

const signatureOf = (el: Element) => `${el.localName}|${el.className}|${textOf(el, 60)}`;

function clippersOf(el: Element): Element[] {
  const clippers: Element[] = [];
  for (let node = el.parentElement; node && node !== node.ownerDocument.body; node = node.parentElement) {
    const style = getComputedStyle(node);
    if (style.overflowX !== 'visible' || style.overflowY !== 'visible') clippers.push(node);
  }
  return clippers;
}

/** What an app's own frame leaves: looking stops for the frame past this many milliseconds, and goes on in the next. */
const FRAME_BUDGET_MS = 8;

/**
 * Whether a missing element may have come back, cheaply: one of its selectors finds something,
 * or the page's text holds its longest word. Only then is it looked for in full.
 */
function mayBeBack(anchor: Anchor, pageText: () => string): boolean {
  if (anchor.frames?.length) return true;
  if ([anchor.selector, ...(anchor.selectors ?? [])].some((selector) => first(document, selector))) return true;
  const words = (anchor.text?.exact || anchor.name || '').split(/\s+/).sort((a, b) => b.length - a.length);
  const longest = words[0];
  return longest ? pageText().includes(longest) : true;
}

export class PinTracker {
  private anchors = new Map<string, Anchor>();
  private fixed: ReadonlySet<string> = new Set();
  private readonly found = new Map<string, Found>();
  /** Looked for, not found: looked for again now and then, when they may be back. */
  private readonly missing = new Set<string>();
  /** To look for, a frame's budget at a time. */
  private readonly pending = new Set<string>();
  private placements = new Map<string, Placement | null>();
  private frame = 0;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private changed = false;
  private retryMs = RETRY_MS;
  private lastLook = 0;
  /** What was read of the page, kept from frame to frame until it changes. */
  private resolver: Resolver | null = null;
  /** The lookup under way, over as many frames as it needs; its pin stays pending until it ends. */
  private lookup: Lookup | null = null;
  private readonly observer: MutationObserver;
  private readonly onScroll = () => this.schedule(false);
  private readonly onResize = () => {
    this.resolver = null;
    this.remeasure();
    this.schedule(false);
  };

  constructor(
    private readonly host: Element,
    /** Called with the placement of every pin looked for (null: not found on this page) whenever one changes. */
    private readonly onChange: (placements: Map<string, Placement | null>) => void,
  ) {
    this.observer = new MutationObserver(() => {
      this.resolver = null;
      if (this.lookup) this.lookup.pageChanged = true;
      this.schedule(true);
    });
    this.observer.observe(document.documentElement, {
      childList: true,
      subtree: true,
      characterData: true,
      attributes: true,
      attributeFilter: ['class', 'id', 'hidden', 'style', 'open'],
    });
    addEventListener('scroll', this.onScroll, { capture: true, passive: true });
    addEventListener('resize', this.onResize, { passive: true });
  }

  /**
   * The anchors to keep pins for (by comment id): new ones are looked for from the next frame.
   * `fixed`: the pins whose comment was fixed (applied, Live or verified), whose element the
   * fix may have changed: looked for expecting that (see `Resolver.steps`).
   */
  set(anchors: Map<string, Anchor>, fixed: ReadonlySet<string> = new Set()): void {
    const before = this.anchors;
    const fixedBefore = this.fixed;
    this.anchors = anchors;
    this.fixed = fixed;
    if (this.lookup && anchors.get(this.lookup.id) !== this.lookup.anchor) this.lookup = null;
    for (const id of [...this.found.keys(), ...this.missing, ...this.pending]) {
      if (!anchors.has(id)) {
        this.found.delete(id);
        this.missing.delete(id);
        this.pending.delete(id);
      }
    }
    for (const [id, anchor] of anchors) {
      // A new pin, or one moved to another element (a new anchor): looked for afresh.
      const same = before.get(id) === anchor || JSON.stringify(before.get(id)) === JSON.stringify(anchor);
      // One just fixed is looked for again as fixed (it may be missing, or found with doubt).
      const newlyFixed = fixed.has(id) && !fixedBefore.has(id);
      if (same && !newlyFixed && (this.found.has(id) || this.missing.has(id))) continue;
      this.found.delete(id);
      this.missing.delete(id);
      this.pending.add(id);
    }
    this.schedule(false);
  }

  /** The element a pin is on, while it is found. */
  element(id: string): Element | null {
    return this.found.get(id)?.element ?? null;
  }

  destroy(): void {
    this.observer.disconnect();
    removeEventListener('scroll', this.onScroll, { capture: true });
    removeEventListener('resize', this.onResize);
    cancelAnimationFrame(this.frame);
    clearTimeout(this.retry);
  }

  private schedule(changed: boolean): void {
    this.changed ||= changed;
    this.frame ||= requestAnimationFrame(() => {
      this.frame = 0;
      if (this.changed) this.follow();
      this.changed = false;
      this.work();
      this.place();
      // More to look for than one frame's budget: on in the next.
      if (this.pending.size) this.schedule(false);
    });
  }

  /** After the page changed: pins whose element went or changed are looked for again, and (now and then) missing ones that may be back. */
  private follow(): void {
    this.remeasure();
    for (const [id, found] of this.found) {
      if (found.element.isConnected && signatureOf(found.element) === found.signature) continue;
      this.found.delete(id);
      this.pending.add(id);
    }
    if (!this.missing.size) return;
    const now = performance.now();
    if (now - this.lastLook < this.retryMs) {
      // Come back for the missing ones when it is their time, even if the page is quiet then.
      this.retry ??= setTimeout(() => {
        this.retry = undefined;
        this.schedule(true);
      }, this.retryMs);
      return;
    }
    this.lastLook = now;
    let text: string | null = null;
    const pageText = () => (text ??= document.body?.textContent ?? '');
    for (const id of this.missing) {
      const anchor = this.anchors.get(id);
      if (anchor && mayBeBack(anchor, pageText)) this.pending.add(id);
    }
  }

  /** Looks for pending pins until the frame's budget is spent, going on with the lookup under way; slow looking spaces out the next retries. */
  private work(): void {
    const deadline = performance.now() + FRAME_BUDGET_MS;
    let ended = 0;
    let slow = false;
    while (this.pending.size && performance.now() < deadline) {
      this.lookup ??= this.start();
      const lookup = this.lookup;
      if (!lookup) break;
      const started = performance.now();
      lookup.resolver.deadline.at = deadline;
      const step = lookup.steps.next();
      lookup.spent += performance.now() - started;
      if (!step.done) break;
      this.lookup = null;
      this.pending.delete(lookup.id);
      this.settle(lookup, step.value);
      ended += 1;
      slow ||= lookup.spent > SLOW_MS;
    }
    if (ended) this.retryMs = slow ? Math.min(RETRY_MAX_MS, this.retryMs * 2) : RETRY_MS;
  }

  /** A lookup of the first pending pin, on what is read of the page now. */
  private start(): Lookup | null {
    for (const id of this.pending) {
      const anchor = this.anchors.get(id);
      if (!anchor) {
        this.pending.delete(id);
        continue;
      }
      this.resolver ??= new Resolver(document);
      return {
        id,
        anchor,
        resolver: this.resolver,
        steps: this.resolver.steps(anchor, { fixed: this.fixed.has(id) }),
        spent: 0,
        pageChanged: false,
      };
    }
    return null;
  }

  /** What a lookup found. One that read a page changing under it is looked for again when its element no longer reads as it did. */
  private settle(lookup: Lookup, resolved: Resolution | null): void {
    const { id } = lookup;
    if (!resolved) {
      this.missing.add(id);
      return;
    }
    if (lookup.pageChanged && !lookup.resolver.readsAsItDid(resolved.element)) {
      this.pending.add(id);
      return;
    }
    this.missing.delete(id);
    const { element, confidence } = resolved;
    this.found.set(id, {
      element,
      confidence,
      signature: signatureOf(element),
      clippers: clippersOf(element),
      spot: null,
    });
  }

  /** The layout may have changed (the page, the window): where each pin points is measured again when it is next placed. */
  private remeasure(): void {
    for (const found of this.found.values()) found.spot = null;
  }

  /** Every pin's place; the callback hears of it only when something moved, showed, hid, went or came. */
  private place(): void {
    const origin = this.host.getBoundingClientRect();
    const next = new Map<string, Placement | null>();
    for (const id of this.anchors.keys()) {
      if (this.pending.has(id)) continue;
      const found = this.found.get(id);
      if (!found) {
        next.set(id, null);
        continue;
      }
      const box = boxInTop(found.element);
      // Clippers are in the element's own document: compared in its coordinates.
      const inner = found.element.getBoundingClientRect();
      const shown =
        box.width + box.height > 0 &&
        (found.element.checkVisibility?.({ visibilityProperty: true }) ?? true) &&
        found.clippers.every((clipper) => overlaps(inner, clipper.getBoundingClientRect()));
      // Scrolling moves the element and its words alike: measured again only when the layout may have changed.
      if (found.spot?.width !== inner.width || found.spot.height !== inner.height) {
        found.spot = { ...pinSpot(found.element, inner), width: inner.width, height: inner.height };
      }
      next.set(id, {
        x: Math.round(box.left + found.spot.x - origin.left),
        y: Math.round(box.top + found.spot.y - origin.top),
        confidence: found.confidence,
        visible: shown,
      });
    }
    if (!samePlacements(this.placements, next)) {
      this.placements = next;
      this.onChange(next);
    }
  }
}

function samePlacements(a: Map<string, Placement | null>, b: Map<string, Placement | null>): boolean {
  if (a.size !== b.size) return false;
  for (const [id, placement] of b) {
    const was = a.get(id);
    if (was === undefined) return false;
    if (was === null || placement === null) {
      if (was !== placement) return false;
      continue;
    }
    for (const key of ['x', 'y', 'confidence', 'visible'] as const) {
      if (was[key] !== placement[key]) return false;
    }
  }
  return true;
}
