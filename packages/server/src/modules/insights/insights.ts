import type { Insights, InsightsRow, InsightWho } from '@svc/contract';
import { INSIGHT_WHO } from '@svc/contract';
import { sql } from 'kysely';
import type { Actor } from '../../actor.js';
import type { Database } from '../../db/dialect/types.js';
import { authorize } from '../../policy.js';
import { excerpt } from '../comments/excerpt.js';
import { addTo, bucketOf, type Histogram, spreadOf } from './waits.js';

// The team's loop in numbers: how long feedback waits for a fix, for its deploy and for its
// author's verdict; how often fixes are sent back; what is stuck. Each timeline event carries
// its measures (`comments/measures.ts`), and triggers roll them up per day and month (migration
// 0018, folded by `db/rollups.ts`), so a period's figures are sums over a few thousand rows
// whatever its length: its first, partial day read from the events themselves (the period
// starts `days` before now, not at midnight), every whole day after it from the roll-ups
// (whole months by their month's rows), with the deltas not folded yet.

const DAY_MS = 24 * 60 * 60 * 1000;

/** Whose fix an event counts for: each way a fix is made, and fixes of timelines that did not record it. */
const FIX_VIAS = ['person', 'api_key', 'mcp', 'unknown'] as const;
/** The kinds whose counts and waits the rows read. */
const FIGURE_KINDS = ['applied', 'reapplied', 'live', 'verified'] as const;
/** The kinds the backlog walks back through. */
const BACKLOG_KINDS = ['created', 'not_fixed', 'reopened', 'applied', 'archived'] as const;

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const nextDay = (day: string) => dayOf(Date.parse(`${day}T00:00:00.000Z`) + DAY_MS);

export interface InsightsScope {
  projectId: string | null;
  projectKey: string | null;
  days: number;
  now: number;
}

/** What a period holds of one kind and whose fix: how many events, how many flagged, their waits. */
interface Tally {
  n: number;
  flagged: number;
  waits: Histogram;
}

/**
 * The periods that make up the whole days `first` to `last` (inclusive): each month they cover
 * whole as its month ('YYYY-MM'), every other day as itself.
 */
export function periodsOf(first: string, last: string): string[] {
  const periods: string[] = [];
  let day = first;
  while (day <= last) {
    const month = day.slice(0, 7);
    const monthEnd = dayOf(Date.parse(`${month}-01T00:00:00.000Z`) + 32 * DAY_MS).slice(0, 7);
    const lastOfMonth = dayOf(Date.parse(`${monthEnd}-01T00:00:00.000Z`) - DAY_MS);
    if (day.endsWith('-01') && lastOfMonth <= last) {
      periods.push(month);
      day = nextDay(lastOfMonth);
    } else {
      periods.push(day);
      day = nextDay(day);
    }
  }
  return periods;
}

export async function readInsights(database: Database, actor: Actor, scope: InsightsScope): Promise<Insights> {
  authorize(actor, 'workspace.readInsights');
  const db = database.reads;
  const fromMs = scope.now - scope.days * DAY_MS;
  const from = new Date(fromMs).toISOString();
  const to = new Date(scope.now).toISOString();
  const firstDay = dayOf(fromMs);
  const today = dayOf(scope.now);
  const project = scope.projectId ?? '';

  const tallies = new Map<string, Tally>();
  const tally = (kind: string, who: string) => {
    const key = `${kind} ${who}`;
    let found = tallies.get(key);
    if (!found) {
      found = { n: 0, flagged: 0, waits: new Map() };
      tallies.set(key, found);
    }
    return found;
  };
  const wait = (row: { wait_sum: number; wait_min: number | null; wait_max: number | null; n: number }) => ({
    n: Number(row.n),
    sum: Number(row.wait_sum),
    min: row.wait_min === null ? null : Number(row.wait_min),
    max: row.wait_max === null ? null : Number(row.wait_max),
  });

  // The first day, from its start in the period to its end, read from the events: a day's worth.
  const inScope = scope.projectId
    ? sql`e.workspace_id = ${actor.workspaceId} and e.project_id = ${scope.projectId}`
    : sql`e.workspace_id = ${actor.workspaceId}`;
  const firstDayEvents = sql<{ kind: string; who: string; n: number; flagged: number; waits: unknown }>`
    select e.kind, e.fix_via as who, count(*) as n,
      sum(case when e.kind = 'verified' then e.first_time_right else e.sent_back end) as flagged,
      ${database.jsonArrayOf(sql.ref('e.span_ms'), sql`e.span_ms is not null`)} as waits
    from comment_events e
    where ${inScope} and e.kind in (${list(FIGURE_KINDS)}) and e.fix_via in (${list(FIX_VIAS)})
      and e.created_at >= ${from} and e.created_at < ${`${nextDay(firstDay)}T00:00:00.000Z`}
    group by e.kind, e.fix_via`.execute(db);
  // The whole days after it: compacted rows of each period (totals, and waits by bucket; their
  // period read as ''), and deltas not folded yet. In one statement, so that both are read as
  // of one moment: a fold committed between two reads would be read by neither (or by both).
  // `compacted` as a literal: SQLite uses a partial index only when the query names its
  // condition, not a parameter.
  const afterFirst = nextDay(firstDay);
  const periods = afterFirst <= today ? periodsOf(afterFirst, today) : [];
  const deltas = db
    .selectFrom('insight_rollups')
    .select(['period', 'kind', 'who', 'bucket', 'n', 'flagged', 'wait_sum', 'wait_min', 'wait_max'])
    .where('workspace_id', '=', actor.workspaceId)
    .$if(scope.projectId !== null, (query) => query.where('project_id', '=', project))
    .where('compacted', '=', sql.lit(0))
    .where('period', '>=', firstDay)
    .where('period', '<=', today);
  const rollups = periods.length
    ? db
        .selectFrom('insight_rollups')
        .select([sql<string>`''`.as('period'), 'kind', 'who', 'bucket'])
        .select((eb) => [
          eb.fn.sum<number>('n').as('n'),
          eb.fn.sum<number>('flagged').as('flagged'),
          eb.fn.sum<number>('wait_sum').as('wait_sum'),
          eb.fn.min<number | null>('wait_min').as('wait_min'),
          eb.fn.max<number | null>('wait_max').as('wait_max'),
        ])
        .where('workspace_id', '=', actor.workspaceId)
        .where('project_id', '=', project)
        .where('compacted', '=', sql.lit(1))
        .where('period', 'in', periods)
        .where('kind', 'in', FIGURE_KINDS)
        .where('who', 'in', FIX_VIAS)
        .groupBy(['kind', 'who', 'bucket'])
        .unionAll(deltas)
        .execute()
    : deltas.execute();
  const [firstRows, rollupRows, openByDay, stuckOnes] = await Promise.all([
    firstDayEvents,
    rollups,
    backlog(database, actor, scope, firstDay, today),
    stuck(database, actor, scope),
  ]);
  for (const row of firstRows.rows) {
    const into = tally(row.kind, row.who);
    into.n += Number(row.n);
    into.flagged += Number(row.flagged);
    for (const ms of database.parseJsonArray(row.waits) as number[]) {
      addTo(into.waits, bucketOf(ms), { n: 1, sum: ms, min: ms, max: ms });
    }
  }
  const compactedRows = rollupRows.filter((row) => row.period === '');
  const deltaRows = rollupRows.filter((row) => row.period !== '');
  for (const row of compactedRows) {
    const into = tally(row.kind, row.who);
    if (row.bucket === -2) {
      into.n += Number(row.n);
      into.flagged += Number(row.flagged);
    } else if (row.bucket >= 0) addTo(into.waits, row.bucket, wait(row));
  }
  for (const row of deltaRows) {
    if (row.period < afterFirst || !(FIGURE_KINDS as readonly string[]).includes(row.kind) || row.who === '') continue;
    const into = tally(row.kind, row.who);
    into.n += Number(row.n);
    into.flagged += Number(row.flagged);
    if (row.bucket >= 0) addTo(into.waits, row.bucket, wait(row));
  }

  const of = (kind: string, who: InsightWho) =>
    [...tallies]
      .filter(([key]) => key.startsWith(`${kind} `) && (who === 'everyone' || key === `${kind} ${who}`))
      .map(([, found]) => found);
  const rows = INSIGHT_WHO.map((who): InsightsRow => {
    const total = (kinds: readonly string[], field: 'n' | 'flagged') =>
      kinds.flatMap((kind) => of(kind, who)).reduce((sum, found) => sum + found[field], 0);
    const fixes = total(['applied', 'reapplied'], 'n');
    const sentBack = total(['applied', 'reapplied'], 'flagged');
    const verified = total(['verified'], 'n');
    const firstTimeRight = total(['verified'], 'flagged');
    const waits = (kind: string) => spreadOf(of(kind, who).map((found) => found.waits));
    return {
      who,
      toFix: waits('applied'),
      toLive: waits('live'),
      toVerified: waits('verified'),
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

const list = (kinds: readonly string[]) =>
  sql.join(
    kinds.map((kind) => sql.lit(kind)),
    sql`, `,
  );

/**
 * Open comments at the end of each day of the period: today's count, walked back through each
 * day's arrivals (written, rejected, reopened) and departures (applied, archived while open),
 * read from the roll-ups' day totals. Anchored on now, so it agrees with the comment list
 * whatever a timeline derived from older releases lacks.
 */
async function backlog(
  database: Database,
  actor: Actor,
  scope: InsightsScope,
  firstDay: string,
  today: string,
): Promise<Insights['backlog']> {
  const db = database.reads;
  let openNow = db
    .selectFrom('comments')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', actor.workspaceId)
    .where('status', '=', 'open');
  if (scope.projectId) openNow = openNow.where('project_id', '=', scope.projectId);
  // Compacted day totals (bucket -2; a month's period is shorter than a day's), and the deltas
  // not folded yet (filed under their projects), summed alike; in one statement, read as of one
  // moment whatever fold commits meanwhile.
  const sums = () =>
    db
      .selectFrom('insight_rollups')
      .select(['period', 'kind', 'who'])
      .select((eb) => [eb.fn.sum<number>('n').as('n'), eb.fn.sum<number>('flagged').as('flagged')])
      .where('workspace_id', '=', actor.workspaceId)
      .where('period', '>=', firstDay)
      .where('period', '<=', today)
      .where('kind', 'in', BACKLOG_KINDS);
  const moved = sums()
    .where('project_id', '=', scope.projectId ?? '')
    .where('compacted', '=', sql.lit(1))
    .where('bucket', '=', -2)
    .where((eb) => eb.fn('length', ['period']), '=', 10)
    .groupBy(['period', 'kind', 'who']);
  const unfolded = sums()
    .where('compacted', '=', sql.lit(0))
    .$if(scope.projectId !== null, (query) => query.where('project_id', '=', scope.projectId as string))
    .groupBy(['period', 'kind', 'who']);
  const [openRow, rollups] = await Promise.all([openNow.executeTakeFirstOrThrow(), moved.unionAll(unfolded).execute()]);
  const open = Number(openRow.n);
  const byDay = new Map<string, { created: number; sentBack: number; fixed: number; archived: number }>();
  for (const row of rollups) {
    const day = byDay.get(row.period) ?? { created: 0, sentBack: 0, fixed: 0, archived: 0 };
    byDay.set(row.period, day);
    const n = Number(row.n);
    if (row.kind === 'applied') {
      if (row.who !== '') day.fixed += n;
    } else if (row.who !== '') continue;
    else if (row.kind === 'created') day.created += n;
    else if (row.kind === 'archived') day.archived += Number(row.flagged);
    else day.sentBack += n;
  }

  // Walk back from today: the count at the end of a day is the next day's end minus that next day's moves.
  const days: Insights['backlog']['days'] = [];
  let level = open;
  for (let day = today; day >= firstDay; day = dayOf(Date.parse(`${day}T00:00:00.000Z`) - DAY_MS)) {
    const moves = byDay.get(day) ?? { created: 0, sentBack: 0, fixed: 0, archived: 0 };
    days.push({ day, open: Math.max(0, level), created: moves.created, fixed: moves.fixed });
    level -= moves.created + moves.sentBack - moves.fixed - moves.archived;
  }
  return { open, days: days.reverse() };
}

/** What is stuck: the open comments written longest ago, and those Live that nobody has verified. */
async function stuck(database: Database, actor: Actor, scope: InsightsScope) {
  const comments = () =>
    database.reads
      .selectFrom('comments as c')
      .where('c.workspace_id', '=', actor.workspaceId)
      .$if(scope.projectId !== null, (select) => select.where('c.project_id', '=', scope.projectId as string));
  // The status as a literal: SQLite uses a partial index only when the query names its condition, not a parameter.
  const liveUnverified = () =>
    comments()
      .where('c.status', '=', sql.lit('applied'))
      .where('c.deployed_at', 'is not', null)
      .where('c.verified_at', 'is', null);
  const today = new Date(scope.now).toISOString().slice(0, 10);
  const [oldestOpen, oldestLive, count, overdue, byAssignee] = await Promise.all([
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
    // Overdue as the lists' filter says it: open, due before today (the server's day, UTC).
    comments()
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('c.status', '=', 'open')
      .where('c.due_on', '<', today)
      .executeTakeFirstOrThrow(),
    // Who is on the open comments (the open ones only: the status index), and since when.
    comments()
      .leftJoin('users as a', 'a.id', 'c.assignee_id')
      .select((eb) => [
        'c.assignee_id',
        'a.name',
        'a.kind',
        eb.fn.countAll<number>().as('n'),
        eb.fn.min('c.assigned_at').as('since'),
      ])
      .where('c.status', '=', 'open')
      .groupBy(['c.assignee_id', 'a.name', 'a.kind'])
      .execute(),
  ]);
  const present = (row: { id: string; key: string; body: string; since: string | null }) => ({
    id: row.id,
    projectKey: row.key,
    excerpt: excerpt(row.body),
    since: row.since ?? '',
  });
  return {
    assignees: byAssignee
      .map((row) => ({
        assignee:
          row.assignee_id && row.name ? { id: row.assignee_id, name: row.name, agent: row.kind === 'agent' } : null,
        open: Number(row.n),
        waitingSince: row.assignee_id && row.since ? new Date(row.since).toISOString() : null,
      }))
      // Most first; at a tie, people and agents before nobody, then by name.
      .sort(
        (a, b) =>
          b.open - a.open ||
          Number(a.assignee === null) - Number(b.assignee === null) ||
          (a.assignee?.name ?? '').localeCompare(b.assignee?.name ?? ''),
      ),
    oldestWaiting: oldestOpen.map(present),
    overdue: Number(overdue.n),
    liveUnverified: { count: Number(count.n), oldest: oldestLive.map(present) },
  };
}
