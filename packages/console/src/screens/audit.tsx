// The workspace's audit log (admins): who signed in or failed to, ended sessions, invited,
// changed roles, removed people, made or revoked client links and API keys, changed projects;
// newest first, filtered by action, person and period (the filters live in the address).
import { AUDIT_ACTIONS, type AuditAction } from '@svc/contract/audit-actions';
import type { AnswerOf } from '@svc/contract/endpoints';
import { useMemo } from 'preact/hooks';
import { api } from '../api.js';
import { type MessageId, t } from '../i18n.js';
import { Loading, useLoad, usePages } from '../loading.js';
import { currentQuery, navigate } from '../router.js';
import { FilterSelect, PageTitle, peopleOptions, TableHead, Time } from '../ui.js';

type Event = AnswerOf<'GET /api/workspace/audit'>['items'][number];

/** Each action in words: `audit.action.<action>`. */
const actionWords = (action: AuditAction) => t(`audit.action.${action}` as const satisfies MessageId);

const PERIODS = [
  ['', 'audit.anyTime'],
  ['1', 'audit.last24h'],
  ['7', 'audit.last7d'],
  ['30', 'audit.last30d'],
] as const satisfies readonly (readonly [string, MessageId])[];

const DAY_MS = 24 * 60 * 60 * 1000;

function filtersUrl(filters: Record<string, string>): string {
  const query = new URLSearchParams(Object.entries(filters).filter(([, value]) => value));
  return query.size ? `/audit?${query}` : '/audit';
}

/** What it acted on and what changed, in one line. */
function whatOf(event: Event): string {
  const target = event.target ? event.target.label : '';
  return [target, event.detail].filter(Boolean).join(' · ');
}

export function AuditLog() {
  const params = currentQuery();
  const filters = {
    action: params.get('action') ?? '',
    actor: params.get('actor') ?? '',
    days: params.get('days') ?? '',
    cursor: params.get('cursor') ?? '',
  };
  // Fixed while the period stays the same, so that paging keeps one window.
  const since = useMemo(
    () => (filters.days ? new Date(Date.now() - Number(filters.days) * DAY_MS).toISOString() : undefined),
    [filters.days],
  );
  const setFilter = (name: keyof typeof filters, value: string) =>
    navigate(filtersUrl({ ...filters, cursor: '', [name]: value }), true);
  const members = usePages((cursor) => api.call('GET /api/workspace/members', { query: { limit: 100, cursor } }), [], {
    every: true,
  });
  const list = useLoad(
    () =>
      api.call('GET /api/workspace/audit', {
        query: {
          limit: 50,
          action: (filters.action || undefined) as AuditAction | undefined,
          actor: filters.actor || undefined,
          since,
          cursor: filters.cursor || undefined,
        },
      }),
    [location.search],
  );
  const items = list.data?.items ?? [];
  const filtered = Boolean(filters.action || filters.actor || filters.days);
  return (
    <>
      <PageTitle>{t('nav.audit')}</PageTitle>
      <p class="muted">{t('audit.lead')}</p>
      <form class="filters" aria-label={t('audit.filter')} onSubmit={(event) => event.preventDefault()}>
        <FilterSelect
          id="a-action"
          label={t('audit.action')}
          value={filters.action}
          options={[
            ['', t('audit.everyAction')],
            ...AUDIT_ACTIONS.map((action) => [action, actionWords(action)] as const),
          ]}
          onValue={(value) => setFilter('action', value)}
        />
        <FilterSelect
          id="a-actor"
          label={t('audit.who')}
          value={filters.actor}
          options={peopleOptions(members.data?.items)}
          onValue={(value) => setFilter('actor', value)}
        />
        <FilterSelect
          id="a-days"
          label={t('inbox.when')}
          value={filters.days}
          options={PERIODS.map(([value, id]) => [value, t(id)] as const)}
          onValue={(value) => setFilter('days', value)}
        />
      </form>
      {list.data ? null : <Loading error={list.error} />}
      {list.data && items.length === 0 ? <p class="empty">{t(filtered ? 'audit.noMatch' : 'audit.empty')}</p> : null}
      {items.length ? (
        <div class="table-wrap">
          <table>
            <TableHead
              columns={[t('inbox.when'), t('audit.whoDidWhat'), t('audit.toWhat'), [t('audit.address'), 'wide']]}
            />
            <tbody>
              {items.map((event) => (
                <tr key={event.id} data-action={event.action}>
                  <td>
                    <Time iso={event.at} />
                  </td>
                  <td class="wrap">
                    <strong>{event.actor?.name ?? t('audit.operator')}</strong>
                    <div>{actionWords(event.action)}</div>
                  </td>
                  <td class="wrap">{whatOf(event)}</td>
                  <td class="hide-phone">
                    <code>{event.address ?? '—'}</code>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {list.data?.nextCursor ? (
        <p>
          <button
            type="button"
            onClick={() => navigate(filtersUrl({ ...filters, cursor: list.data?.nextCursor ?? '' }), true)}
          >
            {t('audit.older')}
          </button>
        </p>
      ) : null}
    </>
  );
}
