import { type Static, Type } from 'typebox';
import { Assignee } from './comments.js';
import { Line, Nullable, Timestamp } from './common.js';

/** Whose fixes a row of insights counts: everyone's, or those made through one way. */
export const INSIGHT_WHO = ['everyone', 'person', 'api_key', 'mcp'] as const;
export type InsightWho = (typeof INSIGHT_WHO)[number];

export const InsightsQuery = Type.Object({
  project: Type.Optional(
    Line({ minLength: 1, maxLength: 40, description: 'One project (its key); else every project' }),
  ),
  days: Type.Optional(
    Type.Integer({ minimum: 1, maximum: 366, default: 30, description: 'The period: this many days back from now' }),
  ),
});
export type InsightsQuery = Static<typeof InsightsQuery>;

const Spread = Type.Object({
  count: Type.Integer({ description: 'How many waits were measured' }),
  median: Nullable(Type.Number({ description: 'Milliseconds; null when none was measured' })),
  p90: Nullable(Type.Number({ description: '90th percentile (nearest rank), milliseconds' })),
});

export const InsightsRow = Type.Object({
  who: Type.Enum(INSIGHT_WHO, {
    description:
      "everyone, or whose fix: person (signed in), api_key, mcp (an agent). Timelines derived from before fixes were attributed count only in everyone's",
  }),
  toFix: Type.Object(Spread.properties, {
    description: 'Created → first applied, for comments first applied in the period',
  }),
  toLive: Type.Object(Spread.properties, {
    description: 'Latest fix → Live, for comments that went Live in the period',
  }),
  toVerified: Type.Object(Spread.properties, {
    description: 'Live → verified, for comments verified in the period after going Live',
  }),
  fixes: Type.Integer({ description: 'Fixes applied in the period (applied and re-applied)' }),
  sentBack: Type.Integer({
    description: 'Of those, how many were then rejected (Not fixed) or reopened before another fix',
  }),
  reopenRate: Nullable(Type.Number({ description: 'sentBack / fixes; null without fixes' })),
  verified: Type.Integer({ description: 'Comments verified in the period' }),
  firstTimeRight: Type.Integer({ description: 'Of those, how many were never rejected or reopened before' }),
  firstTimeRightRate: Nullable(Type.Number({ description: 'firstTimeRight / verified; null without verdicts' })),
});
export type InsightsRow = Static<typeof InsightsRow>;

const Waiting = Type.Object({
  id: Type.String(),
  projectKey: Type.String(),
  excerpt: Type.String(),
  since: Timestamp,
});

export const Insights = Type.Object({
  from: Timestamp,
  to: Timestamp,
  days: Type.Integer(),
  project: Nullable(Type.String({ description: 'The project key, or null for every project' })),
  backlog: Type.Object({
    open: Type.Integer({ description: 'Comments open now (waiting for a fix)' }),
    days: Type.Array(
      Type.Object({
        day: Type.String({ description: 'YYYY-MM-DD, UTC' }),
        open: Type.Integer({ description: 'Open at the end of that day' }),
        created: Type.Integer(),
        fixed: Type.Integer({ description: 'Applied from open that day' }),
      }),
    ),
  }),
  rows: Type.Array(InsightsRow, { description: 'everyone first, then each way a fix was made' }),
  oldestWaiting: Type.Array(Type.Object(Waiting.properties, { description: 'since: when it was written' }), {
    description: 'The open comments that have waited longest, at most 5',
  }),
  assignees: Type.Array(
    Type.Object({
      assignee: Nullable(Assignee, { description: 'null: the open comments nobody is on' }),
      open: Type.Integer({ description: 'Open comments they are on now' }),
      waitingSince: Nullable(Timestamp, {
        description: 'When the one of them they have held longest was assigned to them (null for nobody)',
      }),
    }),
    { description: 'Who is on the open comments now, most first; how long claimed work waits' },
  ),
  overdue: Type.Integer({ description: 'Open comments whose due date is past (before today, UTC)' }),
  liveUnverified: Type.Object({
    count: Type.Integer({ description: 'Comments Live whose author has not verified them' }),
    oldest: Type.Array(Type.Object(Waiting.properties, { description: 'since: when it went Live' }), {
      description: 'The 5 Live longest',
    }),
  }),
});
export type Insights = Static<typeof Insights>;
