// Two-factor sign-in in the console: the code asked after the password (or setting up an app
// when the workspace requires one), the account page's section, and the workspace's rule.
import type { SecondFactorAsked, TwoFactorEnrolment, TwoFactorRequired } from '@svc/contract';
import { useId, useState } from 'preact/hooks';
import { api } from '../api.js';
import { intlLocale, type MessageId, t, tx } from '../i18n.js';
import { Loading, useAction, useLoad } from '../loading.js';
import { loadMe, me } from '../session.js';
import { CopyBox, Field, FormError } from '../ui.js';

/** The QR code to scan, and the seed to type for an app that cannot scan. */
function Enrolment({ enrolment }: { enrolment: TwoFactorEnrolment }) {
  return (
    <div class="stack">
      <p>{t('twoFactor.scan')}</p>
      <img
        class="qr"
        src={`data:image/svg+xml;base64,${btoa(enrolment.qrSvg)}`}
        alt={t('twoFactor.qrAlt')}
        width={200}
        height={200}
      />
      <CopyBox label={t('twoFactor.setupKey')} text={enrolment.secret} />
    </div>
  );
}

/** Recovery codes, shown once. */
export function RecoveryCodesShown({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  return (
    <div class="stack">
      <p>{tx('twoFactor.keepCodes', { strong: <strong>{t('twoFactor.keepCodesStrong')}</strong> })}</p>
      <CopyBox label={t('twoFactor.recoveryCodes')} text={codes.join('\n')} multiline />
      <button type="button" class="primary" onClick={onDone}>
        {t('twoFactor.kept')}
      </button>
    </div>
  );
}

const CodeField = ({
  value,
  onValue,
  recovery,
}: {
  value: string;
  onValue: (v: string) => void;
  recovery: boolean;
}) => (
  <Field
    label={t(recovery ? 'twoFactor.codeOrRecovery' : 'twoFactor.code')}
    hint={t(recovery ? 'twoFactor.codeOrRecoveryHint' : 'twoFactor.codeHint')}
    autocomplete="one-time-code"
    inputMode={recovery ? 'text' : 'numeric'}
    required
    maxLength={20}
    value={value}
    onValue={onValue}
  />
);

/** After a right password: the code, or setting up an app first; then the session. */
export function SecondFactorStep({
  asked,
  onSession,
  onCancel,
}: {
  asked: SecondFactorAsked;
  onSession: (token: string) => Promise<void>;
  onCancel: () => void;
}) {
  const [code, setCode] = useState('');
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment | null>(null);
  const [session, setSession] = useState<{ token: string; codes: string[] } | null>(null);
  const action = useAction();
  if (session) return <RecoveryCodesShown codes={session.codes} onDone={() => onSession(session.token)} />;
  const enrolling = asked.secondFactor === 'enrol';
  return (
    <div class="stack">
      {enrolling ? <p>{t('twoFactor.required')}</p> : <p>{t('twoFactor.openApp')}</p>}
      {enrolling && !enrolment ? (
        <>
          <FormError message={action.error} />
          <button
            type="button"
            class="primary"
            disabled={action.pending}
            onClick={async () => {
              const answer = await action.run(() =>
                api.call('POST /api/auth/two-factor/enrolment', { body: { challenge: asked.challenge } }),
              );
              if (answer) setEnrolment(answer.data);
            }}
          >
            {t('twoFactor.setUp')}
          </button>
        </>
      ) : (
        <form
          onSubmit={async (event) => {
            event.preventDefault();
            const answer = await action.run(() =>
              api.call('POST /api/auth/two-factor', { body: { challenge: asked.challenge, code } }),
            );
            if (!answer) return;
            if (answer.data.recoveryCodes) setSession({ token: answer.data.token, codes: answer.data.recoveryCodes });
            else await onSession(answer.data.token);
          }}
        >
          {enrolment ? <Enrolment enrolment={enrolment} /> : null}
          <CodeField value={code} onValue={setCode} recovery={!enrolling} />
          <FormError message={action.error} />
          <button class="primary" type="submit" disabled={action.pending}>
            {action.pending ? t('twoFactor.checking') : enrolling ? t('twoFactor.turnOnAndSignIn') : t('signIn.submit')}
          </button>
        </form>
      )}
      <button type="button" class="link" onClick={onCancel}>
        {t('twoFactor.back')}
      </button>
    </div>
  );
}

/** The account page's section: on or off, setting up an app, new recovery codes, turning it off. */
export function TwoFactorSection() {
  const status = useLoad(() => api.call('GET /api/me/two-factor', {}), []);
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const [enrolment, setEnrolment] = useState<TwoFactorEnrolment | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const action = useAction();
  const done = () => {
    setPassword('');
    setCode('');
    setEnrolment(null);
    setCodes(null);
    status.reload();
  };
  const withPassword = (then: (password: string) => Promise<void>) => async (event: Event) => {
    event.preventDefault();
    await then(password);
  };
  if (!status.data) return <Loading error={status.error} />;
  const s = status.data;
  return (
    <section aria-labelledby="two-factor" class="card stack">
      <h2 id="two-factor">{t('signIn.twoFactorTitle')}</h2>
      {codes ? (
        <RecoveryCodesShown codes={codes} onDone={done} />
      ) : enrolment ? (
        <form
          onSubmit={async (event) => {
            event.preventDefault();
            const answer = await action.run(() => api.call('POST /api/me/two-factor/confirm', { body: { code } }));
            if (answer) setCodes(answer.data.recoveryCodes);
          }}
        >
          <Enrolment enrolment={enrolment} />
          <CodeField value={code} onValue={setCode} recovery={false} />
          <FormError message={action.error} />
          <div class="row">
            <button class="primary" type="submit" disabled={action.pending}>
              {t('twoFactor.turnOn')}
            </button>
            <button type="button" onClick={done}>
              {t('ui.cancel')}
            </button>
          </div>
        </form>
      ) : (
        <form
          onSubmit={withPassword(async (pw) => {
            const answer = await action.run(() =>
              api.call('POST /api/me/two-factor/enrolment', { body: { password: pw } }),
            );
            if (answer) setEnrolment(answer.data);
          })}
        >
          <p>
            {s.enabled
              ? t('twoFactor.onSince', {
                  since: new Date(s.enabledAt ?? '').toLocaleDateString(intlLocale()),
                  left: s.recoveryCodesLeft,
                })
              : t('twoFactor.off')}
            {s.required ? ` ${t('twoFactor.requiredOfYou')}` : ''}
          </p>
          <Field
            label={t('twoFactor.password')}
            type="password"
            autocomplete="current-password"
            required
            value={password}
            onValue={setPassword}
          />
          <FormError message={action.error} />
          <div class="row">
            {s.enabled ? (
              <>
                <button
                  type="button"
                  disabled={action.pending || !password}
                  onClick={async () => {
                    const answer = await action.run(() =>
                      api.call('POST /api/me/two-factor/recovery-codes', { body: { password } }),
                    );
                    if (answer) setCodes(answer.data.recoveryCodes);
                  }}
                >
                  {t('twoFactor.newCodes')}
                </button>
                {s.required ? null : (
                  <button
                    type="button"
                    class="danger"
                    disabled={action.pending || !password}
                    onClick={async () => {
                      if (await action.run(() => api.call('POST /api/me/two-factor/disable', { body: { password } }))) {
                        done();
                      }
                    }}
                  >
                    {t('twoFactor.turnOff')}
                  </button>
                )}
              </>
            ) : (
              <button class="primary" type="submit" disabled={action.pending}>
                {t('twoFactor.setUp')}
              </button>
            )}
          </div>
        </form>
      )}
    </section>
  );
}

const RULES: [TwoFactorRequired, MessageId][] = [
  ['none', 'twoFactor.ruleNone'],
  ['admins', 'twoFactor.ruleAdmins'],
  ['everyone', 'twoFactor.ruleEveryone'],
];

/** The workspace's rule, for admins: who must sign in with a second factor. */
export function TwoFactorRule() {
  const action = useAction();
  const id = useId();
  const value = me.value?.workspace.twoFactorRequired ?? 'none';
  return (
    <section aria-labelledby="sign-in-rule">
      <h2 id="sign-in-rule">{t('twoFactor.signIn')}</h2>
      <div class="card stack">
        <div class="field">
          <label for={id}>{t('twoFactor.requiredOf')}</label>
          <select
            id={id}
            value={value}
            disabled={action.pending}
            onChange={async (e) => {
              const twoFactorRequired = (e.target as HTMLSelectElement).value as TwoFactorRequired;
              if (await action.run(() => api.call('PATCH /api/workspace/security', { body: { twoFactorRequired } }))) {
                await loadMe();
              }
            }}
          >
            {RULES.map(([rule, label]) => (
              <option key={rule} value={rule}>
                {t(label)}
              </option>
            ))}
          </select>
        </div>
        <p class="muted small">{t('twoFactor.ruleHint')}</p>
        <FormError message={action.error} />
      </div>
    </section>
  );
}
