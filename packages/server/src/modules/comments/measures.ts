import type { TimelineKind } from '@svc/contract';
import type { Db } from '../../db/schema.js';

// What insights read off a comment's timeline, kept on its events so that a period's figures
// are sums and percentiles over indexed rows, never a walk through each comment's history:
// the wait each event ends, whose fix it is, whether a fix was sent back, whether a verdict
// came the first time, whether an archive took the comment out of those waiting for a fix.
// Written by the change that alters the timeline, in its transaction, and by an import.
// Migration 0013 computed the same for timelines written before, in SQL.

/** An event as far as measuring goes, in its timeline's order (time, then id). */
export interface MeasuredEvent {
  id: string;
  kind: TimelineKind;
  via: string | null;
  commit_sha: string | null;
  created_at: string;
}

export interface Measures {
  span_ms: number | null;
  fix_via: string | null;
  sent_back: number;
  first_time_right: number;
  was_open: number;
}

/** The kinds whose writing can change a timeline's measures (others have none, and change none). */
export const MEASURED_KINDS = [
  'applied',
  'reapplied',
  'live',
  'verified',
  'not_fixed',
  'reopened',
  'archived',
] as const satisfies readonly TimelineKind[];

/** Whose fix, when the event does not say: timelines derived from before fixes were attributed. */
const UNKNOWN_VIA = 'unknown';

const since = (from: string | null, to: string) => (from === null ? null : Date.parse(to) - Date.parse(from));

/** The measures of each event of one comment's timeline (`events` oldest first). */
export function measureTimeline(events: readonly MeasuredEvent[]): Measures[] {
  const measures = events.map(
    (): Measures => ({ span_ms: null, fix_via: null, sent_back: 0, first_time_right: 0, was_open: 0 }),
  );
  let writtenAt: string | null = null;
  let fixed = false;
  let open = true;
  let rejected = false;
  let fix: { index: number; at: string; via: string; commit: string | null } | null = null;
  let liveAt: string | null = null;
  events.forEach((event, index) => {
    const m = measures[index] as Measures;
    switch (event.kind) {
      case 'created':
        writtenAt ??= event.created_at;
        break;
      case 'applied':
      case 'reapplied': {
        // A re-apply naming the commit already applied only changes its link: not a new fix.
        if (event.kind === 'reapplied' && fix && event.commit_sha === fix.commit) break;
        m.fix_via = event.via ?? UNKNOWN_VIA;
        if (event.kind === 'applied' && !fixed) m.span_ms = since(writtenAt, event.created_at);
        fixed = true;
        open = false;
        fix = { index, at: event.created_at, via: m.fix_via, commit: event.commit_sha };
        liveAt = null;
        break;
      }
      case 'live':
        m.fix_via = fix?.via ?? UNKNOWN_VIA;
        // A fix without a commit is Live as it is made: it waits for no deploy, and its zero
        // would pass for one. Its verdict's wait runs from it all the same.
        m.span_ms = fix && fix.commit === null ? null : since(fix?.at ?? null, event.created_at);
        liveAt = event.created_at;
        break;
      case 'verified':
        m.fix_via = fix?.via ?? UNKNOWN_VIA;
        m.span_ms = since(liveAt, event.created_at);
        m.first_time_right = rejected ? 0 : 1;
        break;
      case 'not_fixed':
      case 'reopened':
        if (fix) (measures[fix.index] as Measures).sent_back = 1;
        rejected = true;
        open = true;
        break;
      case 'archived':
        m.was_open = open ? 1 : 0;
        open = false;
        break;
      default:
        break;
    }
  });
  return measures;
}

const same = (a: Measures, b: Measures) =>
  a.span_ms === b.span_ms &&
  a.fix_via === b.fix_via &&
  a.sent_back === b.sent_back &&
  a.first_time_right === b.first_time_right &&
  a.was_open === b.was_open;

/**
 * Measures the timelines of `commentIds` again after a change wrote to them, in its
 * transaction: reads their events (a handful each, by the comment index) and writes the
 * measures that differ, usually those of the new event and of the fix a rejection sent back.
 */
export async function remeasure(trx: Db, workspaceId: string, commentIds: readonly string[]): Promise<void> {
  if (commentIds.length === 0) return;
  const rows = await trx
    .selectFrom('comment_events')
    .select([
      'id',
      'comment_id',
      'kind',
      'via',
      'commit_sha',
      'created_at',
      'span_ms',
      'fix_via',
      'sent_back',
      'first_time_right',
      'was_open',
    ])
    .where('workspace_id', '=', workspaceId)
    .where('comment_id', 'in', commentIds)
    .orderBy('comment_id')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const timelines = new Map<string, typeof rows>();
  for (const row of rows) timelines.set(row.comment_id, [...(timelines.get(row.comment_id) ?? []), row]);
  for (const timeline of timelines.values()) {
    const measures = measureTimeline(timeline);
    for (const [index, row] of timeline.entries()) {
      const wanted = measures[index] as Measures;
      const stored: Measures = {
        span_ms: row.span_ms === null ? null : Number(row.span_ms),
        fix_via: row.fix_via,
        sent_back: Number(row.sent_back),
        first_time_right: Number(row.first_time_right),
        was_open: Number(row.was_open),
      };
      if (!same(wanted, stored)) await trx.updateTable('comment_events').set(wanted).where('id', '=', row.id).execute();
    }
  }
}
