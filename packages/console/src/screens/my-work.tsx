// What is this person's to do: the open comments they are on, the soonest due first (the most
// urgent first within a day, and among those without one), the new
// comments that wait for triage in the projects they follow (open, nobody on them, the longest
// waiting first), the comments that mention them (newest first), and the fixes of their own
// comments that wait for their verdict (applied, not yet verified).

import type { AnswerOf } from '@svc/contract/endpoints';
import { api } from '../api.js';
import { DuePill, LabelChips, PriorityPill, StatusPills } from '../comment-pills.js';
import { t, tx } from '../i18n.js';
import { Loading, useLoad } from '../loading.js';
import { Link } from '../router.js';
import { me } from '../session.js';
import { PageTitle, Time } from '../ui.js';

type Comment = AnswerOf<'GET /api/comments'>['items'][number];

export function MyWork() {
  const triage = useLoad(
    () =>
      api.call('GET /api/comments', {
        query: { followed: 'me', assignee: 'none', status: 'open', sort: 'oldest', limit: 50 },
      }),
    [],
  );
  const assigned = useLoad(
    () => api.call('GET /api/comments', { query: { assignee: 'me', status: 'open', sort: 'due', limit: 100 } }),
    [],
  );
  const mentions = useLoad(() => api.call('GET /api/comments', { query: { mentions: 'me', limit: 20 } }), []);
  const verdicts = useLoad(
    () => api.call('GET /api/comments', { query: { author: me.value?.user.id ?? '', status: 'applied', limit: 100 } }),
    [],
  );
  const waiting = (verdicts.data?.items ?? []).filter((c) => !c.verifiedAt);
  return (
    <>
      <PageTitle>{t('nav.myWork')}</PageTitle>
      <h2>{t('mine.assigned')}</h2>
      {assigned.data ? (
        <Rows items={assigned.data.items} empty={t('mine.noneAssigned')} />
      ) : (
        <Loading error={assigned.error} />
      )}
      <h2>{t('mine.triage')}</h2>
      <p class="muted">{tx('mine.triageLead', { projects: <Link href="/projects">{t('nav.projects')}</Link> })}</p>
      {triage.data ? <Rows items={triage.data.items} empty={t('mine.noneTriage')} /> : <Loading error={triage.error} />}
      <h2>{t('mine.mentions')}</h2>
      {mentions.data ? (
        <Rows items={mentions.data.items} empty={t('mine.noneMentions')} />
      ) : (
        <Loading error={mentions.error} />
      )}
      <h2>{t('mine.verdict')}</h2>
      <p class="muted">{t('mine.verdictLead')}</p>
      {verdicts.data ? <Rows items={waiting} empty={t('mine.noneVerdict')} /> : <Loading error={verdicts.error} />}
    </>
  );
}

function Rows({ items, empty }: { items: Comment[]; empty: string }) {
  if (items.length === 0) return <p class="empty">{empty}</p>;
  return (
    <ul class="work">
      {items.map((c) => (
        <li key={c.id} class="card">
          <Link href={`/comments/${encodeURIComponent(c.id)}`}>
            {c.body.length > 140 ? `${c.body.slice(0, 140)}…` : c.body}
          </Link>
          <div class="row small">
            <StatusPills comment={c} />
            <PriorityPill priority={c.priority} />
            <DuePill comment={c} />
            <span class="muted">
              {c.projectKey} · <Time iso={c.updatedAt} />
            </span>
          </div>
          <LabelChips labels={c.labels} />
        </li>
      ))}
    </ul>
  );
}
