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
