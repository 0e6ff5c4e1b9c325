// The backlog day by day as a chart (uPlot: the reason insights is a chunk of its own), with a
// readout of the day under the cursor and the same numbers as a table.
import type { Insights } from '@svc/contract';
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import { intlLocale, t } from '../../i18n.js';

/** A colour of the stylesheet (6-digit hex), for the chart's canvas. */
const cssVar = (name: string) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();

/** Open comments at the end of each day, with those written and fixed that day; the numbers also as a table. */
export function BacklogChart({ days }: { days: Insights['backlog']['days'] }) {
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
