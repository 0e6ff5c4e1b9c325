// API keys for the CLI and CI: your own (create, shown once; revoke), and for admins every key
// of the workspace. A key acts as its owner; an agent is an account of its own (Agents).
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { t, tx } from '../i18n.js';
import { Loading, useAction, useLoad } from '../loading.js';
import { Link } from '../router.js';
import { may } from '../session.js';
import { CopyBox, Dialog, Field, FormError, PageTitle, TableHead, Time } from '../ui.js';

export function ApiKeys() {
  const mine = useLoad(() => api.call('GET /api/me/api-keys', {}), []);
  const all = useLoad(
    () =>
      may('manageAllApiKeys')
        ? api.call('GET /api/workspace/api-keys', { query: { limit: 100 } })
        : Promise.resolve(null as never),
    [],
  );
  const [name, setName] = useState('');
  const [created, setCreated] = useState<{ name: string; key: string } | null>(null);
  const action = useAction();
  const revoke = async (
    endpoint: 'DELETE /api/me/api-keys/{id}' | 'DELETE /api/workspace/api-keys/{id}',
    id: string,
  ) => {
    await action.run(() => api.call(endpoint, { params: { id } }));
    mine.reload();
    if (may('manageAllApiKeys')) all.reload();
  };
  return (
    <>
      <PageTitle>{t('nav.apiKeys')}</PageTitle>
      <p class="muted">{tx('keys.lead', { agents: <Link href="/agents">{t('nav.agents')}</Link> })}</p>
      <form
        class="card"
        onSubmit={async (event) => {
          event.preventDefault();
          const answer = await action.run(() => api.call('POST /api/me/api-keys', { body: { name } }));
          if (answer) {
            setCreated({ name: answer.data.name, key: answer.data.key });
            setName('');
            mine.reload();
            if (may('manageAllApiKeys')) all.reload();
          }
        }}
      >
        <Field
          label={t('keys.name')}
          hint={t('keys.nameHint')}
          required
          maxLength={100}
          value={name}
          onValue={setName}
        />
        <FormError message={action.error} />
        <button class="primary" type="submit" disabled={action.pending}>
          {t('keys.create')}
        </button>
      </form>
      <h2>{t('keys.yours')}</h2>
      {mine.data ? null : <Loading error={mine.error} />}
      {mine.data && mine.data.items.length === 0 ? <p class="muted">{t('keys.none')}</p> : null}
      {mine.data?.items.length ? (
        <div class="table-wrap">
          <table>
            <TableHead
              columns={[
                t('keys.name'),
                t('keys.endsWith'),
                [t('keys.created'), 'wide'],
                [t('account.lastUsed'), 'wide'],
                '',
              ]}
            />
            <tbody>
              {mine.data.items.map((k) => (
                <tr key={k.id}>
                  <td class="wrap">{k.name}</td>
                  <td>
                    <code>…{k.lastFour}</code>
                  </td>
                  <td class="hide-phone">
                    <Time iso={k.createdAt} />
                  </td>
                  <td class="hide-phone">
                    <Time iso={k.lastUsedAt} />
                  </td>
                  <td>
                    <button type="button" class="danger" onClick={() => revoke('DELETE /api/me/api-keys/{id}', k.id)}>
                      {t('keys.revoke')}
                      <span class="skip"> {k.name}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {may('manageAllApiKeys') && all.data ? (
        <>
          <h2>{t('keys.all')}</h2>
          <div class="table-wrap">
            <table>
              <TableHead columns={[t('keys.name'), t('keys.owner'), [t('account.lastUsed'), 'wide'], '']} />
              <tbody>
                {all.data.items.map((k) => (
                  <tr key={k.id}>
                    <td class="wrap">
                      {k.name} <code class="muted">…{k.lastFour}</code>
                    </td>
                    <td>{k.owner.name}</td>
                    <td class="hide-phone">
                      <Time iso={k.lastUsedAt} />
                    </td>
                    <td>
                      <button
                        type="button"
                        class="danger"
                        onClick={() => revoke('DELETE /api/workspace/api-keys/{id}', k.id)}
                      >
                        {t('keys.revoke')}
                        <span class="skip"> {t('keys.keyOf', { name: k.name, owner: k.owner.name })}</span>
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
      <KeyShownOnce
        title={t('keys.dialog', { name: created?.name ?? '' })}
        secret={created?.key ?? null}
        note={t('keys.copyNow')}
        onClose={() => setCreated(null)}
      />
    </>
  );
}

/** A new API key, in full with a copy button, this once (`secret` null: closed); `note` says where it goes. */
export function KeyShownOnce({
  title,
  secret,
  note,
  onClose,
}: {
  title: string;
  secret: string | null;
  note: string;
  onClose: () => void;
}) {
  return (
    <Dialog title={title} open={secret !== null} onClose={onClose}>
      {secret ? (
        <>
          <CopyBox label={t('keys.key')} text={secret} />
          <p class="muted small">{note}</p>
          <button type="button" class="primary" onClick={onClose}>
            {t('keys.done')}
          </button>
        </>
      ) : null}
    </Dialog>
  );
}
