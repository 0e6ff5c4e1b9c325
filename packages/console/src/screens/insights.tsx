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
import { intlLocale, type MessageId, t, tx } from '../i18n.js';
import { currentQuery, Link, navigate } from '../router.js';
import { assigneeName, FilterSelect, Loading, PageTitle, Time, useLoad } from '../ui.js';

type Insights = AnswerOf<'GET /api/workspace/insights'>;
type Waiting = Insights['oldestWaiting'][number];

const WHO_WORDS: Record<InsightWho, MessageId> = {
  everyone: 'insights.everyone',
  person: 'insights.people',
  api_key: 'insights.apiKeys',
  mcp: 'insights.agents',
};

const WAITS = [
  ['toFix', 'insights.toFix', 'insights.toFixTile'],
  ['toLive', 'insights.toLive', 'insights.toLiveTile'],
  ['toVerified', 'insights.toVerified', 'insights.toVerifiedTile'],
] as const satisfies readonly (readonly [string, MessageId, MessageId])[];

/** The periods offered, in days back from now (the API takes any from 1 to 366). */
const PERIODS = [7, 30, 90, 365] as const;
const DEFAULT_DAYS = '30';

function filtersUrl(filters: Record<string, string>): string {
  const query = new URLSearchParams(
    Object.entries(filters).filter(([name, value]) => value && !(name === 'days' && value === DEFAULT_DAYS)),
  );
  return query.size ? `/insights?${query}` : '/insights';
}

const percent = (rate: number | null) =>
  rate === null ? '—' : new Intl.NumberFormat(intlLocale(), { style: 'percent' }).format(rate);
const wait = (ms: number | null) => (ms === null ? '—' : durationText(ms, t, intlLocale()));
const number = (n: number) => n.toLocaleString(intlLocale());
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
      <PageTitle>{t('nav.insights')}</PageTitle>
      <p class="muted">{t('insights.lead')}</p>
      <form class="filters" aria-label={t('insights.filter')} onSubmit={(event) => event.preventDefault()}>
        <FilterSelect
          id="i-project"
          label={t('comments.project')}
          value={filters.project}
          options={[
            ['', t('comments.allProjects')],
            ...(projects.data?.items ?? []).map((p) => [p.key, p.name] as const),
          ]}
          onValue={(value) => setFilter('project', value)}
        />
        <FilterSelect
          id="i-days"
          label={t('insights.period')}
          value={filters.days}
          options={PERIODS.map((days) => [String(days), t('insights.lastDays', { days })] as const)}
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
  if (quiet) return <p class="empty">{t('insights.quiet')}</p>;
  return (
    <>
      <ul class="tiles" aria-label={t('insights.inShort')}>
        <li>{tx('insights.openNow', { count: <strong>{number(insights.backlog.open)}</strong> })}</li>
        <li class={insights.overdue ? 'overdue' : undefined}>
          {tx('insights.overdueNow', {
            count: (
              <Link
                href={`/comments?due=overdue${insights.project ? `&project=${encodeURIComponent(insights.project)}` : ''}`}
              >
                <strong>{number(insights.overdue)}</strong>
              </Link>
            ),
          })}
        </li>
        {WAITS.map(([key, , tile]) => (
          <li key={key}>{tx(tile, { wait: <strong>{wait(everyone[key].median)}</strong> })}</li>
        ))}
        <li>{tx('insights.rightFirstTime', { rate: <strong>{percent(everyone.firstTimeRightRate)}</strong> })}</li>
        <li>{tx('insights.sentBackTile', { rate: <strong>{percent(everyone.reopenRate)}</strong> })}</li>
      </ul>

      <section class="card" aria-labelledby="i-backlog">
        <h2 id="i-backlog">{t('insights.backlog')}</h2>
        <BacklogChart days={insights.backlog.days} />
      </section>

      <section class="card" aria-labelledby="i-waits">
        <h2 id="i-waits">{t('insights.waits')}</h2>
        <p class="muted">{t('insights.waitsHint')}</p>
        {WAITS.map(([key, label]) => (
          <WaitBars key={key} label={t(label)} rows={[everyone, ...ways]} pick={(row) => row[key]} />
        ))}
      </section>

      <section class="card" aria-labelledby="i-hold">
        <h2 id="i-hold">{t('insights.hold')}</h2>
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{t('insights.fixedBy')}</th>
                <th scope="col">{t('insights.fixes')}</th>
                <th scope="col">{t('insights.sentBack')}</th>
                <th scope="col" class="hide-phone">
                  {t('state.verified')}
                </th>
                <th scope="col">{t('insights.firstTime')}</th>
              </tr>
            </thead>
            <tbody>
              {[everyone, ...ways].map((row) => (
                <tr key={row.who} data-who={row.who}>
                  <th scope="row">{t(WHO_WORDS[row.who])}</th>
                  <td>{number(row.fixes)}</td>
                  <td>
                    <Meter rate={row.reopenRate} label={t('insights.sentBackCount', { count: row.sentBack })} bad />
                  </td>
                  <td class="hide-phone">{number(row.verified)}</td>
                  <td>
                    <Meter
                      rate={row.firstTimeRightRate}
                      label={t('insights.rightCount', { count: row.firstTimeRight })}
                    />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </section>

      <section class="card" aria-labelledby="i-on-it">
        <h2 id="i-on-it">{t('insights.onIt')}</h2>
        {insights.assignees.length === 0 ? (
          <p class="muted">{t('insights.noneOpen')}</p>
        ) : (
          <div class="table-wrap">
            <table>
              <thead>
                <tr>
                  <th scope="col">{t('comments.assignee')}</th>
                  <th scope="col">{t('insights.open')}</th>
                  <th scope="col">{t('insights.heldSince')}</th>
                </tr>
              </thead>
              <tbody>
                {insights.assignees.map((row) => (
                  <tr key={row.assignee?.id ?? 'nobody'}>
                    <th scope="row">{row.assignee ? assigneeName(row.assignee) : t('insights.nobodyOnIt')}</th>
                    <td>{number(row.open)}</td>
                    <td>{row.waitingSince ? <Time iso={row.waitingSince} /> : '—'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      <div class="columns">
        <section class="card" aria-labelledby="i-oldest">
          <h2 id="i-oldest">{t('insights.oldest')}</h2>
          <WaitingList items={insights.oldestWaiting} since="insights.writtenSince" empty={t('insights.noneWaiting')} />
        </section>
        <section class="card" aria-labelledby="i-live">
          <h2 id="i-live">
            {t('insights.liveUnverified')} <span class="muted">({number(insights.liveUnverified.count)})</span>
          </h2>
          <WaitingList
            items={insights.liveUnverified.oldest}
            since="insights.liveSince"
            empty={t('insights.allVerified')}
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
      {measured.length === 0 ? <p class="muted">{t('insights.noneInPeriod')}</p> : null}
      <dl>
        {measured.map((row) => {
          const spread = pick(row);
          return (
            <div key={row.who} class="wait-row" data-who={row.who}>
              <dt>{t(WHO_WORDS[row.who])}</dt>
              <dd class="wait-figures">
                <span class="wait-bar" aria-hidden="true">
                  <span class="p90" style={{ width: share(spread.p90) }} />
                  <span class="median" style={{ width: share(spread.median) }} />
                </span>
                <span>
                  <strong>{wait(spread.median)}</strong>{' '}
                  <span class="muted">· {t('insights.p90', { wait: wait(spread.p90), count: spread.count })}</span>
                </span>
              </dd>
            </div>
          );
        })}
      </dl>
    </div>
  );
}

function WaitingList({ items, since, empty }: { items: Waiting[]; since: MessageId; empty: string }) {
  if (items.length === 0) return <p class="muted">{empty}</p>;
  return (
    <ol class="waiting">
      {items.map((item) => (
        <li key={item.id}>
          <Link href={`/comments/${item.id}`}>{item.excerpt}</Link>
          <div class="muted">
            {item.projectKey} · {tx(since, { when: <Time iso={item.since} /> })}
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
      ? t('insights.summary', {
          first: first.open,
          firstDay: first.day,
          last: last.open,
          lastDay: last.day,
          peak: peak.open,
          peakDay: peak.day,
        })
      : t('insights.noDays');
  useEffect(() => {
    const element = holder.current;
    if (!element) return;
    const say = (index: number | null | undefined) => {
      const day = days[index ?? days.length - 1];
      if (readout.current && day)
        readout.current.textContent = t('insights.readout', {
          day: day.day,
          open: day.open,
          written: day.created,
          fixed: day.fixed,
        });
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
          series(t('insights.open'), accent, { fill: `${accent}2e` }),
          series(t('insights.written'), cssVar('--pf-notify'), { width: 1.5, dash: [4, 4] }),
          series(t('insights.fixed'), cssVar('--pf-ok'), { width: 1.5 }),
        ],
        axes: [
          {
            ...axis,
            values: (_chart, splits) =>
              splits.map((at) =>
                new Date(at * 1000).toLocaleDateString(intlLocale(), {
                  month: 'short',
                  day: 'numeric',
                  timeZone: 'UTC',
                }),
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
        <li class="open">{t('insights.open')}</li>
        <li class="written">{t('insights.written')}</li>
        <li class="fixed">{t('insights.fixed')}</li>
      </ul>
      <div class="chart" ref={holder} role="img" aria-label={summary} />
      <p class="muted readout" ref={readout} aria-hidden="true" />
      <details>
        <summary>{t('insights.numbers')}</summary>
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{t('insights.day')}</th>
                <th scope="col">{t('insights.openAtEnd')}</th>
                <th scope="col">{t('insights.written')}</th>
                <th scope="col">{t('insights.fixed')}</th>
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
