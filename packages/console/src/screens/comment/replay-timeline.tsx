// The replay's timeline: how far it has played, and a mark for each thing that happened, a
// button named by what happened and when, that plays from there. One tab stop: the arrow keys,
// Home and End go from mark to mark (a toolbar). Marks closer than a target's width are one
// button, named by all of them, so that no two overlap under a finger. Time runs left to right
// whatever the language's direction, as the marks are placed.

import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from '../../i18n.js';
import { clock } from './replay-moments.js';

export type MarkKind = 'click' | 'navigation' | 'error' | 'request' | 'pin';

export interface Mark {
  kind: MarkKind;
  /** Milliseconds from the start of the replay. */
  at: number;
  label: string;
}

/** The least width of a mark's button, in CSS pixels: WCAG's minimum target size. */
const TARGET_PX = 24;

/** What a button of marks is drawn as, when it holds several: the one that matters most. */
const WEIGHT: Record<MarkKind, number> = { click: 0, navigation: 1, request: 2, error: 2, pin: 3 };

/** Marks drawn as one button: those within a target's width of its first. */
export interface MarkGroup {
  at: number;
  kind: MarkKind;
  labels: string[];
}

/** The marks (in time order) as buttons on a track `width` pixels wide for a replay `length` ms long. */
export function groupMarks(marks: readonly Mark[], length: number, width: number): MarkGroup[] {
  const within = length > 0 && width > 0 ? (TARGET_PX / width) * length : 0;
  const groups: MarkGroup[] = [];
  for (const mark of marks) {
    const last = groups[groups.length - 1];
    if (last && mark.at - last.at < within) {
      last.labels.push(mark.label);
      if (WEIGHT[mark.kind] > WEIGHT[last.kind]) last.kind = mark.kind;
    } else groups.push({ at: mark.at, kind: mark.kind, labels: [mark.label] });
  }
  return groups;
}

const percent = (at: number, length: number) => (length ? (100 * at) / length : 0);

export function ReplayTimeline({
  marks,
  length,
  now,
  seek,
}: {
  marks: readonly Mark[];
  length: number;
  now: number;
  seek: (at: number) => void;
}) {
  const track = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [current, setCurrent] = useState(0);
  useEffect(() => {
    const element = track.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const groups = groupMarks(marks, length, width);
  const focusable = Math.min(current, groups.length - 1);

  const onKey = (event: KeyboardEvent) => {
    const to =
      event.key === 'ArrowRight'
        ? focusable + 1
        : event.key === 'ArrowLeft'
          ? focusable - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? groups.length - 1
              : null;
    if (to === null) return;
    event.preventDefault();
    const next = Math.max(0, Math.min(to, groups.length - 1));
    setCurrent(next);
    track.current?.querySelectorAll<HTMLButtonElement>('.replay-mark')[next]?.focus();
  };

  return (
    <div class="replay-track" dir="ltr" ref={track}>
      <div class="replay-progress" aria-hidden="true" style={`width:${percent(now, length)}%`} />
      <div class="replay-marks" role="toolbar" aria-label={t('replay.timeline')} onKeyDown={onKey}>
        {groups.map((group, i) => {
          const name = `${clock(group.at)} ${group.labels.join('; ')}`;
          return (
            <button
              key={`${group.at}-${group.kind}`}
              type="button"
              class={`replay-mark ${group.kind}`}
              style={`left:${percent(group.at, length)}%`}
              aria-label={name}
              title={name}
              tabIndex={i === focusable ? 0 : -1}
              onFocus={() => setCurrent(i)}
              onClick={() => seek(group.at)}
            />
          );
        })}
      </div>
    </div>
  );
}
