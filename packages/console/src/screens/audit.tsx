// The workspace's audit log (admins): who signed in or failed to, ended sessions, invited,
// changed roles, removed people, made or revoked client links and API keys, changed projects;
// newest first, filtered by action, person and period (the filters live in the address).
import type { AuditAction } from '@svc/contract';
import type { AnswerOf } from '@svc/contract/endpoints';
import { useMemo } from 'preact/hooks';
import { api } from '../api.js';
import { currentQuery, navigate } from '../router.js';
import { FilterSelect, Loading, PageTitle, peopleOptions, TableHead, Time, useLoad, usePages } from '../ui.js';

type Event = AnswerOf<'GET /api/workspace/audit'>['items'][number];

/** Each action in words, in the order the filter lists them. */
const ACTION_WORDS: Record<AuditAction, string> = {
  signed_in: 'Signed in',
  sign_in_failed: 'Failed to sign in',
  signed_out: 'Signed out',
  session_ended: 'Ended a session',
  other_sessions_ended: 'Ended their other sessions',
  password_changed: 'Changed their password',
  password_reset_created: 'Made a password reset link',
  password_reset_completed: 'Reset a password',
  two_factor_enabled: 'Turned two-factor on',
  two_factor_disabled: 'Turned two-factor off',
  two_factor_reset: 'Reset two-factor',
  recovery_codes_renewed: 'Renewed recovery codes',
  security_changed: 'Changed the sign-in rule',
  invitation_created: 'Invited',
  invitation_withdrawn: 'Withdrew an invitation',
  invitation_accepted: 'Accepted an invitation',
  member_added: 'Added a member',
  role_changed: 'Changed a role',
  member_removed: 'Removed a member',
  client_link_created: 'Made a client link',
  client_link_rotated: 'Rotated a client link',
  client_link_revoked: 'Revoked a client link',
  api_key_created: 'Created an API key',
  api_key_revoked: 'Revoked an API key',
  project_created: 'Created a project',
  project_updated: 'Changed a project',
  project_deleted: 'Deleted a project',
  exported: 'Exported comments',
};

const PERIODS = [
  ['', 'Any time'],
  ['1', 'Last 24 hours'],
  ['7', 'Last 7 days'],
  ['30', 'Last 30 days'],
] as const;

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
      <PageTitle>Audit log</PageTitle>
      <p class="muted">
        Sign-ins, sessions, people, client links, API keys and projects: who did what, when, from which address.
      </p>
      <form class="filters" aria-label="Filter the audit log" onSubmit={(event) => event.preventDefault()}>
        <FilterSelect
          id="a-action"
          label="Action"
          value={filters.action}
          options={[['', 'Every action'], ...Object.entries(ACTION_WORDS)]}
          onValue={(value) => setFilter('action', value)}
        />
        <FilterSelect
          id="a-actor"
          label="Who"
          value={filters.actor}
          options={peopleOptions(members.data?.items)}
          onValue={(value) => setFilter('actor', value)}
        />
        <FilterSelect
          id="a-days"
          label="When"
          value={filters.days}
          options={PERIODS}
          onValue={(value) => setFilter('days', value)}
        />
      </form>
      {list.data ? null : <Loading error={list.error} />}
      {list.data && items.length === 0 ? (
        <p class="empty">{filtered ? 'Nothing matches these filters.' : 'Nothing recorded yet.'}</p>
      ) : null}
      {items.length ? (
        <div class="table-wrap">
          <table>
            <TableHead columns={['When', 'Who did what', 'To what', ['Address', 'wide']]} />
            <tbody>
              {items.map((event) => (
                <tr key={event.id} data-action={event.action}>
                  <td>
                    <Time iso={event.at} />
                  </td>
                  <td class="wrap">
                    <strong>{event.actor?.name ?? 'The operator'}</strong>
                    <div>{ACTION_WORDS[event.action]}</div>
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
            Older events
          </button>
        </p>
      ) : null}
    </>
  );
}
