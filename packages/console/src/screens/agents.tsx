// The team's agents: accounts of their own for coding agents and CI jobs, acting through their
// API keys (see the README's "Dividing the work"). Admins add one by name (its first key shown
// once), give it another key, and remove it (its keys end with it); everyone sees them and the
// open comments each is on.
import type { AnswerOf } from '@svc/contract/endpoints';
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { t } from '../i18n.js';
import { Loading, useAction, useLoad, usePages } from '../loading.js';
import { Link } from '../router.js';
import { may } from '../session.js';
import { Field, FormError, PageTitle, TableHead, Time } from '../ui.js';
import { KeyShownOnce } from './api-keys.js';
import { RemoveMember } from './people/remove-member.js';

type Member = AnswerOf<'GET /api/workspace/members'>['items'][number];
type WorkspaceKey = AnswerOf<'GET /api/workspace/api-keys'>['items'][number];
/** How many open comments someone is on now (the insights' count: one read for every agent). */
type OnIt = AnswerOf<'GET /api/workspace/insights'>['assignees'][number];

export function Agents() {
  const manage = may('manageAgents');
  const seeKeys = may('manageAllApiKeys');
  const team = usePages((cursor) => api.call('GET /api/workspace/members', { query: { limit: 100, cursor } }), [], {
    every: true,
  });
  // Every key of the workspace, for the agents' own (admins only: members are not shown keys).
  const keys = usePages(
    (cursor) =>
      seeKeys ? api.call('GET /api/workspace/api-keys', { query: { limit: 100, cursor } }) : Promise.resolve(null),
    [],
    { every: true },
  );
  const insights = useLoad(() => api.call('GET /api/workspace/insights', { query: { days: 7 } }), []);
  const agents = (team.data?.items ?? []).filter((m) => m.agent);
  const [name, setName] = useState('');
  const [shown, setShown] = useState<{ name: string; key: string } | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);
  const action = useAction();
  const reload = () => {
    team.reload();
    keys.reload();
    insights.reload();
  };
  return (
    <>
      <PageTitle>{t('nav.agents')}</PageTitle>
      <p class="muted">{t('agents.lead')}</p>
      {manage ? (
        <form
          class="card"
          style="margin-bottom:16px"
          onSubmit={async (event) => {
            event.preventDefault();
            const answer = await action.run(() => api.call('POST /api/workspace/agents', { body: { name } }));
            if (!answer) return;
            setShown({ name: answer.data.agent.name, key: answer.data.apiKey.key });
            setName('');
            reload();
          }}
        >
          <Field
            label={t('account.name')}
            hint={t('agents.nameHint')}
            required
            maxLength={100}
            value={name}
            onValue={setName}
          />
          <FormError message={removing ? '' : action.error} />
          <button class="primary" type="submit" disabled={action.pending}>
            {t('agents.add')}
          </button>
        </form>
      ) : null}
      {team.data ? null : <Loading error={team.error} />}
      {team.data && agents.length === 0 ? <p class="empty">{t(manage ? 'agents.noneAdmin' : 'agents.none')}</p> : null}
      {agents.length ? (
        <div class="table-wrap">
          <table>
            <TableHead
              columns={[
                t('account.name'),
                t('agents.working'),
                ...(seeKeys ? [[t('nav.apiKeys'), 'wide'] as [string, 'wide'], ''] : []),
              ]}
            />
            <tbody>
              {agents.map((agent) => (
                <AgentRow
                  key={agent.id}
                  agent={agent}
                  onIt={
                    insights.data
                      ? (insights.data.assignees.find((a) => a.assignee?.id === agent.id) ?? null)
                      : undefined
                  }
                  keys={seeKeys ? (keys.data?.items ?? []).filter((k) => k.owner.id === agent.id) : null}
                  pending={action.pending}
                  onNewKey={async () => {
                    const answer = await action.run(() =>
                      api.call('POST /api/workspace/agents/{id}/api-keys', {
                        params: { id: agent.id },
                        body: { name: agent.name },
                      }),
                    );
                    if (!answer) return;
                    setShown({ name: agent.name, key: answer.data.key });
                    keys.reload();
                  }}
                  onRemove={() => setRemoving(agent)}
                />
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <KeyShownOnce
        title={t('agents.keyTitle', { name: shown?.name ?? '' })}
        secret={shown?.key ?? null}
        note={t('agents.copyNow')}
        onClose={() => setShown(null)}
      />
      <RemoveMember
        member={removing}
        body={t('agents.removeBody')}
        action={action}
        onClose={() => setRemoving(null)}
        onRemoved={() => {
          setRemoving(null);
          reload();
        }}
      />
    </>
  );
}

/** One agent: its name, the open comments it is on (linked to the list of them), and for admins its keys. */
function AgentRow({
  agent,
  onIt,
  keys,
  pending,
  onNewKey,
  onRemove,
}: {
  agent: Member;
  /** The open comments it is on; null: none; undefined: not read yet. */
  onIt: OnIt | null | undefined;
  /** Its keys; null when the reader is not shown keys. */
  keys: WorkspaceKey[] | null;
  pending: boolean;
  onNewKey: () => void;
  onRemove: () => void;
}) {
  const listed = `/comments?assignee=${encodeURIComponent(agent.id)}&status=open`;
  return (
    <tr>
      <td class="wrap">{agent.name}</td>
      <td>
        {onIt === undefined ? (
          <span class="muted">{t('ui.loading')}</span>
        ) : onIt?.open ? (
          <Link href={listed}>{t('agents.open', { count: onIt.open })}</Link>
        ) : (
          <span class="muted">{t('agents.open', { count: 0 })}</span>
        )}
      </td>
      {keys ? (
        <td class="hide-phone">
          {keys.length ? (
            <ul class="plain">
              {keys.map((k) => (
                <li key={k.id}>
                  <code>…{k.lastFour}</code>{' '}
                  <span class="muted small">
                    {t('account.lastUsed')} <Time iso={k.lastUsedAt} />
                  </span>
                </li>
              ))}
            </ul>
          ) : (
            <span class="muted">{t('agents.noKey')}</span>
          )}
        </td>
      ) : null}
      {keys ? (
        <td>
          <div class="row">
            <button type="button" disabled={pending} onClick={onNewKey}>
              {t('agents.newKey')}
              <span class="skip"> {t('people.forName', { name: agent.name })}</span>
            </button>
            <button type="button" class="danger" onClick={onRemove}>
              {t('people.remove')}
              <span class="skip"> {agent.name}</span>
            </button>
          </div>
        </td>
      ) : null}
    </tr>
  );
}
