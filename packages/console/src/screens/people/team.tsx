// The team: each member's role (menus for admins), last sign-in, password reset link, second
// factor reset and removal. Agents are listed here and managed under Agents.
import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import { intlLocale, t } from '../../i18n.js';
import { Loading, MoreRows, useAction, usePages } from '../../loading.js';
import { may, me } from '../../session.js';
import { ConfirmDialog, FormError, Time } from '../../ui.js';
import { RemoveMember } from './remove-member.js';
import type { ShownLink } from './shown-link.js';

/** The workspace's members; `onLink` shows a password reset link just made. */
export function Team({ onLink }: { onLink: (link: ShownLink) => void }) {
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
