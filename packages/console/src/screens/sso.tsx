// Single sign-on in the console: "Continue with <provider>" on the sign-in page (found by the
// e-mail's domain, or by the workspace's sign-in link), the provider's answer taken from the
// address's fragment, and the admins' settings.
import type { PutSsoBody, SsoDiscovery, SsoDomain } from '@svc/contract';
import { useEffect, useId, useState } from 'preact/hooks';
import { api } from '../api.js';
import { type MessageId, t } from '../i18n.js';
import { Loading, useAction, useLoad } from '../loading.js';
import { adoptSession } from '../session.js';
import { CopyBox, Field, FormError } from '../ui.js';

/** The provider's answer, after '#': a one-time code to exchange, or why it was refused; taken out of the address. */
function useProviderAnswer() {
  const [answer] = useState(() => {
    const fragment = new URLSearchParams(window.location.hash.slice(1));
    return { code: fragment.get('sso_code'), error: fragment.get('sso_error') };
  });
  useEffect(() => {
    if (answer.code || answer.error) history.replaceState(null, '', window.location.pathname + window.location.search);
  }, [answer]);
  return answer;
}

/** The secret of a sign-in started in this tab, kept for the exchange of its code when the provider sends the tab back. */
const BINDING_KEY = 'svc:console:sso-binding';
const keepBinding = (binding: string) => sessionStorage.setItem(BINDING_KEY, binding);
function takeBinding(): string {
  const binding = sessionStorage.getItem(BINDING_KEY) ?? 'none';
  sessionStorage.removeItem(BINDING_KEY);
  return binding;
}

/** "Continue with <provider>": for the workspace of the sign-in link, or of the e-mail typed. */
export function SingleSignOn({ email }: { email: string }) {
  const answer = useProviderAnswer();
  const action = useAction();
  const [found, setFound] = useState<SsoDiscovery | null>(null);
  const linked = new URLSearchParams(window.location.search).get('sso');
  const domain = /@([^@\s]+\.[^@\s]+)$/.exec(email.trim())?.[1] ?? '';
  useEffect(() => {
    if (!answer.code) return;
    const binding = takeBinding();
    void action
      .run(() => api.call('POST /api/auth/sso/exchange', { body: { code: answer.code ?? '', binding } }))
      .then((session) => session && adoptSession(session.data.token));
  }, [answer.code]);
  useEffect(() => {
    if (!linked && !domain) return setFound(null);
    let current = true;
    const query = linked ? { workspace: linked } : { email: `someone@${domain}` };
    void api
      .call('GET /api/auth/sso', { query })
      .then((result) => current && setFound(result.ok ? result.data : null))
      .catch(() => null);
    return () => {
      current = false;
    };
  }, [linked, domain]);
  return (
    <>
      {answer.error ? (
        <p class="error" role="alert">
          {t('sso.failed', { reason: answer.error })}
        </p>
      ) : null}
      <FormError message={action.error} />
      {found ? (
        <button
          type="button"
          class="primary wide"
          disabled={action.pending}
          onClick={async () => {
            const started = await action.run(() =>
              api.call('POST /api/auth/sso/start', { body: { workspace: found.workspaceId } }),
            );
            if (!started) return;
            keepBinding(started.data.binding);
            window.location.assign(started.data.url);
          }}
        >
          {t('sso.continue', { provider: found.displayName })}
        </button>
      ) : null}
    </>
  );
}

const ROLES: [string, MessageId][] = [
  ['', 'sso.joinNobody'],
  ['member', 'sso.joinMembers'],
  ['admin', 'sso.joinAdmins'],
];

/** The admins' settings of the workspace's provider. */
export function SingleSignOnSettings() {
  const current = useLoad(() => api.call('GET /api/workspace/sso', {}), []);
  const action = useAction();
  const [form, setForm] = useState<(Omit<PutSsoBody, 'allowedDomains'> & { domains: string }) | null>(null);
  const [saved, setSaved] = useState('');
  const roleId = useId();
  useEffect(() => {
    const s = current.data;
    if (!s) return;
    setForm({
      issuer: s.issuer ?? '',
      clientId: s.clientId ?? '',
      clientSecret: '',
      displayName: s.displayName ?? '',
      domains: s.allowedDomains.join(', '),
      newMemberRole: s.newMemberRole,
      requireForMembers: s.requireForMembers,
    });
  }, [current.data]);
  if (!current.data || !form) return <Loading error={current.error} />;
  const s = current.data;
  const set = (change: Partial<typeof form>) => setForm({ ...form, ...change });
  return (
    <section aria-labelledby="sso">
      <h2 id="sso">{t('sso.title')}</h2>
      <form
        class="card stack"
        onSubmit={async (event) => {
          event.preventDefault();
          const { domains, clientSecret, ...rest } = form;
          const body: PutSsoBody = {
            ...rest,
            allowedDomains: domains
              .split(/[\s,]+/)
              .map((d) => d.trim().toLowerCase())
              .filter(Boolean),
            ...(clientSecret ? { clientSecret } : {}),
          };
          const answer = await action.run(() => api.call('PUT /api/workspace/sso', { body }));
          if (answer) {
            setSaved(t('sso.saved', { provider: answer.data.displayName ?? '' }));
            current.reload();
          }
        }}
      >
        <p class="muted small">{t('sso.lead')}</p>
        <CopyBox label={t('sso.redirectUrl')} text={s.redirectUrl} />
        <Field
          label={t('sso.issuer')}
          hint="https://accounts.google.com, https://login.microsoftonline.com/<tenant>/v2.0, https://<org>.okta.com, https://<host>/realms/<realm>"
          type="url"
          required
          value={form.issuer}
          onValue={(issuer) => set({ issuer })}
        />
        <Field label={t('sso.clientId')} required value={form.clientId} onValue={(clientId) => set({ clientId })} />
        <Field
          label={t('sso.clientSecret')}
          hint={s.configured ? t('sso.clientSecretHint') : undefined}
          type="password"
          autocomplete="off"
          required={!s.configured}
          value={form.clientSecret ?? ''}
          onValue={(clientSecret) => set({ clientSecret })}
        />
        <Field
          label={t('sso.buttonName')}
          hint={t('sso.buttonNameHint')}
          required
          maxLength={60}
          value={form.displayName}
          onValue={(displayName) => set({ displayName })}
        />
        <Field
          label={t('sso.domains')}
          hint={t('sso.domainsHint')}
          value={form.domains}
          onValue={(domains) => set({ domains })}
        />
        <div class="field">
          <label for={roleId}>{t('sso.newPeople')}</label>
          <select
            id={roleId}
            value={form.newMemberRole ?? ''}
            onChange={(e) => {
              const value = (e.target as HTMLSelectElement).value;
              set({ newMemberRole: value === '' ? null : (value as 'member' | 'admin') });
            }}
          >
            {ROLES.map(([value, label]) => (
              <option key={value} value={value}>
                {t(label)}
              </option>
            ))}
          </select>
        </div>
        <label class="row">
          <input
            type="checkbox"
            checked={form.requireForMembers}
            onChange={(e) => set({ requireForMembers: (e.target as HTMLInputElement).checked })}
          />
          {t('sso.requireForMembers')}
        </label>
        <FormError message={action.error} />
        {saved ? (
          <p class="notice" role="status">
            {saved}
          </p>
        ) : null}
        <div class="row">
          <button class="primary" type="submit" disabled={action.pending}>
            {action.pending ? t('sso.checking') : t('projects.save')}
          </button>
          {s.configured ? (
            <button
              type="button"
              class="danger"
              disabled={action.pending}
              onClick={async () => {
                if (await action.run(() => api.call('DELETE /api/workspace/sso', {}))) {
                  setSaved(t('sso.removed'));
                  current.reload();
                }
              }}
            >
              {t('sso.remove')}
            </button>
          ) : null}
        </div>
        {s.configured ? <CopyBox label={t('sso.signInLink')} text={s.signInUrl} /> : null}
      </form>
      {s.domains.length ? <DomainProofs domains={s.domains} onProven={current.reload} /> : null}
    </section>
  );
}

/**
 * Each listed domain with its proof: a proven one routes sign-ins here; an unproven one shows
 * the TXT record to publish at its DNS host and a button that has the server look it up.
 */
function DomainProofs({ domains, onProven }: { domains: SsoDomain[]; onProven: () => void }) {
  const action = useAction();
  const [checked, setChecked] = useState('');
  return (
    <div class="card stack" style="margin-top:12px">
      <h3>{t('sso.domainsProof')}</h3>
      <p class="muted small">{t('sso.domainsProofLead')}</p>
      {checked ? (
        <p class="notice" role="status">
          {checked}
        </p>
      ) : null}
      <FormError message={action.error} />
      <ul class="thread">
        {domains.map((domain) => (
          <li key={domain.domain} class="stack">
            <div class="row spread">
              <strong class="wrap">{domain.domain}</strong>
              {domain.proven ? (
                <span class="pill verified">
                  {domain.provenBy === 'operator' ? t('sso.domainProvenByOperator') : t('sso.domainProven')}
                </span>
              ) : (
                <span class="pill">{t('sso.domainPending')}</span>
              )}
            </div>
            {domain.proven ? null : (
              <>
                <CopyBox label={t('sso.recordName')} text={domain.record.name} />
                <CopyBox label={t('sso.recordValue')} text={domain.record.value} />
                <div>
                  <button
                    type="button"
                    disabled={action.pending}
                    onClick={async () => {
                      setChecked('');
                      const answer = await action.run(() =>
                        api.call('POST /api/workspace/sso/domains/{domain}/check', {
                          params: { domain: domain.domain },
                        }),
                      );
                      if (!answer) return;
                      setChecked(t('sso.domainChecked', { domain: domain.domain }));
                      onProven();
                    }}
                  >
                    {t('sso.checkDomain', { domain: domain.domain })}
                  </button>
                </div>
              </>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}
