// The team (invite, roles, removal, password reset links), pending invitations, and client
// links. A link is shown once, with a copy button: nothing is e-mailed.
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { isAdmin, me } from '../session.js';
import {
  ConfirmDialog,
  CopyBox,
  Dialog,
  Field,
  FormError,
  Loading,
  MoreRows,
  PageTitle,
  TableHead,
  Time,
  useAction,
  useLoad,
  usePages,
} from '../ui.js';
import { SingleSignOnSettings } from './sso.js';
import { TwoFactorRule } from './two-factor.js';

/** A link just made, shown until dismissed. */
interface ShownLink {
  title: string;
  label: string;
  url: string;
  note: string;
}

function Team({ onLink }: { onLink: (link: ShownLink) => void }) {
  const members = usePages((cursor) => api.call('GET /api/workspace/members', { query: { limit: 100, cursor } }), []);
  const action = useAction();
  const [removing, setRemoving] = useState<{ id: string; name: string } | null>(null);
  const [resetting, setResetting] = useState<{ id: string; name: string } | null>(null);
  const admin = isAdmin();
  const self = me.value?.user.id;
  const onlyAdmin = members.data?.items.filter((m) => m.role === 'admin').length === 1;
  return (
    <section aria-labelledby="team">
      <h2 id="team">Team</h2>
      <FormError message={removing || resetting ? '' : action.error} />
      {members.data ? null : <Loading error={members.error} />}
      {members.data ? (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Role</th>
                {admin ? (
                  <th scope="col" class="hide-phone">
                    Last sign-in
                  </th>
                ) : null}
                {admin ? (
                  <th scope="col">
                    <span class="skip">Actions</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {members.data.items.map((m) => (
                <tr key={m.id}>
                  <td class="wrap">
                    {m.name}
                    {m.id === self ? <span class="muted"> (you)</span> : null}
                    {m.email ? <div class="muted small">{m.email}</div> : null}
                    {m.twoFactor ? <div class="muted small">Two-factor on</div> : null}
                  </td>
                  <td>
                    {admin ? (
                      <select
                        aria-label={`Role of ${m.name}`}
                        value={m.role}
                        onChange={async (e) => {
                          const role = (e.target as HTMLSelectElement).value as 'admin' | 'member';
                          await action.run(() =>
                            api.call('PATCH /api/workspace/members/{id}', { params: { id: m.id }, body: { role } }),
                          );
                          members.reload();
                        }}
                      >
                        <option value="admin">Admin</option>
                        <option value="member">Member</option>
                      </select>
                    ) : (
                      m.role
                    )}
                  </td>
                  {admin ? (
                    <td class="hide-phone">
                      <Time iso={m.lastSignInAt ?? null} />
                    </td>
                  ) : null}
                  {admin ? (
                    <td>
                      <div class="row">
                        <button
                          type="button"
                          onClick={async () => {
                            const answer = await action.run(() =>
                              api.call('POST /api/workspace/members/{id}/password-reset', { params: { id: m.id } }),
                            );
                            if (answer) {
                              onLink({
                                title: `Password reset link for ${m.name}`,
                                label: 'Reset link',
                                url: answer.data.resetUrl,
                                note: `Works once, until ${new Date(answer.data.expiresAt).toLocaleString()}. Setting a password ends ${m.name}'s other sessions.`,
                              });
                            }
                          }}
                        >
                          Reset link<span class="skip"> for {m.name}</span>
                        </button>
                        {m.twoFactor ? (
                          <button type="button" onClick={() => setResetting({ id: m.id, name: m.name })}>
                            Reset two-factor<span class="skip"> of {m.name}</span>
                          </button>
                        ) : null}
                        {m.role === 'admin' && onlyAdmin ? (
                          // The server refuses it anyway: the workspace would have nobody to run it.
                          <span class="muted small">Only admin: make another member admin to remove {m.name}</span>
                        ) : (
                          <button type="button" class="danger" onClick={() => setRemoving({ id: m.id, name: m.name })}>
                            Remove<span class="skip"> {m.name}</span>
                          </button>
                        )}
                      </div>
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <MoreRows pages={members} label="Show more members" />
      <ConfirmDialog
        title={`Reset ${resetting?.name ?? ''}’s two-factor sign-in?`}
        open={resetting !== null}
        onClose={() => setResetting(null)}
        confirm="Reset two-factor"
        action={action}
        request={() =>
          api.call('DELETE /api/workspace/members/{id}/two-factor', { params: { id: resetting?.id ?? '' } })
        }
        done={() => {
          setResetting(null);
          members.reload();
        }}
      >
        <p>
          Their authenticator app and recovery codes stop working. They sign in with their password alone, or set up a
          new app at sign-in if the workspace requires one. For a lost phone; the audit log records it.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        title={`Remove ${removing?.name ?? ''}?`}
        open={removing !== null}
        onClose={() => setRemoving(null)}
        confirm="Remove"
        action={action}
        request={() => api.call('DELETE /api/workspace/members/{id}', { params: { id: removing?.id ?? '' } })}
        done={() => {
          setRemoving(null);
          members.reload();
        }}
      >
        <p>
          Their sessions and API keys stop working at once. Their comments and replies stay, shown as by “Former
          member”.
        </p>
      </ConfirmDialog>
    </section>
  );
}

function Invitations({ onLink }: { onLink: (link: ShownLink) => void }) {
  const invites = usePages((cursor) => api.call('GET /api/workspace/invites', { query: { limit: 100, cursor } }), []);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<'admin' | 'member'>('member');
  const action = useAction();
  return (
    <section aria-labelledby="invites">
      <h2 id="invites">Invitations</h2>
      <form
        class="card"
        onSubmit={async (event) => {
          event.preventDefault();
          const answer = await action.run(() => api.call('POST /api/workspace/invites', { body: { email, role } }));
          if (answer) {
            onLink({
              title: `Invitation for ${answer.data.email}`,
              label: 'Invitation link',
              url: answer.data.inviteUrl,
              note: `Send it to them: it works once, until ${new Date(answer.data.expiresAt).toLocaleString()}. They choose their name and password.`,
            });
            setEmail('');
            invites.reload();
          }
        }}
      >
        <div class="filters" style="margin:0">
          <Field label="E-mail" type="email" required value={email} onValue={setEmail} />
          <div class="field">
            <label for="invite-role">Role</label>
            <select
              id="invite-role"
              value={role}
              onChange={(e) => setRole((e.target as HTMLSelectElement).value as 'admin' | 'member')}
            >
              <option value="member">Member</option>
              <option value="admin">Admin</option>
            </select>
          </div>
        </div>
        <FormError message={action.error} />
        <button class="primary" type="submit" disabled={action.pending}>
          Invite
        </button>
      </form>
      {invites.data?.items.length ? (
        <div class="table-wrap" style="margin-top:12px">
          <table>
            <caption class="skip">Pending invitations</caption>
            <TableHead columns={['E-mail', 'Role', ['Expires', 'wide'], '']} />
            <tbody>
              {invites.data.items.map((invite) => (
                <tr key={invite.id}>
                  <td class="wrap">{invite.email}</td>
                  <td>{invite.role}</td>
                  <td class="hide-phone">
                    <Time iso={invite.expiresAt} />
                  </td>
                  <td>
                    <button
                      type="button"
                      onClick={async () => {
                        await action.run(() =>
                          api.call('DELETE /api/workspace/invites/{id}', { params: { id: invite.id } }),
                        );
                        invites.reload();
                      }}
                    >
                      Withdraw<span class="skip"> the invitation of {invite.email}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p class="muted">No pending invitations.</p>
      )}
      <MoreRows pages={invites} label="Show more invitations" />
    </section>
  );
}

function ClientLinks({ onLink }: { onLink: (link: ShownLink) => void }) {
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
      title: `Client link for ${who}`,
      label: accessUrl ? 'Access link' : 'Access token',
      url: accessUrl ?? accessToken,
      note: accessUrl
        ? 'Opening it signs them in to the feedback button on the app, until you rotate or revoke it.'
        : 'No project has an app URL: add one to the project so that links open the app. The token alone works with #svc_access= on any page with the widget.',
    });
  return (
    <section aria-labelledby="clients">
      <h2 id="clients">Client links</h2>
      <p class="muted small">
        For reviewers outside the team: a link that signs them in to the feedback button, without a password.
      </p>
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
          <Field label="Client's name" required maxLength={100} value={name} onValue={setName} />
          <div class="field">
            <label for="client-project">Project</label>
            <select
              id="client-project"
              value={projectKey}
              onChange={(e) => setProjectKey((e.target as HTMLSelectElement).value)}
            >
              <option value="">Every project</option>
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
          Create link
        </button>
      </form>
      {clients.data?.items.length ? (
        <div class="table-wrap" style="margin-top:12px">
          <table>
            <caption class="skip">Client accounts</caption>
            <TableHead columns={['Client', ['Project', 'wide'], ['Last seen', 'wide'], '']} />
            <tbody>
              {clients.data.items.map((c) => (
                <tr key={c.id}>
                  <td class="wrap">{c.name}</td>
                  <td class="hide-phone">{c.projectKey ?? 'Every project'}</td>
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
                        New link<span class="skip"> for {c.name}</span>
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
                        Revoke<span class="skip"> {c.name}</span>
                      </button>
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p class="muted">No client links yet.</p>
      )}
      <MoreRows pages={clients} label="Show more client links" />
    </section>
  );
}

export function People() {
  const [link, setLink] = useState<ShownLink | null>(null);
  return (
    <>
      <PageTitle>People</PageTitle>
      <Team onLink={setLink} />
      {isAdmin() ? <Invitations onLink={setLink} /> : null}
      <ClientLinks onLink={setLink} />
      {isAdmin() ? <TwoFactorRule /> : null}
      {isAdmin() ? <SingleSignOnSettings /> : null}
      <Dialog title={link?.title ?? ''} open={link !== null} onClose={() => setLink(null)}>
        {link ? (
          <>
            <CopyBox label={link.label} text={link.url} />
            <p class="muted small">{link.note} It is not shown again.</p>
            <button type="button" class="primary" onClick={() => setLink(null)}>
              Done
            </button>
          </>
        ) : null}
      </Dialog>
    </>
  );
}
