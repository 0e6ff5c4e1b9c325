// Signing in, accepting an invitation and completing a password reset: the pages for people
// without a session. Invitation and reset links carry their token after '#', which never
// leaves the browser.
import type { LoginResult, SecondFactorAsked } from '@svc/contract';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api.js';
import { type MessageId, t, tx } from '../i18n.js';
import { type AnswerWith, useAction, useLoad } from '../loading.js';
import { Link, navigate } from '../router.js';
import { adoptSession, signedOutReason } from '../session.js';
import { Field, FormError } from '../ui.js';
import { SingleSignOn } from './sso.js';
import { SecondFactorStep } from './two-factor.js';

function Frame({ title, children }: { title: string; children: preact.ComponentChildren }) {
  useEffect(() => {
    document.title = t('app.title', { page: title });
  }, [title]);
  return (
    <main class="narrow">
      <div class="card stack">
        <h1>{title}</h1>
        {children}
      </div>
    </main>
  );
}

/** The second step of a way in (a sign-in, an invitation, a reset): the app's code, or enrolling one. */
function SecondFactorFrame(props: Parameters<typeof SecondFactorStep>[0]) {
  return (
    <Frame title={t('signIn.twoFactorTitle')}>
      <SecondFactorStep {...props} />
    </Frame>
  );
}

/** A way in's answer: a session to start at the inbox with, or the second factor to ask for first. */
async function signedInOrAsk(answer: LoginResult, ask: (asked: SecondFactorAsked) => void) {
  if ('token' in answer) await startAtInbox(answer.token);
  else ask(answer);
}

export function SignIn() {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [asked, setAsked] = useState<SecondFactorAsked | null>(null);
  const action = useAction();
  const server = useLoad(() => api.call('GET /api/server', {}), []);
  if (asked) {
    return (
      <SecondFactorFrame
        asked={asked}
        onSession={adoptSession}
        onCancel={() => {
          setAsked(null);
          setPassword('');
        }}
      />
    );
  }
  return (
    <Frame title={t('signIn.title')}>
      {signedOutReason.value ? <p class="notice">{signedOutReason.value}</p> : null}
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          const answer = await action.run(() => api.call('POST /api/auth/login', { body: { email, password } }));
          if (!answer) return;
          if ('token' in answer.data) await adoptSession(answer.data.token);
          else setAsked(answer.data);
        }}
      >
        <Field
          label={t('signIn.email')}
          type="email"
          autocomplete="username"
          required
          value={email}
          onValue={setEmail}
        />
        <Field
          label={t('signIn.password')}
          type="password"
          autocomplete="current-password"
          required
          value={password}
          onValue={setPassword}
        />
        <FormError message={action.error} />
        <button class="primary" type="submit" disabled={action.pending}>
          {action.pending ? t('signIn.signingIn') : t('signIn.submit')}
        </button>
      </form>
      <SingleSignOn email={email} />
      {server.data?.demo ? (
        <p class="notice small">
          {tx('signIn.demo', { command: <code>npm start</code>, link: <a href="/demo">{t('signIn.demoPage')}</a> })}
        </p>
      ) : null}
      {server.data?.signup ? (
        <p>{tx('signIn.newHere', { link: <Link href="/sign-up">{t('signIn.createWorkspaceLink')}</Link> })}</p>
      ) : null}
      <p class="muted small">{t('signIn.clientHint')}</p>
    </Frame>
  );
}

/** A new workspace and its first admin: open while the server's sign-up policy allows it. */
export function CreateWorkspace() {
  const [workspaceName, setWorkspaceName] = useState('');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const action = useAction();
  const server = useLoad(() => api.call('GET /api/server', {}), []);
  if (server.data && !server.data.signup) {
    return (
      <Frame title={t('signUp.title')}>
        <p>{tx('signUp.closed', { link: <Link href="/sign-in">{t('signUp.signInLink')}</Link> })}</p>
      </Frame>
    );
  }
  return (
    <Frame title={t('signUp.title')}>
      <p class="muted">{t('signUp.lead')}</p>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          const answer = await action.run(() =>
            api.call('POST /api/signup', { body: { workspaceName, name, email, password } }),
          );
          if (answer) await startAtInbox(answer.data.token);
        }}
      >
        <Field
          label={t('signUp.workspaceName')}
          hint={t('signUp.workspaceNameHint')}
          required
          maxLength={100}
          autocomplete="organization"
          value={workspaceName}
          onValue={setWorkspaceName}
        />
        <YourName value={name} onValue={setName} />
        <Field
          label={t('signIn.email')}
          type="email"
          required
          autocomplete="username"
          value={email}
          onValue={setEmail}
        />
        <NewPassword label={t('signIn.password')} value={password} onValue={setPassword} />
        <FormError message={action.error} />
        <button class="primary" type="submit" disabled={action.pending}>
          {action.pending ? t('signUp.creating') : t('signUp.submit')}
        </button>
      </form>
      <p class="muted small">{tx('signUp.haveAccount', { link: <Link href="/sign-in">{t('signIn.submit')}</Link> })}</p>
    </Frame>
  );
}

/** The token after '#' in the address; taken out of the address bar once read. */
function useFragmentToken(): string {
  const [token] = useState(() => window.location.hash.slice(1));
  useEffect(() => {
    if (window.location.hash) history.replaceState(null, '', window.location.pathname);
  }, []);
  return token;
}

/** Keeps the session a link gave and opens the inbox. */
async function startAtInbox(token: string): Promise<void> {
  await adoptSession(token);
  navigate('/', true);
}

/** The name a newcomer goes by. */
function YourName(props: { value: string; onValue: (value: string) => void }) {
  return <Field {...props} label={t('signUp.yourName')} required maxLength={100} autocomplete="name" />;
}

/** A password being chosen, with the rule it must meet. */
function NewPassword(props: { label: string; value: string; onValue: (value: string) => void }) {
  return (
    <Field {...props} hint={t('password.hint')} type="password" required minLength={10} autocomplete="new-password" />
  );
}

/**
 * A page a link opens (an invitation, a password reset): its token from the address, a form
 * that sends it with a new password (and a name, for a newcomer), then the second factor if
 * the account has or needs one, or the inbox.
 */
function LinkPage(props: {
  words: { title: MessageId; incomplete: MessageId; lead: MessageId; password: MessageId; submit: MessageId };
  askName: boolean;
  send: (fields: { token: string; name: string; password: string }) => Promise<AnswerWith<LoginResult>>;
}) {
  const { words } = props;
  const token = useFragmentToken();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [asked, setAsked] = useState<SecondFactorAsked | null>(null);
  const action = useAction();
  // The link did its part: what is left is the second factor, or signing in again with the password.
  if (asked) return <SecondFactorFrame asked={asked} onSession={startAtInbox} onCancel={() => navigate('/sign-in')} />;
  if (!token) {
    return (
      <Frame title={t(words.title)}>
        <p>{t(words.incomplete)}</p>
      </Frame>
    );
  }
  return (
    <Frame title={t(words.title)}>
      <p class="muted">{t(words.lead)}</p>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          const answer = await action.run(() => props.send({ token, name, password }));
          if (answer) await signedInOrAsk(answer.data, setAsked);
        }}
      >
        {props.askName && <YourName value={name} onValue={setName} />}
        <NewPassword label={t(words.password)} value={password} onValue={setPassword} />
        <FormError message={action.error} />
        <button class="primary" type="submit" disabled={action.pending}>
          {t(words.submit)}
        </button>
      </form>
    </Frame>
  );
}

export function AcceptInvite() {
  return (
    <LinkPage
      words={{
        title: 'invite.title',
        incomplete: 'invite.incomplete',
        lead: 'invite.lead',
        password: 'signIn.password',
        submit: 'invite.submit',
      }}
      askName
      send={(body) => api.call('POST /api/invites/accept', { body })}
    />
  );
}

export function CompleteReset() {
  return (
    <LinkPage
      words={{
        title: 'reset.title',
        incomplete: 'reset.incomplete',
        lead: 'reset.lead',
        password: 'reset.newPassword',
        submit: 'reset.submit',
      }}
      askName={false}
      send={({ token, password }) => api.call('POST /api/password-reset/complete', { body: { token, password } })}
    />
  );
}
