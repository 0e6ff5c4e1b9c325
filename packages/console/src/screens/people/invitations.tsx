// Invitations: an admin invites by e-mail address with a role and copies the link made (nothing
// is e-mailed); pending ones are listed until accepted, expired or withdrawn.
import { useState } from 'preact/hooks';
import { api } from '../../api.js';
import { intlLocale, t } from '../../i18n.js';
import { MoreRows, useAction, usePages } from '../../loading.js';
import { Field, FormError, TableHead, Time } from '../../ui.js';
import type { ShownLink } from './shown-link.js';

/** Invite someone, and the invitations pending; `onLink` shows the link just made. */
export function Invitations({ onLink }: { onLink: (link: ShownLink) => void }) {
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
