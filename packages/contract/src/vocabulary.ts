// How the product speaks of a comment, in one place for the widget, the console, the CLI and the
// agents' tools: its states as people see them (Open, Completed, Live, Verified, Archived), the
// status filters and their labels, and a refusal of the API as one sentence. Free of schema
// code, so bundles stay small.
import { shortSha } from './sha.js';

/** The fields a comment's state is read from. */
export interface StateFields {
  status: 'open' | 'applied' | 'archived';
  deployedAt: string | null;
  deployedBuildSha: string | null;
  verifiedAt: string | null;
}

/** What a comment is, as people see it: Live is an applied comment whose commit is deployed (not a status). */
export type DisplayState = 'open' | 'completed' | 'live' | 'archived';

export function displayState(comment: StateFields): DisplayState {
  if (comment.status !== 'applied') return comment.status;
  return comment.deployedAt ? 'live' : 'completed';
}

/** A comment's pills, in order: its state ("Live · 3abdb14"), then Verified when its author confirmed the fix. */
export function statePills(comment: StateFields): { kind: DisplayState | 'verified'; label: string }[] {
  const state = displayState(comment);
  const label =
    state === 'live' && comment.deployedBuildSha ? `Live · ${shortSha(comment.deployedBuildSha)}` : STATE_LABELS[state];
  const pills: { kind: DisplayState | 'verified'; label: string }[] = [{ kind: state, label }];
  if (comment.verifiedAt) pills.push({ kind: 'verified', label: 'Verified' });
  return pills;
}

export const STATE_LABELS: Record<DisplayState, string> = {
  open: 'Open',
  completed: 'Completed',
  live: 'Live',
  archived: 'Archived',
};

/** The filters of comment lists (the API's `status`, '' for all), with their labels. */
export const STATUS_FILTERS = [
  ['', 'All'],
  ['open', 'Open'],
  ['applied', 'Completed'],
  ['live', 'Live'],
  ['verified', 'Verified'],
  ['archived', 'Archived'],
] as const;
export type StatusFilterValue = (typeof STATUS_FILTERS)[number][0];

/** A refusal of the API, as the server writes it (RFC 9457 problem details with our `code`). */
export interface ProblemDocument {
  type?: string;
  title?: string;
  status?: number;
  detail?: string;
  code?: string;
  errors?: { path: string; message: string }[];
}

/**
 * A refusal as one sentence for a person: its detail (else its title), and the first field it
 * names unless the detail already says it.
 */
export function problemSentence(problem: ProblemDocument | undefined, status: number): string {
  const detail = problem?.detail ?? problem?.title ?? `The server answered ${status}.`;
  const field = problem?.errors?.[0];
  if (!field || detail.includes(field.message)) return detail.replace(/^\/(?=\w)/, '');
  return `${detail} (${field.path.replace(/^\//, '') || 'request'} ${field.message})`;
}

/** A timeline event's fields the sentences read (the API's `TimelineEvent`). */
export interface TimelineFields {
  kind: string;
  at: string;
  by: { name: string } | null;
  via: 'person' | 'api_key' | 'mcp' | null;
  commitSha: string | null;
  buildSha: string | null;
  note: string | null;
}

const VIA_WORDS = { person: '', api_key: ' with an API key', mcp: ' through an agent (MCP)' } as const;

/** "2 h", "3 d", "under a minute": how long one step of a comment's story took. */
export function durationText(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  if (minutes < 1) return 'under a minute';
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h`;
  return `${Math.round(hours / 24)} d`;
}

/** One event of a comment's timeline as a sentence: "Applied by Dana in 3abdb14 through an agent (MCP)". */
export function timelineSentence(event: TimelineFields): string {
  const by = event.by ? ` by ${event.by.name}` : '';
  const via = event.via ? VIA_WORDS[event.via] : '';
  const commit = event.commitSha ? ` in ${shortSha(event.commitSha)}` : '';
  switch (event.kind) {
    case 'created':
      return `Written${by}`;
    case 'replied':
      return `${event.by?.name ?? 'Someone'} replied${event.note ? `: “${event.note}”` : ''}`;
    case 'applied':
      return `Applied${by}${commit}${via}`;
    case 'reapplied':
      return `Applied again${by}${commit}${via}`;
    case 'live':
      return `Live in build ${event.buildSha ? shortSha(event.buildSha) : '(unknown)'}`;
    case 'verified':
      return `Verified${by}`;
    case 'not_fixed':
      return `Not fixed, said ${event.by?.name ?? 'its author'}${event.note ? `: “${event.note}”` : ''}`;
    case 'reopened':
      return `Reopened${by}${via}`;
    case 'archived':
      return `Archived${by}${via}`;
    case 'repinned':
      return `Pin moved${by}`;
    case 'screenshot_added':
      return `Screenshot added${by}`;
    default:
      return event.kind;
  }
}

/**
 * The story of a comment's latest fix in one line: "Applied by Dana in 3abdb14 · Live 2 h later
 * in build 9f1c2e0 · Verified by Cleo". Null while it was never applied.
 */
export function fixStory(timeline: readonly TimelineFields[]): string | null {
  let start = -1;
  timeline.forEach((event, index) => {
    if (event.kind === 'applied' || event.kind === 'reapplied') start = index;
  });
  const applied = timeline[start];
  if (!applied) return null;
  const parts = [timelineSentence({ ...applied, kind: 'applied' })];
  for (const event of timeline.slice(start + 1)) {
    if (event.kind === 'live') {
      const later = durationText(Date.parse(event.at) - Date.parse(applied.at));
      parts.push(`Live ${later} later in build ${event.buildSha ? shortSha(event.buildSha) : '(unknown)'}`);
    } else if (['verified', 'not_fixed', 'reopened'].includes(event.kind)) {
      parts.push(timelineSentence(event));
    }
  }
  return parts.join(' · ');
}
