// The team (invite, roles, removal, password reset links; agents are listed with it and managed
// under Agents), pending invitations, and client links. A link is shown once, with a copy
// button: nothing is e-mailed.
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { intlLocale, t } from '../i18n.js';
import { may, me } from '../session.js';
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
  const manage = may('manageMembers');
  const self = me.value?.user.id;
  const onlyAdmin = members.data?.items.filter((m) => m.role === 'admin').length === 1;
  return (
    <section aria-labelledby="team">
      <h2 id="team">{t('people.team')}</h2>
      <FormError message={removing || resetting ? '' : action.error} />
      {members.data ? null : <Loading error={members.error} />}
      {members.data ? (
        <div class="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">{t('account.name')}</th>
                <th scope="col">{t('account.role')}</th>
                {manage ? (
                  <th scope="col" class="hide-phone">
                    {t('people.lastSignIn')}
                  </th>
                ) : null}
                {manage ? (
                  <th scope="col">
                    <span class="skip">{t('ui.actions')}</span>
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {members.data.items.map((m) => (
                <tr key={m.id}>
                  <td class="wrap">
                    {m.name}
                    {m.id === self ? <span class="muted"> {t('people.you')}</span> : null}
                    {m.email ? <div class="muted small">{m.email}</div> : null}
                    {m.twoFactor ? <div class="muted small">{t('people.twoFactorOn')}</div> : null}
                  </td>
                  <td>
                    {m.agent ? (
                      // An agent is a member with no role to change (it cannot be made admin).
                      t('people.agent')
                    ) : manage ? (
                      <select
                        aria-label={t('people.roleOf', { name: m.name })}
                        value={m.role}
                        onChange={async (e) => {
                          const role = (e.target as HTMLSelectElement).value as 'admin' | 'member';
                          await action.run(() =>
                            api.call('PATCH /api/workspace/members/{id}', { params: { id: m.id }, body: { role } }),
                          );
                          members.reload();
                        }}
                      >
                        <option value="admin">{t('account.roleName', { role: 'admin' })}</option>
                        <option value="member">{t('account.roleName', { role: 'member' })}</option>
                      </select>
                    ) : (
                      t('account.roleName', { role: m.role })
                    )}
                  </td>
                  {manage ? (
                    <td class="hide-phone">
                      <Time iso={m.lastSignInAt ?? null} />
                    </td>
                  ) : null}
                  {manage ? (
                    <td>
                      <div class="row">
                        {/* An agent never signs in: no password to reset, no second factor. */}
                        {m.agent ? null : (
                          <button
                            type="button"
                            onClick={async () => {
                              const answer = await action.run(() =>
                                api.call('POST /api/workspace/members/{id}/password-reset', { params: { id: m.id } }),
                              );
                              if (answer) {
                                onLink({
                                  title: t('people.resetTitle', { name: m.name }),
                                  label: t('people.resetLink'),
                                  url: answer.data.resetUrl,
                                  note: t('people.resetNote', {
                                    until: new Date(answer.data.expiresAt).toLocaleString(intlLocale()),
                                    name: m.name,
                                  }),
                                });
                              }
                            }}
                          >
                            {t('people.resetLink')}
                            <span class="skip"> {t('people.forName', { name: m.name })}</span>
                          </button>
                        )}
                        {m.twoFactor && !m.agent ? (
                          <button type="button" onClick={() => setResetting({ id: m.id, name: m.name })}>
                            {t('people.resetTwoFactor')}
                            <span class="skip"> {t('people.ofName', { name: m.name })}</span>
                          </button>
                        ) : null}
                        {m.role === 'admin' && onlyAdmin ? (
                          // The server refuses it anyway: the workspace would have nobody to run it.
                          <span class="muted small">{t('people.onlyAdmin', { name: m.name })}</span>
                        ) : (
                          <button type="button" class="danger" onClick={() => setRemoving({ id: m.id, name: m.name })}>
                            {t('people.remove')}
                            <span class="skip"> {m.name}</span>
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
      <MoreRows pages={members} label={t('people.moreMembers')} />
      <ConfirmDialog
        title={t('people.resetTwoFactorTitle', { name: resetting?.name ?? '' })}
        open={resetting !== null}
        onClose={() => setResetting(null)}
        confirm={t('people.resetTwoFactor')}
        action={action}
        request={() =>
          api.call('DELETE /api/workspace/members/{id}/two-factor', { params: { id: resetting?.id ?? '' } })
        }
        done={() => {
          setResetting(null);
          members.reload();
        }}
      >
        <p>{t('people.resetTwoFactorBody')}</p>
      </ConfirmDialog>
      <RemoveMember
        member={removing}
        body={t('people.removeBody')}
        action={action}
        onClose={() => setRemoving(null)}
        onRemoved={() => {
          setRemoving(null);
          members.reload();
        }}
      />
    </section>
  );
}

/** Asks before removing `member` (a person or an agent) from the team; `body` says what follows. */
export function RemoveMember({
  member,
  body,
  action,
  onClose,
  onRemoved,
}: {
  member: { id: string; name: string } | null;
  body: string;
  action: ReturnType<typeof useAction>;
  onClose: () => void;
  onRemoved: () => void;
}) {
  return (
    <ConfirmDialog
      title={t('people.removeTitle', { name: member?.name ?? '' })}
      open={member !== null}
      onClose={onClose}
      confirm={t('people.remove')}
      action={action}
      request={() => api.call('DELETE /api/workspace/members/{id}', { params: { id: member?.id ?? '' } })}
      done={onRemoved}
    >
      <p>{body}</p>
    </ConfirmDialog>
  );
}

function Invitations({ onLink }: { onLink: (link: ShownLink) => void }) {
  const invites = usePages((cursor) => api.call('GET /api/workspace/invites', { query: { limit: 100, cursor } }), []);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<'admin' | 'member'>('member');
  const action = useAction();
  return (
    <section aria-labelledby="invites">
      <h2 id="invites">{t('people.invitations')}</h2>
      <form
        class="card"
        onSubmit={async (event) => {
          event.preventDefault();
          const answer = await action.run(() => api.call('POST /api/workspace/invites', { body: { email, role } }));
          if (answer) {
            onLink({
              title: t('people.inviteTitle', { email: answer.data.email }),
              label: t('people.inviteLink'),
              url: answer.data.inviteUrl,
              note: t('people.inviteNote', { until: new Date(answer.data.expiresAt).toLocaleString(intlLocale()) }),
            });
            setEmail('');
            invites.reload();
          }
        }}
      >
        <div class="filters" style="margin:0">
          <Field label={t('account.email')} type="email" required value={email} onValue={setEmail} />
          <div class="field">
            <label for="invite-role">{t('account.role')}</label>
            <select
              id="invite-role"
              value={role}
              onChange={(e) => setRole((e.target as HTMLSelectElement).value as 'admin' | 'member')}
            >
              <option value="member">{t('account.roleName', { role: 'member' })}</option>
              <option value="admin">{t('account.roleName', { role: 'admin' })}</option>
            </select>
          </div>
        </div>
        <FormError message={action.error} />
        <button class="primary" type="submit" disabled={action.pending}>
          {t('people.invite')}
        </button>
      </form>
      {invites.data?.items.length ? (
        <div class="table-wrap" style="margin-top:12px">
          <table>
            <caption class="skip">{t('people.pending')}</caption>
            <TableHead columns={[t('account.email'), t('account.role'), [t('people.expires'), 'wide'], '']} />
            <tbody>
              {invites.data.items.map((invite) => (
                <tr key={invite.id}>
                  <td class="wrap">{invite.email}</td>
                  <td>{t('account.roleName', { role: invite.role })}</td>
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
                      {t('people.withdraw')}
                      <span class="skip"> {t('people.invitationOf', { email: invite.email })}</span>
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p class="muted">{t('people.noInvitations')}</p>
      )}
      <MoreRows pages={invites} label={t('people.moreInvitations')} />
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

export function People() {
  const [link, setLink] = useState<ShownLink | null>(null);
  return (
    <>
      <PageTitle>{t('nav.people')}</PageTitle>
      <Team onLink={setLink} />
      {may('manageMembers') ? <Invitations onLink={setLink} /> : null}
      <ClientLinks onLink={setLink} />
      {may('manageSecurity') ? <TwoFactorRule /> : null}
      {may('manageSecurity') ? <SingleSignOnSettings /> : null}
      <Dialog title={link?.title ?? ''} open={link !== null} onClose={() => setLink(null)}>
        {link ? (
          <>
            <CopyBox label={link.label} text={link.url} />
            <p class="muted small">{t('people.shownOnce', { note: link.note })}</p>
            <button type="button" class="primary" onClick={() => setLink(null)}>
              {t('keys.done')}
            </button>
          </>
        ) : null}
      </Dialog>
    </>
  );
}
