// The team's loop in numbers: how many comments wait for a fix day by day, how long each step
// takes (written → fixed → Live → verified) and whose fixes hold (people, API keys, agents),
// and what is stuck. Loaded on its own when opened: its chart library is not in the console's
// initial JavaScript (this file keeps the name `insights` so that its chunk is still called so).
// The filters live in the address.
import { api } from '../../api.js';
import { t } from '../../i18n.js';
import { Loading, useLoad } from '../../loading.js';
import { currentQuery, navigate } from '../../router.js';
import { FilterSelect, PageTitle } from '../../ui.js';
import { Figures } from './figures.js';

/** The periods offered, in days back from now (the API takes any from 1 to 366). */
const PERIODS = [7, 30, 90, 365] as const;
const DEFAULT_DAYS = '30';

function filtersUrl(filters: Record<string, string>): string {
  const query = new URLSearchParams(
    Object.entries(filters).filter(([name, value]) => value && !(name === 'days' && value === DEFAULT_DAYS)),
  );
  return query.size ? `/insights?${query}` : '/insights';
}

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
