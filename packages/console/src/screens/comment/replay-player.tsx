// The replay of the moments before a comment, played on its page: rrweb's replayer, in a chunk
// of its own loaded when a comment has one. Under it, a timeline marks what happened: the
// clicks (from the recording), the routes taken (the recording's and the steps'), the page's
// errors and failed requests (from what the widget sent with the comment) and the pin, each a
// button that plays from there; it ends on the pinned element, outlined. The marks are the
// timeline only: the Steps to reproduce say the story in words (and offer to play from a step).
// What the recorder could not capture is said.
import type { Comment, CommentContext } from '@svc/contract';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Replayer } from 'rrweb';
import { api } from '../../api.js';
import { t } from '../../i18n.js';
import { clock, LEAD_IN_MS, shownReplay } from './replay-moments.js';
import { type Mark, type MarkKind, ReplayTimeline } from './replay-timeline.js';

interface ReplayEvent {
  type: number;
  timestamp: number;
  data: {
    source?: number;
    type?: number;
    tag?: string;
    payload?: Record<string, unknown>;
    width?: number;
    href?: string;
  };
}

/** rrweb's event types and sources, as its recorder numbers them. */
const META = 4;
const INCREMENTAL = 3;
const CUSTOM = 5;
const MOUSE_INTERACTION = 2;
const CLICK = 2;

const pathOf = (href: string) => {
  try {
    return new URL(href).pathname;
  } catch {
    return href;
  }
};

const failedRequest = (status: number | null) => status === null || status >= 400;

/** The marks of the timeline: the recording's own, and what the comment's context says happened while it ran. */
export function marksOf(events: readonly ReplayEvent[], context: CommentContext | null): Mark[] {
  const start = events[0]?.timestamp ?? 0;
  const end = events[events.length - 1]?.timestamp ?? start;
  const marks: Mark[] = [];
  const add = (kind: MarkKind, time: number, label: string) => {
    if (time >= start && time <= end) marks.push({ kind, at: time - start, label });
  };
  for (const event of events) {
    if (event.type === INCREMENTAL && event.data.source === MOUSE_INTERACTION && event.data.type === CLICK)
      add('click', event.timestamp, t('replay.click'));
    if (event.type === CUSTOM && event.data.tag === 'svc-navigation')
      add('navigation', event.timestamp, t('replay.navigation', { path: pathOf(String(event.data.payload?.href)) }));
    if (event.type === CUSTOM && event.data.tag === 'svc-pin') add('pin', event.timestamp, t('replay.pin'));
  }
  for (const error of context?.errors ?? []) {
    const at = Date.parse(error.at);
    if (error.kind === 'network')
      add('request', at, `${t('replay.failedRequest')}: ${error.method ?? ''} ${error.url ?? ''}`);
    else add('error', at, `${t('replay.error')}: ${error.message}`);
  }
  // A failed request the page's errors hold already (the same method and address within a second) is marked once.
  const told = (request: { method: string; url: string; at: string }) =>
    context?.errors.some(
      (e) =>
        e.kind === 'network' &&
        e.method === request.method &&
        e.url === request.url &&
        Math.abs(Date.parse(e.at) - Date.parse(request.at)) < 1000,
    );
  for (const request of context?.requests ?? []) {
    if (failedRequest(request.status) && !told(request))
      add('request', Date.parse(request.at), `${t('replay.failedRequest')}: ${request.method} ${request.url}`);
  }
  return marks.sort((a, b) => a.at - b.at);
}

/**
 * The replayed page's styles, applied through the CSSOM: its frame has the console's policy,
 * which applies no inline style (its <style> elements and style attributes) but lets scripts
 * style through the CSSOM, as the console itself does. Its scripts stay blocked (the frame is
 * sandboxed without them).
 */
function styleThroughCssom(replayer: Replayer): void {
  const doc = replayer.iframe.contentDocument;
  const frame = doc?.defaultView as (Window & typeof globalThis) | null | undefined;
  if (!doc || !frame) return;
  doc.adoptedStyleSheets = [...doc.querySelectorAll('style')].map((style) => {
    const sheet = new frame.CSSStyleSheet();
    try {
      sheet.replaceSync(style.textContent ?? '');
    } catch {
      // A sheet the browser cannot read: left out, as the page's own browser would.
    }
    return sheet;
  });
  for (const element of doc.querySelectorAll<HTMLElement>('[style]')) {
    element.style.cssText = element.getAttribute('style') ?? '';
  }
}

/** Outlines the pinned element in the replayed page, once it ends. */
function outlinePinned(replayer: Replayer, selector: string | null): void {
  if (!selector) return;
  try {
    const element = replayer.iframe.contentDocument?.querySelector(selector) as HTMLElement | null;
    if (element) {
      element.style.outline = '3px solid #d6336c';
      element.style.outlineOffset = '2px';
      element.scrollIntoView({ block: 'center' });
    }
  } catch {
    // A selector the replayed page cannot read: the pin's mark says where it ended.
  }
}

export function ReplayPlayer({ comment }: { comment: Comment }) {
  const stage = useRef<HTMLDivElement>(null);
  const player = useRef<Replayer | null>(null);
  const [state, setState] = useState<'loading' | 'ready' | 'failed'>('loading');
  const [marks, setMarks] = useState<Mark[]>([]);
  const [length, setLength] = useState(0);
  const [now, setNow] = useState(0);
  const [playing, setPlaying] = useState(false);
  const [notCaptured, setNotCaptured] = useState<{ frames: number; canvases: number } | null>(null);
  const [ended, setEnded] = useState(false);
  const url = comment.replay?.url ?? '';
  const controls = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    let gone = false;
    let ticking = 0;
    const load = async () => {
      const blob = await api.blob(url);
      if (!blob) throw new Error('not read');
      const text = await new Response(blob.stream().pipeThrough(new DecompressionStream('gzip'))).text();
      const events = JSON.parse(text) as ReplayEvent[];
      const root = stage.current;
      if (gone || !root || events.length < 2) throw new Error('nothing to play');
      const replayer = new Replayer(events as never, {
        root,
        skipInactive: true,
        showWarning: false,
        mouseTail: false,
        triggerFocus: false,
        UNSAFE_replayCanvas: false,
      });
      player.current = replayer;
      replayer.iframe.title = t('comment.replay');
      // Each full picture rebuilds the page; a change may add styles: applied again, at most once a frame.
      let styling = 0;
      const restyle = () => {
        cancelAnimationFrame(styling);
        styling = requestAnimationFrame(() => styleThroughCssom(replayer));
      };
      replayer.on('fullsnapshot-rebuilded', restyle);
      replayer.on('event-cast', (event) => {
        if ((event as ReplayEvent).type === INCREMENTAL && (event as ReplayEvent).data.source === 0) restyle();
      });
      const width = events.find((e) => e.type === META)?.data.width ?? 1280;
      const fit = () => {
        const scale = Math.min(1, root.clientWidth / width);
        const wrapper = root.querySelector<HTMLElement>('.replayer-wrapper');
        if (wrapper) {
          wrapper.style.transform = `scale(${scale})`;
          wrapper.style.transformOrigin = '0 0';
          root.style.height = `${(replayer.iframe.offsetHeight || 600) * scale}px`;
        }
      };
      fit();
      const pin = [...events].reverse().find((e) => e.type === CUSTOM && e.data.tag === 'svc-pin');
      const missing = [...events].reverse().find((e) => e.type === CUSTOM && e.data.tag === 'svc-not-captured');
      setNotCaptured((missing?.data.payload as { frames: number; canvases: number } | undefined) ?? null);
      const selector = (pin?.data.payload?.selector as string | null | undefined) ?? comment.anchor?.selector ?? null;
      const total = replayer.getMetaData().totalTime;
      replayer.on('finish', () => {
        setPlaying(false);
        setEnded(true);
        setNow(total);
        outlinePinned(replayer, selector);
      });
      setMarks(marksOf(events, comment.context));
      setLength(total);
      setState('ready');
      shownReplay.value = {
        start: events[0]!.timestamp,
        length: total,
        pinnedAt: pin ? pin.timestamp : null,
        playFrom: (at) => {
          seekRef.current(Math.max(0, at - LEAD_IN_MS));
          stage.current?.closest('section')?.scrollIntoView({ block: 'start' });
          controls.current?.focus({ preventScroll: true });
        },
      };
      // From the start of the period the project keeps (what came before only set the page up).
      const from = Number(pin?.data.payload?.from ?? 0) - events[0]!.timestamp;
      replayer.play(Math.max(0, Math.min(from, total)));
      setPlaying(true);
      ticking = window.setInterval(() => setNow(replayer.getCurrentTime()), 250);
    };
    load().catch(() => !gone && setState('failed'));
    return () => {
      gone = true;
      shownReplay.value = null;
      clearInterval(ticking);
      player.current?.destroy();
      player.current = null;
    };
  }, [url]);

  const seek = (at: number) => {
    const replayer = player.current;
    if (!replayer) return;
    setEnded(false);
    replayer.play(at);
    setPlaying(true);
    setNow(at);
  };
  // The steps' "play from here" call the seek of the player as it is drawn now.
  const seekRef = useRef(seek);
  seekRef.current = seek;

  return (
    <section class="replay" aria-labelledby="replay-title">
      <h2 id="replay-title">{t('comment.replay')}</h2>
      {state === 'failed' ? (
        <p class="error" role="alert">
          {t('replay.failed')}
        </p>
      ) : state === 'loading' ? (
        <p role="status">{t('replay.loading')}</p>
      ) : null}
      <div class="replay-stage" ref={stage} />
      {state === 'ready' ? (
        <>
          <div class="replay-controls">
            <button
              type="button"
              ref={controls}
              onClick={() => {
                const replayer = player.current;
                if (!replayer) return;
                if (playing) {
                  replayer.pause();
                  setPlaying(false);
                } else seek(ended ? 0 : replayer.getCurrentTime());
              }}
            >
              {t(playing ? 'replay.pause' : 'replay.play')}
            </button>
            <span class="replay-time">
              {clock(now)} / {clock(length)}
            </span>
          </div>
          <ReplayTimeline marks={marks} length={length} now={now} seek={seek} />
          {notCaptured ? (
            <p class="hint">
              {t('replay.notCaptured', { frames: notCaptured.frames, canvases: notCaptured.canvases })}
            </p>
          ) : null}
          {ended ? <p class="hint">{t('replay.ended')}</p> : null}
        </>
      ) : null}
    </section>
  );
}
