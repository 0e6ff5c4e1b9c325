// Client links: an account for a client, to one project or every one, that signs in by a link
// (or by its token when no project has an app URL to link to); a new link replaces the old one.
import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import { t } from '../../i18n.js';
import { MoreRows, useAction, useLoad, usePages } from '../../loading.js';
import { Field, FormError, TableHead, Time } from '../../ui.js';
import type { ShownLink } from './shown-link.js';

/** Create, list, renew and revoke client links; `onLink` shows the link (or token) just made. */
export function ClientLinks({ onLink }: { onLink: (link: ShownLink) => void }) {
  const clients = usePages(
    (cursor) => api.call('GET /api/workspace/quick-access', { query: { limit: 100, cursor } }),
    [],
  );
  const projects = useLoad(() => api.call('GET /api/projects', {}), []);
  const [name, setName] = useState('');
  const [projectKey, setProjectKey] = useState('');
  const action = useAction();
  const show = (who: string, accessToken: string, accessUrl: string | null) =>
    onLink({
      title: t('people.clientTitle', { name: who }),
      label: t(accessUrl ? 'people.accessLink' : 'people.accessToken'),
      url: accessUrl ?? accessToken,
      note: t(accessUrl ? 'people.accessLinkNote' : 'people.accessTokenNote'),
    });
  return (
    <section aria-labelledby="clients">
      <h2 id="clients">{t('people.clients')}</h2>
      <p class="muted small">{t('people.clientsLead')}</p>
      <form
        class="card"
        onSubmit={async (event) => {
          event.preventDefault();
          const answer = await action.run(() =>
            api.call('POST /api/workspace/quick-access', { body: { name, ...(projectKey ? { projectKey } : {}) } }),
          );
          if (answer) {
            show(answer.data.user.name, answer.data.accessToken, answer.data.accessUrl);
            setName('');
            clients.reload();
          }
        }}
      >
        <div class="filters" style="margin:0">
          <Field label={t('people.clientName')} required maxLength={100} value={name} onValue={setName} />
          <div class="field">
            <label for="client-project">{t('comments.project')}</label>
            <select
              id="client-project"
              value={projectKey}
              onChange={(e) => setProjectKey((e.target as HTMLSelectElement).value)}
            >
              <option value="">{t('people.everyProject')}</option>
              {projects.data?.items.map((p) => (
                <option key={p.key} value={p.key}>
                  {p.name}
                </option>
              ))}
            </select>
          </div>
        </div>
        <FormError message={action.error} />
        <button class="primary" type="submit" disabled={action.pending}>
          {t('people.createLink')}
        </button>
      </form>
      {clients.data?.items.length ? (
        <div class="table-wrap" style="margin-top:12px">
          <table>
            <caption class="skip">{t('people.clientAccounts')}</caption>
            <TableHead
              columns={[t('people.client'), [t('comments.project'), 'wide'], [t('people.lastSeen'), 'wide'], '']}
            />
            <tbody>
              {clients.data.items.map((c) => (
                <tr key={c.id}>
                  <td class="wrap">{c.name}</td>
                  <td class="hide-phone">{c.projectKey ?? t('people.everyProject')}</td>
                  <td class="hide-phone">
                    <Time iso={c.lastSignInAt} />
                  </td>
                  <td>
                    <div class="row">
                      <button
                        type="button"
                        onClick={async () => {
                          const answer = await action.run(() =>
                            api.call('POST /api/workspace/quick-access/{id}/rotate', { params: { id: c.id } }),
                          );
                          if (answer) show(c.name, answer.data.accessToken, answer.data.accessUrl);
                        }}
                      >
                        {t('people.newLink')}
                        <span class="skip"> {t('people.forName', { name: c.name })}</span>
                      </button>
                      <button
                        type="button"
                        class="danger"
                        onClick={async () => {
                          await action.run(() =>
                            api.call('DELETE /api/workspace/quick-access/{id}', { params: { id: c.id } }),
                          );
                          clients.reload();
                        }}
                      >
                        {t('keys.revoke')}
                        <span class="skip"> {c.name}</span>
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p class="muted">{t('people.noClients')}</p>
      )}
      <MoreRows pages={clients} label={t('people.moreClients')} />
    </section>
  );
}
