// The replay chunk: rrweb's recorder, keeping the last moments of a signed-in reviewer's page
// for their next comment, where its project keeps replays (loaded only then: never for a
// visitor). What it records is private by default: every input's value masked, password fields,
// elements marked `data-svc-mask` and the widget's own element blocked (left as an empty box of
// their size), all text masked when the project says so. What rrweb cannot record (a frame of
// another origin, a canvas) is said in the recording, not made up. Held in memory only, rolling:
// a segment begins with a full picture, and one is dropped once the one after it began more than
// a period ago, so at most a period and a half is held; a count of events bounds it whatever the
// page does. A full picture blocks the page (an 11,000-element page, a tenth of a second or
// more), so after the first one a new one is taken only where the page changed since, when the
// browser is idle; a page that did not change keeps its picture, moved up to the period's start
// (see `trim`). It leaves the browser only with a comment (see `take`).
import type { eventWithTime } from '@rrweb/types';
import { EventType, IncrementalSource, record } from 'rrweb';
import { watchNavigation } from './navigation.js';

export interface ReplayOptions {
  /** How many seconds before a comment are kept (the project's setting). */
  seconds: number;
  /** Every text masked, not only what people type and what the page marks. */
  maskAllText: boolean;
}

/** Where the comment was pinned, marked at the end of its replay. */
export interface PinMark {
  selector: string | null;
}

export interface ReplayRecorder {
  /** Starts keeping the last moments (a second call while it runs changes nothing). */
  start(options: ReplayOptions): void;
  /** Stops, and forgets what it held. */
  stop(): void;
  /** Whether it is keeping them now. */
  running(): boolean;
  /** What it holds, the pin marked at its end, as rrweb's events in JSON, gzipped; null when it holds nothing. */
  take(pin: PinMark): Promise<Blob | null>;
}

/** Never recorded, only their box: password fields, what the page keeps to itself, the widget. */
const BLOCKED = 'input[type=password],[data-svc-mask],[data-svc-widget]';
/** Text typed into an editable element is no input's value: masked as one, always. */
const EDITABLE = '[contenteditable]:not([contenteditable=false])';
/** Most events held at once: past it, a new full picture and the older ones dropped. */
const EVENTS_MAX = 20_000;

/**
 * What the page shows lastingly, replayed as its latest value: a still page's picture, moved up
 * to the period's start, is still right with them. Keyed by kind and element.
 */
const LASTING = new Set<number>([
  IncrementalSource.Scroll,
  IncrementalSource.ViewportResize,
  IncrementalSource.Input,
  IncrementalSource.MediaInteraction,
  IncrementalSource.Selection,
]);
/** Moments that change nothing on the page: dropped once older than the period. */
const MOMENTS = new Set<number>([
  IncrementalSource.MouseMove,
  IncrementalSource.MouseInteraction,
  IncrementalSource.TouchMove,
  IncrementalSource.Drag,
  IncrementalSource.Log,
]);
/** Our custom events that say a state (the route, what is not captured): their latest kept. */
const LASTING_CUSTOM = new Set(['svc-navigation', 'svc-not-captured']);

let segments: eventWithTime[][] = [];
/** Whether the page changed since the last segment's picture (its elements, styles, a canvas, anything unknown). */
let changed = false;
/** How many events the last segment's picture is made of (its Meta, the page, their adopted style sheets). */
let pictureLength = 0;
let inPicture = false;
let count = 0;
let stopRecording: (() => void) | undefined;
let stopWatching: (() => void) | undefined;
let checkpoints: ReturnType<typeof setInterval> | undefined;
let pictureAsked = false;
let periodMs = 60_000;

/** Drops the segments the period no longer needs: those whose next began more than a period ago. */
function roll(now: number): void {
  while (segments.length > 1 && (segments[1]?.[0]?.timestamp ?? now) <= now - periodMs) {
    count -= segments.shift()?.length ?? 0;
  }
}

/** How an event still says something once older than the period: the key of its latest value, or null (dropped). */
function lastingKey(event: eventWithTime): string | null {
  if (event.type === EventType.IncrementalSnapshot && LASTING.has(event.data.source)) {
    return `${event.data.source}:${'id' in event.data ? event.data.id : ''}`;
  }
  if (event.type === EventType.Custom && LASTING_CUSTOM.has(event.data.tag)) return event.data.tag;
  return null;
}

/**
 * A page unchanged since its picture: what is older than the period dropped without a new
 * picture. The picture (and what rrweb sends with it) is moved up to the period's start, followed
 * by the latest lasting values from before it (the scroll, the inputs' masked state, the route),
 * then what came after: the same replay a new picture would begin, at no cost to the page.
 */
function trim(now: number): void {
  const segment = segments[0];
  const cutoff = now - periodMs;
  if (!segment || segments.length > 1 || (segment[0]?.timestamp ?? now) >= cutoff) return;
  const start = pictureLength;
  const before = new Map<string, eventWithTime>();
  let after = start;
  for (; after < segment.length && (segment[after]?.timestamp ?? now) < cutoff; after++) {
    const event = segment[after] as eventWithTime;
    const key = lastingKey(event);
    if (key) {
      before.delete(key);
      before.set(key, event);
    }
  }
  const moved = [...segment.slice(0, start), ...before.values()].map((event) => ({ ...event, timestamp: cutoff }));
  segments[0] = [...moved, ...segment.slice(after)];
  count = segments[0].length;
}

/** Every half period: a page that changed gets a new picture when the browser is idle; a still one is trimmed. */
function checkpoint(): void {
  const now = Date.now();
  roll(now);
  if (!changed) {
    trim(now);
    return;
  }
  if (pictureAsked) return;
  pictureAsked = true;
  const picture = () => {
    pictureAsked = false;
    if (stopRecording) record.takeFullSnapshot(true);
  };
  // Safari has no idle callback: a timer then, still out of the page's own task.
  if ('requestIdleCallback' in window) requestIdleCallback(picture, { timeout: periodMs / 2 });
  else setTimeout(picture, 0);
}

/**
 * An in-app navigation, said as a custom event: rrweb records the page's changes, not that its
 * route changed. The address without its query or fragment, which may carry what is private.
 */
const navigated = () => record.addCustomEvent('svc-navigation', { href: location.origin + location.pathname });

/** What the recorder cannot see on the page now, said as a custom event: cross-origin frames, canvases. */
function notCaptured(): void {
  let frames = 0;
  for (const frame of document.querySelectorAll('iframe')) {
    try {
      if (!frame.contentDocument) frames++;
    } catch {
      frames++;
    }
  }
  const canvases = document.querySelectorAll('canvas').length;
  if (frames || canvases) record.addCustomEvent('svc-not-captured', { frames, canvases });
}

function keep(event: eventWithTime, checkout?: boolean): void {
  // rrweb says both events of a new picture (its Meta, then the page) are a checkout: the Meta begins the segment.
  if ((checkout && event.type === EventType.Meta) || !segments.length) {
    segments.push([]);
    changed = false;
    pictureLength = 0;
    inPicture = true;
    // After the full picture: what it could not take.
    queueMicrotask(notCaptured);
  }
  // rrweb sends the shadow roots' adopted style sheets a task after the page: still the picture.
  if (event.type === EventType.FullSnapshot) {
    setTimeout(() => {
      inPicture = false;
    });
  }
  const segment = segments[segments.length - 1] ?? [];
  segment.push(event);
  count++;
  if (inPicture) pictureLength = segment.length;
  else if (
    event.type === EventType.IncrementalSnapshot &&
    !LASTING.has(event.data.source) &&
    !MOMENTS.has(event.data.source)
  ) {
    changed = true;
  }
  roll(event.timestamp);
  if (count > EVENTS_MAX && segments.length > 0) {
    // A page changing without pause: a new picture, and only what follows it kept.
    record.takeFullSnapshot(true);
    const last = segments[segments.length - 1] ?? [];
    segments = [last];
    count = last.length;
  }
}

const recorder: ReplayRecorder = {
  start({ seconds, maskAllText }) {
    if (stopRecording) return;
    periodMs = seconds * 1000;
    stopRecording = record({
      emit: keep,
      maskAllInputs: true,
      maskInputFn: (text) => (text ? '•••' : ''),
      blockSelector: BLOCKED,
      maskTextSelector: maskAllText ? '*' : EDITABLE,
      recordCanvas: false,
      recordCrossOriginIframes: false,
      collectFonts: false,
      inlineImages: false,
      slimDOMOptions: 'all',
      sampling: { mousemove: 100, scroll: 150, input: 'last' },
    });
    stopWatching = watchNavigation(navigated);
    checkpoints = setInterval(checkpoint, periodMs / 2);
  },
  stop() {
    stopRecording?.();
    stopWatching?.();
    clearInterval(checkpoints);
    pictureAsked = false;
    stopRecording = undefined;
    segments = [];
    count = 0;
  },
  running: () => stopRecording !== undefined,
  async take(pin) {
    if (!stopRecording || !segments.length) return null;
    const now = Date.now();
    roll(now);
    // A still page's replay: the period exactly.
    if (!changed) trim(now);
    record.addCustomEvent('svc-pin', { ...pin, from: now - periodMs });
    const events = segments.flat();
    const json = new Blob([JSON.stringify(events)]).stream();
    const gzipped = await new Response(json.pipeThrough(new CompressionStream('gzip'))).arrayBuffer();
    return new Blob([gzipped], { type: 'application/gzip' });
  },
};

(window as unknown as { __svcReplay: ReplayRecorder }).__svcReplay = recorder;
