// The signed-in person: who they are, their password, two-factor sign-in, and their sessions.
import { isLocale, LOCALE_NAMES, LOCALES } from '@svc/contract/i18n';
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { intlLocale, t } from '../i18n.js';
import { Loading, useAction, useLoad } from '../loading.js';
import { may, me } from '../session.js';
import { Field, FormError, PageTitle, TableHead, Time } from '../ui.js';
import { TwoFactorSection } from './two-factor.js';

export function Account() {
  const user = me.value?.user;
  const sessions = useLoad(() => api.call('GET /api/me/sessions', {}), []);
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [done, setDone] = useState('');
  const password = useAction();
  const others = useAction();
  return (
    <>
      <PageTitle>{t('account.title')}</PageTitle>
      <div class="card">
        <dl class="facts">
          <dt>{t('account.name')}</dt>
          <dd>{user?.name}</dd>
          <dt>{t('account.email')}</dt>
          <dd>{user?.email}</dd>
          <dt>{t('account.role')}</dt>
          <dd>{t('account.roleName', { role: user?.role ?? '' })}</dd>
          <dt>{t('account.workspace')}</dt>
          <dd>{me.value?.workspace.name}</dd>
        </dl>
      </div>
      <Languages />
      {may('readStorage') ? <Storage /> : null}
      <h2>{t('account.password')}</h2>
      <form
        class="card"
        onSubmit={async (event) => {
          event.preventDefault();
          const answer = await password.run(() =>
            api.call('POST /api/me/password', { body: { currentPassword: current, newPassword: next } }),
          );
          if (answer) {
            setCurrent('');
            setNext('');
            setDone(t('account.passwordChanged', { ended: answer.data.ended }));
            sessions.reload();
          }
        }}
      >
        <Field
          label={t('account.currentPassword')}
          type="password"
          autocomplete="current-password"
          required
          value={current}
          onValue={setCurrent}
        />
        <Field
          label={t('reset.newPassword')}
          hint={t('password.hint')}
          type="password"
          autocomplete="new-password"
          required
          minLength={10}
          value={next}
          onValue={setNext}
        />
        <FormError message={password.error} />
        {done ? (
          <p role="status" class="small">
            {done}
          </p>
        ) : null}
        <button class="primary" type="submit" disabled={password.pending}>
          {t('account.changePassword')}
        </button>
      </form>
      <TwoFactorSection />
      <h2>{t('account.sessions')}</h2>
      {sessions.data ? null : <Loading error={sessions.error} />}
      {sessions.data ? (
        <div class="table-wrap">
          <table>
            <TableHead columns={[t('account.client'), t('account.lastUsed'), [t('account.ends'), 'wide']]} />
            <tbody>
              {sessions.data.items.map((s) => (
                <tr key={s.id}>
                  <td class="wrap small">
                    {s.userAgent ?? t('account.unknownClient')}
                    {s.current ? <strong> {t('account.thisOne')}</strong> : null}
                  </td>
                  <td>
                    <Time iso={s.lastSeenAt} />
                  </td>
                  <td class="hide-phone">
                    <Time iso={s.expiresAt} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      <FormError message={others.error} />
      <p>
        <button
          type="button"
          disabled={others.pending || (sessions.data?.items.length ?? 0) < 2}
          onClick={async () => {
            await others.run(() => api.call('POST /api/me/sessions/end-others', {}));
            sessions.reload();
          }}
        >
          {t('account.signOutOthers')}
        </button>
      </p>
    </>
  );
}

/**
 * The person's language (every account), and for an admin the workspace's default: the
 * language of those whose browser speaks none of the apps'. A change redraws the console in it.
 */
function Languages() {
  const mine = useAction();
  const workspace = useAction();
  const choose = async (locale: string) => {
    const answer = await mine.run(() =>
      api.call('PATCH /api/me', { body: { locale: isLocale(locale) ? locale : null } }),
    );
    if (answer && me.value) me.value = { ...me.value, user: answer.data };
  };
  const setDefault = async (locale: string) => {
    const answer = await workspace.run(() =>
      api.call('PATCH /api/workspace', { body: { defaultLocale: isLocale(locale) ? locale : null } }),
    );
    if (answer && me.value) me.value = { ...me.value, workspace: answer.data };
  };
  const options = (automatic: string) => [
    <option key="" value="">
      {automatic}
    </option>,
    ...LOCALES.map((locale) => (
      <option key={locale} value={locale} lang={locale}>
        {LOCALE_NAMES[locale]}
      </option>
    )),
  ];
  return (
    <>
      <h2>{t('account.language')}</h2>
      <div class="card stack">
        <div class="field">
          <label for="language">{t('account.yourLanguage')}</label>
          <div class="hint">{t('account.languageHint')}</div>
          <select
            id="language"
            value={me.value?.user.locale ?? ''}
            disabled={mine.pending}
            onChange={(event) => void choose((event.target as HTMLSelectElement).value)}
          >
            {options(t('account.languageAuto'))}
          </select>
        </div>
        <FormError message={mine.error} />
        {may('manageSettings') ? (
          <div class="field">
            <label for="workspace-language">{t('account.workspaceLanguage')}</label>
            <div class="hint">{t('account.workspaceLanguageHint')}</div>
            <select
              id="workspace-language"
              value={me.value?.workspace.defaultLocale ?? ''}
              disabled={workspace.pending}
              onChange={(event) => void setDefault((event.target as HTMLSelectElement).value)}
            >
              {options(t('account.workspaceLanguageNone'))}
            </select>
          </div>
        ) : null}
        <FormError message={workspace.error} />
      </div>
    </>
  );
}

const UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/** A size in the reader's language, in binary units as the server counts them: "720 kB", "4.5 GB". */
function sizeText(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const format = { style: 'unit', unit: UNITS[unit], unitDisplay: 'short', maximumFractionDigits: 1 } as const;
  return new Intl.NumberFormat(intlLocale(), format).format(value);
}

/** Past this share of the quota, the admin is told it is almost full. */
const ALMOST_FULL = 0.9;

/**
 * For an admin: what the workspace's images and screenshots take of its storage quota, and
 * what frees it. Uploads past the quota are refused (the widget and the console say so).
 */
function Storage() {
  const storage = useLoad(() => api.call('GET /api/workspace/storage', {}), []);
  const use = storage.data;
  const share = use ? use.usedBytes / Math.max(use.quotaBytes, 1) : 0;
  return (
    <>
      <h2 id="storage">{t('storage.title')}</h2>
      <div class="card stack storage">
        {use ? (
          <>
            <p id="storage-use">
              {t('storage.use', { used: sizeText(use.usedBytes), quota: sizeText(use.quotaBytes) })}
            </p>
            <meter
              aria-label={t('storage.meter')}
              aria-describedby="storage-use"
              min={0}
              max={use.quotaBytes}
              value={Math.min(use.usedBytes, use.quotaBytes)}
              low={use.quotaBytes * ALMOST_FULL}
              high={use.quotaBytes * ALMOST_FULL}
              optimum={0}
            />
            {share >= 1 ? (
              <p class="error">{t('storage.full')}</p>
            ) : share >= ALMOST_FULL ? (
              <p class="notice">{t('storage.almostFull')}</p>
            ) : null}
            <p class="hint">{t('storage.hint')}</p>
          </>
        ) : (
          <Loading error={storage.error} />
        )}
      </div>
    </>
  );
}
