// The figures of a period: the tiles in short, the backlog chart, each step's waits, whose
// fixes hold, who is on what, and what waits longest.
import type { Insights, InsightsRow, InsightWho } from '@svc/contract';
import { durationText } from '@svc/contract/vocabulary';
import { assigneeName } from '../../comment-pills.js';
import { intlLocale, type MessageId, t, tx } from '../../i18n.js';
import { Link } from '../../router.js';
import { Time } from '../../ui.js';
import { BacklogChart } from './backlog-chart.js';

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

const percent = (rate: number | null) =>
  rate === null ? '—' : new Intl.NumberFormat(intlLocale(), { style: 'percent' }).format(rate);
const wait = (ms: number | null) => (ms === null ? '—' : durationText(ms, t, intlLocale()));
const number = (n: number) => n.toLocaleString(intlLocale());

/** What the period's numbers say; a quiet period (nothing written, open or fixed) says so in a line. */
export function Figures({ insights }: { insights: Insights }) {
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
