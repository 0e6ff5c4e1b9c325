import type { Insights, InsightsRow, InsightWho } from '@svc/contract';
import { INSIGHT_WHO } from '@svc/contract';
import { type RawBuilder, sql } from 'kysely';
import type { Database, DayBounds } from '../../db/dialect/types.js';
import type { Actor } from '../auth/actor.js';
import { authorize } from '../auth/policy.js';
import { excerpt } from '../comments/excerpt.js';

// The team's loop in numbers, read from the comments' timelines (comment_events): how long
// feedback waits for a fix, for its deploy and for its author's verdict; how often fixes are
// sent back; what is stuck. Each event carries its measures (`comments/measures.ts`), so each
// figure is a sum or a percentile over the period's events, read through the index by
// workspace or project, kind and time, never a walk through each comment's history.

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whose fix an event counts for: each way a fix is made, and fixes of timelines that did not record it. */
const FIX_VIAS = ['person', 'api_key', 'mcp', 'unknown'] as const;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export interface InsightsScope {
  projectId: string | null;
  projectKey: string | null;
  days: number;
  now: number;
}

interface Spread {
  count: number;
  median: number | null;
  p90: number | null;
}

/** The median and 90th percentile (nearest rank) of waits in order. */
function spreadOf(sorted: Float64Array): Spread {
  const rank = (p: number) => sorted[Math.ceil(sorted.length * p) - 1] ?? null;
  return { count: sorted.length, median: rank(0.5), p90: rank(0.9) };
}

const list = (kinds: readonly string[]) =>
  sql.join(
    kinds.map((kind) => sql.lit(kind)),
    sql`, `,
  );

export async function readInsights(database: Database, actor: Actor, scope: InsightsScope): Promise<Insights> {
  authorize(actor, 'workspace.readInsights');
  const { db } = database;
  const from = new Date(scope.now - scope.days * DAY_MS).toISOString();
  const to = new Date(scope.now).toISOString();
  const inScope = scope.projectId
    ? sql`e.workspace_id = ${actor.workspaceId} and e.project_id = ${scope.projectId}`
    : sql`e.workspace_id = ${actor.workspaceId}`;
  const inPeriod = sql`e.created_at >= ${from} and e.created_at < ${to}`;

  // One pass over the period's fixes, Live and verdicts: per kind and whose fix, how many, how
  // many flagged (a fix sent back, a verdict right the first time) and the waits they ended.
  // Its statements and the backlog's and what is stuck run at once (PostgreSQL: on several
  // connections; SQLite's one connection takes them in turn).
  const grouped = sql<{ kind: string; who: string; n: number; flagged: number; waits: unknown }>`
    select e.kind, e.fix_via as who, count(*) as n,
      sum(case when e.kind = 'verified' then e.first_time_right else e.sent_back end) as flagged,
      ${database.jsonArrayOf(sql.ref('e.span_ms'), sql`e.span_ms is not null`)} as waits
    from comment_events e
    where ${inScope} and e.kind in ('applied', 'reapplied', 'live', 'verified') and e.fix_via in (${list(FIX_VIAS)}) and ${inPeriod}
    group by e.kind, e.fix_via`.execute(db);
  const [{ rows: groups }, openByDay, stuckOnes] = await Promise.all([
    grouped,
    backlog(database, actor, scope, inScope),
    stuck(database, actor, scope),
  ]);
  const counts = groups.filter((group) => group.kind !== 'live');
  // Each group's waits read once; everyone's are all of a kind's together.
  const waitsOf = new Map(
    groups.map((group) => [
      `${group.kind} ${group.who}`,
      Float64Array.from(database.parseJsonArray(group.waits) as number[]),
    ]),
  );
  const waits = (kind: string, who: InsightWho) => {
    if (who !== 'everyone') return spreadOf((waitsOf.get(`${kind} ${who}`) ?? new Float64Array()).sort());
    const all = groups.filter((group) => group.kind === kind).map((group) => waitsOf.get(`${group.kind} ${group.who}`));
    const joined = new Float64Array(all.reduce((n, part) => n + (part?.length ?? 0), 0));
    let at = 0;
    for (const part of all) {
      if (!part) continue;
      joined.set(part, at);
      at += part.length;
    }
    return spreadOf(joined.sort());
  };

  const rows = INSIGHT_WHO.map((who): InsightsRow => {
    const total = (verified: boolean, field: 'n' | 'flagged') =>
      counts
        .filter((c) => (who === 'everyone' || c.who === who) && (c.kind === 'verified') === verified)
        .reduce((sum, c) => sum + Number(c[field]), 0);
    const fixes = total(false, 'n');
    const sentBack = total(false, 'flagged');
    const verified = total(true, 'n');
    const firstTimeRight = total(true, 'flagged');
    return {
      who,
      toFix: waits('applied', who),
      toLive: waits('live', who),
      toVerified: waits('verified', who),
      fixes,
      sentBack,
      reopenRate: fixes ? sentBack / fixes : null,
      verified,
      firstTimeRight,
      firstTimeRightRate: verified ? firstTimeRight / verified : null,
    };
  });

  return {
    from,
    to,
    days: scope.days,
    project: scope.projectKey,
    backlog: openByDay,
    rows,
    ...stuckOnes,
  };
}

/**
 * Open comments at the end of each day of the period: today's count, walked back through each
 * day's arrivals (written, rejected, reopened) and departures (applied, archived while open).
 * Anchored on now, so it agrees with the comment list whatever a timeline derived from older
 * releases lacks.
 */
async function backlog(
  database: Database,
  actor: Actor,
  scope: InsightsScope,
  inScope: RawBuilder<unknown>,
): Promise<Insights['backlog']> {
  const { db } = database;
  let openNow = db
    .selectFrom('comments')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', actor.workspaceId)
    .where('status', '=', 'open');
  if (scope.projectId) openNow = openNow.where('project_id', '=', scope.projectId);

  // Each day's moves, counted in the index (by kind and whose fix, then time) one day at a time.
  const bounds: DayBounds[] = [];
  for (let i = scope.days; i >= 0; i--) {
    const day = dayOf(scope.now - i * DAY_MS);
    bounds.push({ day, starts: `${day}T00:00:00.000Z`, ends: `${dayOf(scope.now - (i - 1) * DAY_MS)}T00:00:00.000Z` });
  }
  const moves = (kind: string, also = sql`e.fix_via is null`) =>
    sql`(select count(*) from comment_events e where ${inScope} and e.kind = ${sql.lit(kind)} and ${also}
          and e.created_at >= d.starts and e.created_at < d.ends)`;
  const moved = sql<{ day: string; created: number; sent_back: number; fixed: number; archived: number }>`
    select d.day, ${moves('created')} as created, ${moves('not_fixed')} + ${moves('reopened')} as sent_back,
      ${moves('applied', sql`e.fix_via in (${list(FIX_VIAS)})`)} as fixed,
      ${moves('archived', sql`e.fix_via is null and e.was_open = 1`)} as archived
    from ${database.daysTable(bounds)} d
    order by d.day`.execute(db);
  const [openRow, { rows }] = await Promise.all([openNow.executeTakeFirstOrThrow(), moved]);
  const open = Number(openRow.n);

  // Walk back from today: the count at the end of a day is the next day's end minus that next day's moves.
  const days: Insights['backlog']['days'] = [];
  let level = open;
  for (const row of rows.reverse()) {
    days.push({ day: row.day, open: Math.max(0, level), created: Number(row.created), fixed: Number(row.fixed) });
    level -= Number(row.created) + Number(row.sent_back) - Number(row.fixed) - Number(row.archived);
  }
  return { open, days: days.reverse() };
}

/** What is stuck: the open comments written longest ago, and those Live that nobody has verified. */
async function stuck(database: Database, actor: Actor, scope: InsightsScope) {
  const comments = () =>
    database.db
      .selectFrom('comments as c')
      .where('c.workspace_id', '=', actor.workspaceId)
      .$if(scope.projectId !== null, (select) => select.where('c.project_id', '=', scope.projectId as string));
  // The status as a literal: SQLite uses a partial index only when the query names its condition, not a parameter.
  const liveUnverified = () =>
    comments()
      .where('c.status', '=', sql.lit('applied'))
      .where('c.deployed_at', 'is not', null)
      .where('c.verified_at', 'is', null);
  const [oldestOpen, oldestLive, count] = await Promise.all([
    comments()
      .innerJoin('projects as p', 'p.id', 'c.project_id')
      .select(['c.id', 'p.key', 'c.body', 'c.created_at as since'])
      .where('c.status', '=', 'open')
      .orderBy('c.id')
      .limit(5)
      .execute(),
    liveUnverified()
      .innerJoin('projects as p', 'p.id', 'c.project_id')
      .select(['c.id', 'p.key', 'c.body', 'c.deployed_at as since'])
      .orderBy('c.deployed_at')
      .limit(5)
      .execute(),
    liveUnverified()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  const present = (row: { id: string; key: string; body: string; since: string | null }) => ({
    id: row.id,
    projectKey: row.key,
    excerpt: excerpt(row.body),
    since: row.since ?? '',
  });
  return {
    oldestWaiting: oldestOpen.map(present),
    liveUnverified: { count: Number(count.n), oldest: oldestLive.map(present) },
  };
}
