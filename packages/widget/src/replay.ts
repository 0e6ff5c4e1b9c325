// The replay chunk: rrweb's recorder, keeping the last moments of a signed-in reviewer's page
// for their next comment, where its project keeps replays (loaded only then: never for a
// visitor). What it records is private by default: every input's value masked, password fields,
// elements marked `data-svc-mask` and the widget's own element blocked (left as an empty box of
// their size), all text masked when the project says so. What rrweb cannot record (a frame of
// another origin, a canvas) is said in the recording, not made up. Held in memory only, rolling:
// a full picture every half period begins a segment, and a segment is dropped once the one after
// it began more than a period ago, so at most a period and a half is held; a count of events
// bounds it whatever the page does. It leaves the browser only with a comment (see `take`).
import type { eventWithTime } from '@rrweb/types';
import { record } from 'rrweb';
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

let segments: eventWithTime[][] = [];
let count = 0;
let stopRecording: (() => void) | undefined;
let stopWatching: (() => void) | undefined;
let periodMs = 60_000;

/** Drops the segments the period no longer needs: those whose next began more than a period ago. */
function roll(now: number): void {
  while (segments.length > 1 && (segments[1]?.[0]?.timestamp ?? now) <= now - periodMs) {
    count -= segments.shift()?.length ?? 0;
  }
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
  if (checkout || !segments.length) {
    segments.push([]);
    // After the full picture: what it could not take.
    queueMicrotask(notCaptured);
  }
  segments[segments.length - 1]?.push(event);
  count++;
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
      checkoutEveryNms: periodMs / 2,
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
  },
  stop() {
    stopRecording?.();
    stopWatching?.();
    stopRecording = undefined;
    segments = [];
    count = 0;
  },
  running: () => stopRecording !== undefined,
  async take(pin) {
    if (!stopRecording || !segments.length) return null;
    record.addCustomEvent('svc-pin', { ...pin, from: Date.now() - periodMs });
    const events = segments.flat();
    const json = new Blob([JSON.stringify(events)]).stream();
    const gzipped = await new Response(json.pipeThrough(new CompressionStream('gzip'))).arrayBuffer();
    return new Blob([gzipped], { type: 'application/gzip' });
  },
};

(window as unknown as { __svcReplay: ReplayRecorder }).__svcReplay = recorder;
