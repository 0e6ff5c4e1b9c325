// API keys for the CLI, CI and agents: your own (create, shown once; revoke), and for admins
// every key of the workspace.
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { isAdmin } from '../session.js';
import { CopyBox, Dialog, Field, FormError, Loading, PageTitle, TableHead, Time, useAction, useLoad } from '../ui.js';

export function ApiKeys() {
  const mine = useLoad(() => api.call('GET /api/me/api-keys', {}), []);
  const all = useLoad(
    () =>
      isAdmin() ? api.call('GET /api/workspace/api-keys', { query: { limit: 100 } }) : Promise.resolve(null as never),
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
    if (isAdmin()) all.reload();
  };
  return (
    <>
      <PageTitle>API keys</PageTitle>
      <p class="muted">For svc-cli in CI and on your machine, and for coding agents. A key acts as you.</p>
      <form
        class="card"
        onSubmit={async (event) => {
          event.preventDefault();
          const answer = await action.run(() => api.call('POST /api/me/api-keys', { body: { name } }));
          if (answer) {
            setCreated({ name: answer.data.name, key: answer.data.key });
            setName('');
            mine.reload();
            if (isAdmin()) all.reload();
          }
        }}
      >
        <Field
          label="Name"
          hint="What it is for, e.g. “GitHub deploy”."
          required
          maxLength={100}
          value={name}
          onValue={setName}
        />
        <FormError message={action.error} />
        <button class="primary" type="submit" disabled={action.pending}>
          Create key
        </button>
      </form>
      <h2>Your keys</h2>
      {mine.data ? null : <Loading error={mine.error} />}
      {mine.data && mine.data.items.length === 0 ? <p class="muted">You have no API key.</p> : null}
      {mine.data?.items.length ? (
        <div class="table-wrap">
          <table>
            <TableHead columns={['Name', 'Ends with', ['Created', 'wide'], ['Last used', 'wide'], '']} />
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
                      Revoke<span class="skip"> {k.name}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {isAdmin() && all.data ? (
        <>
          <h2>Every key of the workspace</h2>
          <div class="table-wrap">
            <table>
              <TableHead columns={['Name', 'Owner', ['Last used', 'wide'], '']} />
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
                        Revoke
                        <span class="skip">
                          {' '}
                          {k.name} of {k.owner.name}
                        </span>
                      </button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : null}
      <Dialog title={`Key “${created?.name ?? ''}”`} open={created !== null} onClose={() => setCreated(null)}>
        {created ? (
          <>
            <CopyBox label="API key" text={created.key} />
            <p class="muted small">
              Copy it now: it is not shown again. Store it as the SVC_API_KEY secret of your CI.
            </p>
            <button type="button" class="primary" onClick={() => setCreated(null)}>
              Done
            </button>
          </>
        ) : null}
      </Dialog>
    </>
  );
}
