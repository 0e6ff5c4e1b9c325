import { sql } from 'kysely';

// The folding of insight roll-ups (see migration 0018): deltas that triggers append, per event
// change, become compacted rows per day and per month, for the project and for the whole
// workspace, per wait bucket, with a row of totals (bucket -2) for each period, kind and who.
// Written once for both databases; each dialect runs it in its own way (db/dialect/*).

export const ROLLUP_COLUMNS = sql.raw(
  '(workspace_id, project_id, period, kind, who, bucket, compacted, n, flagged, wait_sum, wait_min, wait_max)',
);

/** The compacted rows that fold the deltas of `source` (a table or a common table expression of delta rows). */
export function foldedDeltas(source: string) {
  const folded = (project: string, period: string, bucket: string, where: string) => `
    select workspace_id, ${project} as project_id, ${period} as period, kind, who, ${bucket} as bucket, 1 as compacted,
      sum(n) as n, sum(flagged) as flagged, sum(wait_sum) as wait_sum, min(wait_min) as wait_min, max(wait_max) as wait_max
    from ${source} where ${where}
    group by ${['workspace_id', project, period, 'kind', 'who', bucket].filter((term) => !/^('.*'|-?\d+)$/.test(term)).join(', ')}`;
  const levels: string[] = [];
  for (const project of ['project_id', "''"]) {
    for (const period of ['period', 'substr(period, 1, 7)']) {
      levels.push(folded(project, period, 'bucket', 'bucket >= 0'), folded(project, period, '-2', 'true'));
    }
  }
  return sql.raw(levels.join(' union all '));
}

/** Where a compacted row exists already: add to it (its least and greatest wait kept when the new one has none). */
export const ADD_TO_COMPACTED = (least: string, greatest: string) =>
  sql.raw(`on conflict (workspace_id, project_id, period, kind, who, bucket) where compacted = 1 do update set
    n = insight_rollups.n + excluded.n,
    flagged = insight_rollups.flagged + excluded.flagged,
    wait_sum = insight_rollups.wait_sum + excluded.wait_sum,
    wait_min = ${least}(coalesce(insight_rollups.wait_min, excluded.wait_min), coalesce(excluded.wait_min, insight_rollups.wait_min)),
    wait_max = ${greatest}(coalesce(insight_rollups.wait_max, excluded.wait_max), coalesce(excluded.wait_max, insight_rollups.wait_max))`);
