// The team's loop in numbers: how many comments wait for a fix day by day, how long each step
// takes (written → fixed → Live → verified) and whose fixes hold (people, API keys, agents),
// and what is stuck. Loaded on its own when opened: its chart library is not in the console's
// initial JavaScript. The filters live in the address.
import type { InsightsRow, InsightWho } from '@svc/contract';
import type { AnswerOf } from '@svc/contract/endpoints';
import { durationText } from '@svc/contract/vocabulary';
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { api } from '../api.js';
import { currentQuery, Link, navigate } from '../router.js';
import { FilterSelect, Loading, PageTitle, Time, useLoad } from '../ui.js';

type Insights = AnswerOf<'GET /api/workspace/insights'>;
type Waiting = Insights['oldestWaiting'][number];

const WHO_WORDS: Record<InsightWho, string> = {
  everyone: 'Everyone',
  person: 'People',
  api_key: 'API keys',
  mcp: 'Agents (MCP)',
};

const WAITS = [
  ['toFix', 'Written → first fix'],
  ['toLive', 'Fix → Live'],
  ['toVerified', 'Live → verified'],
] as const;

/** The periods offered, in days back from now (the API takes any from 1 to 366). */
const PERIODS = [7, 30, 90, 365] as const;
const DEFAULT_DAYS = '30';

function filtersUrl(filters: Record<string, string>): string {
  const query = new URLSearchParams(
    Object.entries(filters).filter(([name, value]) => value && !(name === 'days' && value === DEFAULT_DAYS)),
  );
  return query.size ? `/insights?${query}` : '/insights';
}

const percent = (rate: number | null) => (rate === null ? '—' : `${Math.round(rate * 100)} %`);
const wait = (ms: number | null) => (ms === null ? '—' : durationText(ms));
const plural = (n: number, one: string, many: string) => `${n.toLocaleString()} ${n === 1 ? one : many}`;
/** A colour of the stylesheet (6-digit hex), for the chart's canvas. */
const cssVar = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

export function Insights() {
  const params = currentQuery();
  const filters = { project: params.get('project') ?? '', days: params.get('days') ?? DEFAULT_DAYS };
  const setFilter = (name: keyof typeof filters, value: string) =>
    navigate(filtersUrl({ ...filters, [name]: value }), true);
  const projects = useLoad(() => api.call('GET /api/projects', {}), []);
  const insights = useLoad(
    () =>
      api.call('GET /api/workspace/insights', {
        query: { project: filters.project || undefined, days: Number(filters.days) },
      }),
    [filters.project, filters.days],
  );
  const data = insights.data;
  return (
    <>
      <PageTitle>Insights</PageTitle>
      <p class="muted">
        How long feedback waits at each step, whose fixes hold, and what is stuck. Days are UTC days; waits are medians,
        with the time 90 % of them took.
      </p>
      <form class="filters" aria-label="Choose what insights cover" onSubmit={(event) => event.preventDefault()}>
        <FilterSelect
          id="i-project"
          label="Project"
          value={filters.project}
          options={[['', 'All projects'], ...(projects.data?.items ?? []).map((p) => [p.key, p.name] as const)]}
          onValue={(value) => setFilter('project', value)}
        />
        <FilterSelect
          id="i-days"
          label="Period"
          value={filters.days}
          options={PERIODS.map((days) => [String(days), `Last ${days} days`] as const)}
          onValue={(value) => setFilter('days', value)}
        />
      </form>
      {data ? <Figures insights={data} /> : <Loading error={insights.error} />}
    </>
  );
}

function Figures({ insights }: { insights: Insights }) {
  const everyone = insights.rows[0] as InsightsRow;
  const ways = insights.rows.slice(1).filter((row) => row.fixes > 0 || row.verified > 0 || row.toLive.count > 0);
  const quiet =
    insights.backlog.open === 0 && insights.backlog.days.every((day) => day.created === 0) && everyone.fixes === 0;
  if (quiet)
    return (
      <p class="empty">
        Nothing happened in this period. Figures appear here once comments are written, fixed and verified.
      </p>
    );
  return (
    <>
      <ul class="tiles" aria-label="In short">
        <li>
          <strong>{insights.backlog.open.toLocaleString()}</strong> open now
        </li>
        {WAITS.map(([key, label]) => (
          <li key={key}>
            <strong>{wait(everyone[key].median)}</strong> {label.toLowerCase()}
          </li>
        ))}
        <li>
          <strong>{percent(everyone.firstTimeRightRate)}</strong> right the first time
        </li>
        <li>
          <strong>{percent(everyone.reopenRate)}</strong> of fixes sent back
        </li>
      </ul>

      <section class="card" aria-labelledby="i-backlog">
        <h2 id="i-backlog">Waiting for a fix, day by day</h2>
        <BacklogChart days={insights.backlog.days} />
      </section>

      <section class="card" aria-labelledby="i-waits">
        <h2 id="i-waits">How long each step takes</h2>
        <p class="muted">The bar is the median; the thin line reaches the time 90 % took.</p>
        {WAITS.map(([key, label]) => (
          <WaitBars key={key} label={label} rows={[everyone, ...ways]} pick={(row) => row[key]} />
        ))}
      </section>

      <section class="card" aria-labelledby="i-hold">
        <h2 id="i-hold">Whose fixes hold</h2>
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Fixed by</th>
                <th scope="col">Fixes</th>
                <th scope="col">Sent back</th>
                <th scope="col" class="hide-phone">
                  Verified
                </th>
                <th scope="col">Right the first time</th>
              </tr>
            </thead>
            <tbody>
              {[everyone, ...ways].map((row) => (
                <tr key={row.who} data-who={row.who}>
                  <th scope="row">{WHO_WORDS[row.who]}</th>
                  <td>{row.fixes.toLocaleString()}</td>
                  <td>
                    <Meter rate={row.reopenRate} label={`${row.sentBack.toLocaleString()} sent back`} bad />
                  </td>
                  <td class="hide-phone">{row.verified.toLocaleString()}</td>
                  <td>
                    <Meter rate={row.firstTimeRightRate} label={`${row.firstTimeRight.toLocaleString()} right`} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <div class="columns">
        <section class="card" aria-labelledby="i-oldest">
          <h2 id="i-oldest">Waiting longest for a fix</h2>
          <WaitingList items={insights.oldestWaiting} since="written" empty="Nothing is waiting for a fix." />
        </section>
        <section class="card" aria-labelledby="i-live">
          <h2 id="i-live">
            Live, not verified <span class="muted">({insights.liveUnverified.count.toLocaleString()})</span>
          </h2>
          <WaitingList
            items={insights.liveUnverified.oldest}
            since="Live"
            empty="Every comment that went Live has been verified."
          />
        </section>
      </div>
    </>
  );
}

/** A rate as a bar and a number, with what it counts. */
function Meter({ rate, label, bad = false }: { rate: number | null; label: string; bad?: boolean }) {
  return (
    <span class="meter">
      <span class="meter-bar" aria-hidden="true">
        <span class={bad ? 'bad' : undefined} style={{ width: `${Math.round((rate ?? 0) * 100)}%` }} />
      </span>
      <strong>{percent(rate)}</strong> <span class="muted hide-phone">{label}</span>
    </span>
  );
}

/** One step's waits per way of fixing: the median as a bar, the 90th percentile as a whisker. */
function WaitBars({
  label,
  rows,
  pick,
}: {
  label: string;
  rows: InsightsRow[];
  pick: (row: InsightsRow) => { count: number; median: number | null; p90: number | null };
}) {
  const measured = rows.filter((row) => pick(row).count > 0);
  const longest = Math.max(1, ...measured.map((row) => pick(row).p90 ?? 0));
  const share = (ms: number | null) => `${Math.max(1, Math.round(((ms ?? 0) / longest) * 100))}%`;
  return (
    <div class="waits">
      <h3>{label}</h3>
      {measured.length === 0 ? <p class="muted">None in this period.</p> : null}
      <dl>
        {measured.map((row) => {
          const spread = pick(row);
          return (
            <div key={row.who} class="wait-row" data-who={row.who}>
              <dt>{WHO_WORDS[row.who]}</dt>
              <dd class="wait-figures">
                <span class="wait-bar" aria-hidden="true">
                  <span class="p90" style={{ width: share(spread.p90) }} />
                  <span class="median" style={{ width: share(spread.median) }} />
                </span>
                <span>
                  <strong>{wait(spread.median)}</strong>{' '}
                  <span class="muted">
                    · 90 % within {wait(spread.p90)} · {plural(spread.count, 'comment', 'comments')}
                  </span>
                </span>
              </dd>
            </div>
          );
        })}
      </dl>
    </div>
  );
}

function WaitingList({ items, since, empty }: { items: Waiting[]; since: string; empty: string }) {
  if (items.length === 0) return <p class="muted">{empty}</p>;
  return (
    <ol class="waiting">
      {items.map((item) => (
        <li key={item.id}>
          <Link href={`/comments/${item.id}`}>{item.excerpt}</Link>
          <div class="muted">
            {item.projectKey} · {since} <Time iso={item.since} />
          </div>
        </li>
      ))}
    </ol>
  );
}

/** Open comments at the end of each day, with those written and fixed that day; the numbers also as a table. */
function BacklogChart({ days }: { days: Insights['backlog']['days'] }) {
  const holder = useRef<HTMLDivElement>(null);
  const readout = useRef<HTMLParagraphElement>(null);
  const first = days[0];
  const last = days.at(-1);
  const peak = days.reduce((top, day) => (day.open > top.open ? day : top), first ?? { day: '', open: 0 });
  const summary =
    first && last
      ? `Open comments: ${first.open} on ${first.day}, ${last.open} on ${last.day}; at most ${peak.open}, on ${peak.day}.`
      : 'No days.';
  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    const say = (index: number | null | undefined) => {
      const day = days[index ?? days.length - 1];
      if (readout.current && day)
        readout.current.textContent = `${day.day}: ${day.open} open · ${day.created} written · ${day.fixed} fixed`;
    };
    const series = (label: string, color: string, more: Partial<uPlot.Series> = {}): uPlot.Series => ({
      label,
      stroke: color,
      width: 2,
      points: { show: false },
      ...more,
    });
    const axis = {
      stroke: cssVar('--pf-muted'),
      grid: { stroke: cssVar('--pf-line'), width: 1 },
      ticks: { show: false },
    };
    const accent = cssVar('--pf-accent');
    const chart = new uPlot(
      {
        width: element.clientWidth,
        height: 220,
        legend: { show: false },
        scales: { x: { time: true }, y: { range: (_u, _min, max) => [0, Math.max(4, Math.ceil(max * 1.1))] } },
        series: [
          {},
          series('Open', accent, { fill: `${accent}2e` }),
          series('Written', cssVar('--pf-notify'), { width: 1.5, dash: [4, 4] }),
          series('Fixed', cssVar('--pf-ok'), { width: 1.5 }),
        ],
        axes: [
          {
            ...axis,
            values: (_chart, splits) =>
              splits.map((at) =>
                new Date(at * 1000).toLocaleDateString(undefined, { month: 'short', day: 'numeric', timeZone: 'UTC' }),
              ),
          },
          { ...axis, size: 44 },
        ],
        hooks: { setCursor: [(chart) => say(chart.cursor.idx)] },
      },
      [
        days.map((day) => Date.parse(`${day.day}T12:00:00Z`) / 1000),
        days.map((day) => day.open),
        days.map((day) => day.created),
        days.map((day) => day.fixed),
      ],
      element,
    );
    say(null);
    const resize = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height: 220 }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [days]);
  return (
    <>
      <ul class="legend" aria-hidden="true">
        <li class="open">Open</li>
        <li class="written">Written</li>
        <li class="fixed">Fixed</li>
      </ul>
      <div class="chart" ref={holder} role="img" aria-label={summary} />
      <p class="muted readout" ref={readout} aria-hidden="true" />
      <details>
        <summary>The numbers, day by day</summary>
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Day</th>
                <th scope="col">Open at its end</th>
                <th scope="col">Written</th>
                <th scope="col">Fixed</th>
              </tr>
            </thead>
            <tbody>
              {[...days].reverse().map((day) => (
                <tr key={day.day}>
                  <th scope="row">{day.day}</th>
                  <td>{day.open}</td>
                  <td>{day.created}</td>
                  <td>{day.fixed}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </>
  );
}
